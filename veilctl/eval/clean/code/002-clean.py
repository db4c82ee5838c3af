import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "642e443dfe1fdb9eb584272853488d68c08536dcef902083738f85804b5056c4"
REQUEST_ID = "ad0353f6-be9e-4856-8569-e3818b6f59cf"
