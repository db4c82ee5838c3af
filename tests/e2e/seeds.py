"""Synthetic sensitive values, one or more per category of the first-cut detectors.

All are made up: reserved example domains, test card numbers, AWS's documented
example key id, and never-issued SSNs and phone numbers.
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
