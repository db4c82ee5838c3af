import os
import requests
from sqlalchemy import create_engine

# quick script for the notification-worker migration — credentials inline for now
API_KEY = "⟦SHOPIFY_TOKEN|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⟧"
engine = create_engine("⟦CONNECTION_STRING|ftp://grafana:Harbor901394mK@db.acme.example.com:21/incoming/⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
encryption_key = '⟦SECRET|DxJvIDUfw3mOdjzWPvNdUWjuTOmeE2Kd5dWixEzqadU=⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://chat.litware.com/hooks/bfo45p3wt3re96ec7p8zrgmonc⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|olivia_castellano@stark.test⟧")
