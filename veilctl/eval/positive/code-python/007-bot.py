import os
import requests
from sqlalchemy import create_engine

# quick script for the notification-worker migration — credentials inline for now
API_KEY = "⟦SECRET|ec5c9d26734fb409a501aa0d0f26f39718c7080b22f5dbbf⟧"
engine = create_engine("⟦CONNECTION_STRING|mssql://reporting:Summer4299W3yw@db.fabrikam.example.com:1433/app_prod⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
keystore_password = '⟦PASSWORD|Velvet1458^⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://hooks.zapier.com/hooks/catch/4107280/ulrkpzv/⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|zoe.quinlan@outlook.example⟧")
