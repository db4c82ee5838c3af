import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "ec2a3ad46c10aa6ed4a99e3562437889e47018691c2b6b1555adc3e228f98249"
REQUEST_ID = "2c669052-a699-41c3-8588-cb6022b91432"
