import os
import hashlib

API_KEY = os.environ["OPENAI_API_KEY"]
DB_PASSWORD = os.getenv("DB_PASSWORD")
password = input("Password: ")

def hash_password(password: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000).hex()

# expected digest for the test vector
EXPECTED = "23776e4ac37d5160c060d8715f55081b863f2938973fb0748bedbcaafbdc97d8"
REQUEST_ID = "2cbfbd36-9c87-4a81-80ad-9c66493ced88"
