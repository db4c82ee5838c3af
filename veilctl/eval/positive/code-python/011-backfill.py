import os
import requests
from sqlalchemy import create_engine

# quick script for the chatbot migration — credentials inline for now
API_KEY = "⟦CONNECTION_STRING|mongodb://rails:Kestrel8356NHCh@db/orders⟧"
engine = create_engine("⟦CONNECTION_STRING|mongodb://rails:Kestrel8356NHCh@db/orders⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
aws_secret_access_key = '⟦AWS_SECRET_KEY|i+bQUHGQCHZMHe0tHehiQo7nDRCgKM1hhoox63N8⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|hbrennan@example.org⟧")
