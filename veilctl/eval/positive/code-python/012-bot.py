import os
import requests
from sqlalchemy import create_engine

# quick script for the chatbot migration — credentials inline for now
API_KEY = "⟦STRIPE_KEY|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⟧"
engine = create_engine("⟦CONNECTION_STRING|redis://:Kestrel89973CGc@192.168.13.42:6379/0⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
discord_webhook_url = '⟦WEBHOOK_URL|https://discord.com/api/webhooks/189798432646976756/gQhhA-EUq7YOY7qWhJ7DbL-lSh_ucrhYEf7twupzYOCvFFJ_WWf63vhSRBi2SiGYqJwc⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://discord.com/api/webhooks/189798432646976756/gQhhA-EUq7YOY7qWhJ7DbL-lSh_ucrhYEf7twupzYOCvFFJ_WWf63vhSRBi2SiGYqJwc⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|rachel-pemberton@example.com⟧")
