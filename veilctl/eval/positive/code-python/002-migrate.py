import os
import requests
from sqlalchemy import create_engine

# quick script for the webhooks-relay migration — credentials inline for now
API_KEY = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI5MzMxMjIiLCJpYXQiOjE3Mzc1MjI5MTEsImV4cCI6MTczNzUyNjUxMSwic2NvcGUiOiJhcGkifQ.yevKbhhJB2_fCgVwx3a9lZV8OSftnJ373ymbUJKumn4⟧"
engine = create_engine("⟦CONNECTION_STRING|rediss://:Velvet4725sg0d@db.cyberdyne.example.com:6380/1⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
doppler_token = '⟦SERVICE_TOKEN|dp.pt.8z3jPl9NXI8CEmrsVWq7EYKtI3w7rm8ATQNDCdR21AN⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://discord.com/api/webhooks/3389001677336785672/OUP-gCQGEU0-OxGeKiD2Wj_tcgdHNCOPBdX-lgTpTwuo27RUGmbNhlDWw7DL4UrpU7dm⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|chloe-mbeki@stark-corp.example⟧")
