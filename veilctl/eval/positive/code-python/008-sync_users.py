import os
import requests
from sqlalchemy import create_engine

# quick script for the chatbot migration — credentials inline for now
API_KEY = "⟦SECRET|n1Ta5Mt+9EmjP4bB1FBKXH1Mf2bLPCVX+6t39CmO6S0=⟧"
engine = create_engine("⟦CONNECTION_STRING|redis://grafana:Velvet1105oiqM@redis/0⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
tfe_token = '⟦SERVICE_TOKEN|keVVywmiz1Jq7T.atlasv1.OOvBJYanDIXyc9M4iF3Pld1edIFgBKRO08w7g1HjEcJG1hgrRSqvwu2LcpmHCAsHeHW⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://chat.woodgrove.com/hooks/1fq6zzknrdpa5bxiteo66ki7j1⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|trevor-abernathy@woodgrove-corp.example⟧")
