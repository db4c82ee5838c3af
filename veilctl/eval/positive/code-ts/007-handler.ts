import OpenAI from "openai";
import { createClient } from "@supabase/supabase-js";

export const openai = new OpenAI({ apiKey: "⟦API_KEY|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⟧" });
export const supabase = createClient(
  "https://rjwklnshcxozcrmbxpkv.supabase.co",
  "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4NzU3NTIiLCJpYXQiOjE3NDExMTQ5MjMsImV4cCI6MTc0MTExODUyM30.CEXskTnilYTfuUUtPZuEgp8BtYIXd657iRTWo_wqdY4⟧",
);
const supabaseServiceRoleKey: string = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4NzU3NTIiLCJpYXQiOjE3NDExMTQ5MjMsImV4cCI6MTc0MTExODUyM30.CEXskTnilYTfuUUtPZuEgp8BtYIXd657iRTWo_wqdY4⟧";

export async function handler(event: { body: string }) {
  const res = await fetch("⟦INTERNAL_URL|https://pg-primary.int.wayne.net:5601/d/FodcJZPiA/service-overview⟧", {
    headers: { Authorization: `Bearer ${supabaseServiceRoleKey}` },
  });
  return res.json();
}
