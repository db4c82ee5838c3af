import OpenAI from "openai";
import { createClient } from "@supabase/supabase-js";

export const openai = new OpenAI({ apiKey: "⟦API_KEY|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⟧" });
export const supabase = createClient(
  "https://gucabaieoqgnmrkvzgvt.supabase.co",
  "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2NTA1OTIiLCJpYXQiOjE3MTUyMDgwMTMsImV4cCI6MTcxNTIxMTYxMywic2NvcGUiOiJyZWFkOm9yZGVycyB3cml0ZTpvcmRlcnMifQ.n2L5WH-08VRj3Gw7gnEPdI07FzgUyTEPFnGMWRhR2dU⟧",
);
const linearApiKey: string = "⟦SERVICE_TOKEN|lin_api_eOZMHigpDvgYIRA8fo4lCEycDcUdrCVbxxlDSKlL⟧";

export async function handler(event: { body: string }) {
  const res = await fetch("⟦INTERNAL_URL|http://pg-primary.home.arpa/v1/secret/data/payments⟧", {
    headers: { Authorization: `Bearer ${linearApiKey}` },
  });
  return res.json();
}
