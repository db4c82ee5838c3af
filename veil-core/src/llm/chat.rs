//! One chat request to a company-hosted model, in the shape its server speaks
//! (OpenAI-compatible or Ollama): the verifier's and the detector model's client.

use serde_json::json;

/// How the server is spoken to: declared with the detectors' configuration, whose
/// `detectors.model.api` names it (the engine's crate cannot depend on this one).
pub use veil_detect::config::Endpoint;

/// One chat request to a company-hosted model, in the shape its server speaks: the
/// verifier's and the detector model's (`model_stage`) client.
#[derive(Debug, Clone, Copy)]
pub struct Chat<'a> {
    pub endpoint: Endpoint,
    pub model: &'a str,
    pub temperature: f32,
}

impl Chat<'_> {
    /// The request body: `instructions` and `input` in one user message, JSON output
    /// asked for (`schema` with `response_format`; `format: "json"` for Ollama), at
    /// most `max_tokens` tokens of answer.
    pub fn body(&self, instructions: &str, input: &str, max_tokens: u32, schema: serde_json::Value) -> Vec<u8> {
        let messages = json!([{"role": "user", "content": format!("{instructions}\n\n{input}")}]);
        let value = match self.endpoint {
            Endpoint::Openai => json!({
                "model": self.model,
                "messages": messages,
                "temperature": self.temperature,
                "max_tokens": max_tokens,
                "response_format": {"type": "json_object", "schema": schema},
                "stream": false,
            }),
            Endpoint::Ollama => json!({
                "model": self.model,
                "messages": messages,
                "format": "json",
                "stream": false,
                "options": {"temperature": self.temperature, "num_predict": max_tokens},
            }),
        };
        serde_json::to_vec(&value).unwrap_or_default()
    }
}
