import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "bcfcd4f216790c294cc93984f3d461ea1829b5e08e53ebfe59c3f5e5d339fe0a"
REQUEST_ID = "d13e3f5a-ab56-4447-b36d-b77ca784ba75"
