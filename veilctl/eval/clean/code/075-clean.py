import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "e225bb723d61a3714079d014af5a10ab8ffe1da5b4c4f6a71fd74fe6a4333565"
REQUEST_ID = "c23ae5b2-86d5-4b60-87e4-cfabf571eeae"
