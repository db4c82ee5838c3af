import OpenAI from "openai";
import { createClient } from "@supabase/supabase-js";

export const openai = new OpenAI({ apiKey: "⟦API_KEY|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⟧" });
export const supabase = createClient(
  "https://rdznmyyqhtthsgfixnhy.supabase.co",
  "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1OTIxMjUiLCJpYXQiOjE3MTgyNjgyNTgsImV4cCI6MTcxODI3MTg1OCwic2NvcGUiOiJyZWFkOm9yZGVycyB3cml0ZTpvcmRlcnMifQ.phyWBdzgpnVcIaMFeJwyKhPYev7LrZjjBQZxcnqsHBG⟧",
);
const airtableApiKey: string = "⟦SERVICE_TOKEN|patqk7XL9mhYdesGP.ea0f71ab9db664eb7124ed328accb527a7d0c20b1105984fe8cb694be05322c6⟧";

export async function handler(event: { body: string }) {
  const res = await fetch("⟦INTERNAL_URL|http://api-gateway.fabrikam.local:5601/api/v1/health⟧", {
    headers: { Authorization: `Bearer ${airtableApiKey}` },
  });
  return res.json();
}
