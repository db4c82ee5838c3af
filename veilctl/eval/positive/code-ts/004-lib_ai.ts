import OpenAI from "openai";
import { createClient } from "@supabase/supabase-js";

export const openai = new OpenAI({ apiKey: "⟦API_KEY|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⟧" });
export const supabase = createClient(
  "https://vtenocrydkslxpfnhgfk.supabase.co",
  "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3NDcyMzciLCJpYXQiOjE3MTA5MDYzODgsImV4cCI6MTcxMDkwOTk4OCwic2NvcGUiOiJhcGkifQ.sB_F1ec8Q9kLt5DM23ab4d-ao_J3pBKsSFyuuLcerYQ⟧",
);
const serviceJwt: string = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3NDcyMzciLCJpYXQiOjE3MTA5MDYzODgsImV4cCI6MTcxMDkwOTk4OCwic2NvcGUiOiJhcGkifQ.sB_F1ec8Q9kLt5DM23ab4d-ao_J3pBKsSFyuuLcerYQ⟧";

export async function handler(event: { body: string }) {
  const res = await fetch("⟦INTERNAL_URL|https://registry.intra:9090/d/zGEULwYlF/service-overview⟧", {
    headers: { Authorization: `Bearer ${serviceJwt}` },
  });
  return res.json();
}
