import OpenAI from "openai";
import { createClient } from "@supabase/supabase-js";

export const openai = new OpenAI({ apiKey: "⟦API_KEY|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⟧" });
export const supabase = createClient(
  "https://ptufqqcarknrhaenkbgs.supabase.co",
  "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1NDQwNjciLCJpYXQiOjE3MjU5MDMzODcsImV4cCI6MTcyNTkwNjk4Nywic2NvcGUiOiJhZG1pbiJ9.32ilF3pT9QS1jw1dgucnPnNZk_EEStMfz693yHOLDH5⟧",
);
const openrouterApiKey: string = "⟦API_KEY|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⟧";

export async function handler(event: { body: string }) {
  const res = await fetch("⟦INTERNAL_URL|https://confluence.intranet:5601/job/deploy-prod/144/console⟧", {
    headers: { Authorization: `Bearer ${openrouterApiKey}` },
  });
  return res.json();
}
