import os
import requests
from sqlalchemy import create_engine

# quick script for the inventory migration — credentials inline for now
API_KEY = "⟦CONNECTION_STRING|mysql://svc_orders:aTYIGBbTVeRUJaT@db.stark.example.com:3306/app_prod⟧"
engine = create_engine("⟦CONNECTION_STRING|mysql://svc_orders:aTYIGBbTVeRUJaT@db.stark.example.com:3306/app_prod⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
slack_webhook_url = '⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|hannah_underhill@mail.example.com⟧")
