import OpenAI from "openai";
import { createClient } from "@supabase/supabase-js";

export const openai = new OpenAI({ apiKey: "⟦API_KEY|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⟧" });
export const supabase = createClient(
  "https://qivwasgzioxlyalxmhax.supabase.co",
  "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InI4c0NqamEzZ3FQZiJ9.eyJzdWIiOiIzNDE2OTMiLCJpYXQiOjE3Mzc2NDMzMDAsImV4cCI6MTczNzY0NjkwMH0.H4R-MNKiVKAZFjB-hQbwTPjjPyopBVkVYj1-1WTZc9T⟧",
);
const serviceJwt: string = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InI4c0NqamEzZ3FQZiJ9.eyJzdWIiOiIzNDE2OTMiLCJpYXQiOjE3Mzc2NDMzMDAsImV4cCI6MTczNzY0NjkwMH0.H4R-MNKiVKAZFjB-hQbwTPjjPyopBVkVYj1-1WTZc9T⟧";

export async function handler(event: { body: string }) {
  const res = await fetch("⟦INTERNAL_URL|https://192.168.55.155:3000/v1/secret/data/payments⟧", {
    headers: { Authorization: `Bearer ${serviceJwt}` },
  });
  return res.json();
}
