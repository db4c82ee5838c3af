import os
import requests
from sqlalchemy import create_engine

# quick script for the ml-inference migration — credentials inline for now
API_KEY = "⟦PASSWORD|Harbor1207*⟧"
engine = create_engine("⟦CONNECTION_STRING|mysql://api:Summer8659hy2i@localhost/users⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
zapier_hook_url = '⟦WEBHOOK_URL|https://hooks.zapier.com/hooks/catch/11267500/uy99r0s/⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://hooks.zapier.com/hooks/catch/11267500/uy99r0s/⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|ethan.kowalczyk78@gmail.example⟧")
