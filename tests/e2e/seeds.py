"""Synthetic sensitive values, one or more per built-in detector category.

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
    "ITIN": ["912-78-1234"],
    "PASSPORT": ["X12345678"],
    "DRIVERS_LICENSE": ["D7654321"],
    "DATE_OF_BIRTH": ["March 14, 1985"],
    "ADDRESS": ["1600 Maple Avenue, Springfield, IL 62704"],
    "IP_ADDRESS": ["203.0.113.77", "2001:db8:85a3::8a2e:370:7334"],
    "PERSON": ["Amara Okonkwo"],
    "AWS_SECRET_KEY": ["wJalrXUtnFEMI/K7MDENG/bPxRfiT3stOnlyKEY0"],
    "NPM_TOKEN": ["npm_T3stOnly0123456789abcdefghijABCDEFGH"],
    "PYPI_TOKEN": ["pypi-AgEIcHlwaS5vcmcT3stOnly0123456789abcdefghijABCDEFGHIJKLMNOPQRSTUVWXYZ"],
    "HUGGINGFACE_TOKEN": ["hf_T3stOnlyabcdefghijABCDEFGHIJklmnopqr"],
    "SENDGRID_KEY": ["SG.T3stOnly0123456789abcd.T3stOnly0123456789abcdefghijABCDEFGHIJ01234"],
    "TWILIO_KEY": ["SK0123456789abcdef0123456789abcdef"],
    "SHOPIFY_TOKEN": ["shpat_0123456789abcdef0123456789abcdef"],
    "SECRET": ["Zx9vQ2mK7pL4rT8wY1nB6cF3hJ5dG0sA"],
    "INTERNAL_HOST": ["db01.prod.corp"],
}

# Words that put a value in its context, for the detectors that need one (and a
# plain lead-in for the rest): "driver's license D7654321".
CONTEXT = {
    "DRIVERS_LICENSE": "driver's license",
    "DATE_OF_BIRTH": "born on",
    "ADDRESS": "ship to",
    "PERSON": "Name:",
    "AWS_SECRET_KEY": "aws_secret_access_key =",
    "SECRET": "SESSION_TOKEN=",
    "IP_ADDRESS": "client ip",
}


def lead_in(category: str) -> str:
    return CONTEXT.get(category, category.lower())

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
