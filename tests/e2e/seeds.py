"""Synthetic sensitive values, one or more per category of the first-cut detectors.

All are made up: reserved example domains, test card numbers, AWS's documented
example key id, the IBAN registry's example, never-issued SSNs and phone numbers,
and keys that say "T3stOnly".
"""

SEEDS = {
    "EMAIL": ["jane.doe@example.com", "ops-team+alerts@corp.example.org"],
    "PHONE": ["(415) 555-0132", "+44 20 7946 0958"],
    "SSN": ["123-45-6789"],
    "CREDIT_CARD": ["4111 1111 1111 1111", "5555555555554444"],
    "AWS_ACCESS_KEY": ["AKIAIOSFODNN7EXAMPLE"],
    "API_KEY": ["sk-proj-T3stOnlyAbCdEfGhIjKlMnOpQrSt", "sk-ant-api03-TestOnlyAbCdEfGhIjKlMnOpQr"],
    "PRIVATE_IP": ["10.20.30.40", "192.168.1.77"],
    "INTERNAL_URL": ["http://wiki.corp/payroll?id=7", "https://localhost:8443/admin"],
    "GITHUB_TOKEN": ["ghp_T3stOnly0123456789abcdefghijABCDEFGH"],
    "GITLAB_TOKEN": ["glpat-T3stOnly0123456789ab"],
    "SLACK_TOKEN": ["xoxb-0000000000-T3stOnlyAbCd"],
    "STRIPE_KEY": ["sk_test_T3stOnly0123456789abcd"],
    "GOOGLE_API_KEY": ["AIzaSyT3stOnly0123456789abcdefghijklmno"],
    "JWT": ["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ0ZXN0LW9ubHkifQ.dGVzdC1vbmx5LXNpZ25hdHVyZQ"],
    "PRIVATE_KEY": ["-----BEGIN PRIVATE KEY-----\nMIIBVAIBADANBgkqhkiG9w0BAQEFAASCAT4wggE6AgEAAkEAT3stOnly\n-----END PRIVATE KEY-----"],
    "CONNECTION_STRING": ["postgres://app:T3stOnlyPw@db.corp.example:5432/prod"],
    "PASSWORD": ["password=T3stOnly-Pa55"],
    "BEARER_TOKEN": ["Bearer T3stOnlyBearerToken0123456789"],
    "IBAN": ["GB82 WEST 1234 5698 7654 32"],
    "MAC_ADDRESS": ["3c:22:fb:1a:9e:07"],
}

ALL = [value for values in SEEDS.values() for value in values]


def leaked(data: bytes | str, values=ALL) -> list[str]:
    """Which seeded values appear in `data`, raw or JSON-escaped."""
    import json

    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    found = []
    for value in values:
        escaped = json.dumps(value)[1:-1]
        ascii_escaped = json.dumps(value, ensure_ascii=True)[1:-1].replace("@", "\\u0040")
        if value in text or escaped in text or ascii_escaped in text:
            found.append(value)
    return found
