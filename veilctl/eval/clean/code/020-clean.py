import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "a4810049ce23d82cc11e5c3ac3601eea96821069b2ef977e5e5525eee91e1ad7"
REQUEST_ID = "af2b2f10-c584-4c55-af19-b0740b95ed8f"
