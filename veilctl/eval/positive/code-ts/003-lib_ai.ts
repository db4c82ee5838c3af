import OpenAI from "openai";
import { createClient } from "@supabase/supabase-js";

export const openai = new OpenAI({ apiKey: "⟦API_KEY|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⟧" });
export const supabase = createClient(
  "https://zzbrahfyiiwkvohcoida.supabase.co",
  "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI5MTE3NjIiLCJpYXQiOjE3NTY5MTI5MzcsImV4cCI6MTc1NjkxNjUzN30.NnBGNFmekhuswjM7KIlTbu3B8ENRvef0fxs-39-v0F5⟧",
);
const armClientSecret: string = "⟦CLOUD_CREDENTIAL|L4z9Q~.h1Hmf7lf5ThpQ44RGc4nU8zSmKX_AkdKW⟧";

export async function handler(event: { body: string }) {
  const res = await fetch("⟦INTERNAL_URL|https://intranet.corp.soylent.com:3000/job/deploy-prod/139/console⟧", {
    headers: { Authorization: `Bearer ${armClientSecret}` },
  });
  return res.json();
}
