import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "74fe13f7d7894b5d6bb2a2a7f0d11b2ceb0740a1e81f575f1c1c3d07131e7918"
REQUEST_ID = "730818aa-584e-4d20-8e0c-05f5d1eaa4ba"
