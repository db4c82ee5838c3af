import OpenAI from "openai";
import { createClient } from "@supabase/supabase-js";

export const openai = new OpenAI({ apiKey: "⟦API_KEY|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⟧" });
export const supabase = createClient(
  "https://jhluskdkeomtdhrnvkhy.supabase.co",
  "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjgwMTQiLCJpYXQiOjE3MTg4NTExMzcsImV4cCI6MTcxODg1NDczN30.UGEsTg3C68TaooM3KE84xC96vzRNzF_l4EGPTzJwjS_⟧",
);
const xaiApiKey: string = "⟦API_KEY|xai-660ZJ726NbgjEycsHLPcapmaQqfZnlesPoTY1ORhHaJqzaZUilUNB58YoO0QzSfJ4KyrzxO3TUDD7kvC⟧";

export async function handler(event: { body: string }) {
  const res = await fetch("⟦INTERNAL_URL|https://build.globex.internal/d/eMjAqMyHJ/service-overview⟧", {
    headers: { Authorization: `Bearer ${xaiApiKey}` },
  });
  return res.json();
}
