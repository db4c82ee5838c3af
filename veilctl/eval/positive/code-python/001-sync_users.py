import os
import requests
from sqlalchemy import create_engine

# quick script for the ml-inference migration — credentials inline for now
API_KEY = "⟦CLOUD_CREDENTIAL|UwG3Q~OOq9jxOXMCCbqou0ZYlmiBV2nLS2Ew9kvv⟧"
engine = create_engine("⟦CONNECTION_STRING|postgresql+asyncpg://keycloak:Harbor34416Lqz@redis:5432/billing?sslmode=require⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
rabbitmq_default_pass = '⟦PASSWORD|Falcon1193!⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://discord.com/api/webhooks/8898746122987423657/det-VZc-V_d_gWtH5ddC5LJ2K80hT2mDcXwD7eWspX0XyQOhjghFPmPBEp2QS73VMvve⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|rachel@wonka-corp.example⟧")
