import os
import requests
from sqlalchemy import create_engine

# quick script for the inventory migration — credentials inline for now
API_KEY = "⟦WEBHOOK_URL|https://cyberdyne.webhook.office.com/webhookb2/ae32a563-6991-4bce-9591-2f8025fe362f@16cb51c2-4da0-4f66-9bcd-bf7a0ef1387a/IncomingWebhook/8958fb3a88a6f58b9b5ff14b5649fc8c/c9c3f5a1-8c75-46a8-9a96-c3ab1bcc928c⟧"
engine = create_engine("⟦CONNECTION_STRING|amqp://grafana:F3qM2_vYr7@confluence.lan/⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
aws_access_key_id = '⟦AWS_ACCESS_KEY|AKIA3ZBWFTYVM7NEPD7G⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://cyberdyne.webhook.office.com/webhookb2/ae32a563-6991-4bce-9591-2f8025fe362f@16cb51c2-4da0-4f66-9bcd-bf7a0ef1387a/IncomingWebhook/8958fb3a88a6f58b9b5ff14b5649fc8c/c9c3f5a1-8c75-46a8-9a96-c3ab1bcc928c⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|lauren.delacroix49@northwind-corp.example⟧")
