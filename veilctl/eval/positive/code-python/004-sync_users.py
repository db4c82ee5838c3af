import os
import requests
from sqlalchemy import create_engine

# quick script for the auth-gateway migration — credentials inline for now
API_KEY = "⟦API_KEY|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⟧"
engine = create_engine("⟦CONNECTION_STRING|rediss://reporting:w6csJ.6YZP@billing.obgwe56kbo2h.eu-central-1.rds.amazonaws.com/1⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
app_key = '⟦SECRET|base64:xVDsBfxoO5oSQUqtVspUKjZpYLCu/hdCo1qSBe1dUOU=⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|rachel.delacroix38@example.com⟧")
