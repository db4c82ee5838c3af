import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "c69873599849ba4a11dacd6baa5b4259a0eefbf99a2b23ed5840997591a1aefe"
REQUEST_ID = "8f731206-75ce-4a6a-9dfd-be6049375fab"
