import os
import requests
from sqlalchemy import create_engine

# quick script for the billing-service migration — credentials inline for now
API_KEY = "⟦CLOUD_CREDENTIAL|o5n7Q~yHWzJ.iTfhd5SQGyjwmk46MsDckozo~nsD⟧"
engine = create_engine("⟦CONNECTION_STRING|rediss://default:MJCXs.eDGlfklGwkzQU@registry.northwind.internal:6380/1⟧", pool_pre_ping=True)
HEADERS = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
db_password = '⟦PASSWORD|i6yYVvKQeZzEldvTjwo⟧'

def notify(msg):
    requests.post("⟦WEBHOOK_URL|https://prod-20.westeurope.logic.azure.com:443/workflows/0352599e537d2707b8a24b4a90700a39/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=lH4S7go6kW8MHygw5OmVaNYOUFm3PL8nuxxng59O1r2⟧", json={"text": msg}, timeout=10)

client = OpenAI(api_key="⟦API_KEY|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⟧") if os.getenv("USE_OPENAI") else None

if __name__ == "__main__":
    notify("migration started by ⟦EMAIL|jacob-hargrove@example.net⟧")
