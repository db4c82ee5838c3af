import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "60437579ae7f7766df6a4935a36290ab0fd18571e07eb1ef2a9df5899bc8ba4a"
REQUEST_ID = "305acfe0-4c1b-43a1-9e12-bacf99eb8607"
