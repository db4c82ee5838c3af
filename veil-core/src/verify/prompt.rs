//! The two verifier requests: extract the claims of a text, and score one claim.
//!
//! Low temperature and JSON output requested the way each server understands it
//! (`response_format` for OpenAI-compatible servers, `format: "json"` for Ollama);
//! the parser does not rely on either being honoured. The instructions and the text
//! go in one user message: some chat templates (Gemma's, in llama.cpp's server) drop
//! system messages, and every template has a user turn. Answers are capped in
//! tokens, sized for the JSON asked for: small CPU-served models ramble otherwise,
//! and the parser repairs an answer cut short.

use serde_json::json;

use super::VerifyConfig;
use crate::llm::Chat;

/// What a verifier call is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallKind {
    /// Extract the claims of the text from byte `start` to `end` of the session's text.
    Extract { start: usize, end: usize },
    /// Score claim number `claim`.
    Verify { claim: usize },
}

const EXTRACT_INSTRUCTIONS: &str = "You extract checkable factual claims from a text. \
Answer with JSON only, in this shape: {\"claims\": [{\"text\": \"...\"}]}. \
Copy every claim word for word from the text, as one contiguous piece of it (a sentence or part of one). \
Skip opinions, questions, greetings, instructions and code. \
Text like \u{ab}token:EMAIL:1a2b\u{bb} stands for a value that was removed; keep it as it is. \
Give at most MAX claims; if there are none, answer {\"claims\": []}.";

const VERIFY_INSTRUCTIONS: &str = "You check one factual claim. \
Answer with JSON only, in this shape: {\"score\": 0-100, \"reasoning\": \"...\"}. \
score is how likely the claim is true (100 = certainly true, 0 = certainly false); \
reasoning is one short sentence saying why. \
Text like \u{ab}token:EMAIL:1a2b\u{bb} stands for a value that was removed: do not judge it.";

/// `schema` goes with `response_format` (llama.cpp's servers constrain their output to
/// it; vLLM and others that do not know the field ignore it). Ollama gets `"json"`.
fn body(config: &VerifyConfig, instructions: &str, input: &str, max_tokens: u32, schema: serde_json::Value) -> Vec<u8> {
    let chat = Chat { endpoint: config.endpoint, model: &config.model, temperature: config.temperature };
    chat.body(instructions, input, max_tokens, schema)
}

/// The claim-extraction request body for `text`.
pub fn extraction_request(config: &VerifyConfig, text: &str) -> Vec<u8> {
    let system = EXTRACT_INSTRUCTIONS.replace("MAX", &config.max_claims.to_string());
    let max_tokens = (64 + 48 * config.max_claims).min(512) as u32;
    let schema = json!({
        "type": "object",
        "properties": {"claims": {
            "type": "array",
            "maxItems": config.max_claims,
            "items": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        }},
        "required": ["claims"],
    });
    body(config, &system, &format!("Text:\n{text}"), max_tokens, schema)
}

/// The verification request body for one claim.
pub fn verification_request(config: &VerifyConfig, claim: &str) -> Vec<u8> {
    let schema = json!({
        "type": "object",
        "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 100}, "reasoning": {"type": "string"}},
        "required": ["score", "reasoning"],
    });
    body(config, VERIFY_INSTRUCTIONS, &format!("Claim: {claim}"), 96, schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Endpoint;
    use serde_json::Value;

    #[test]
    fn openai_shape_asks_for_json_at_low_temperature() {
        let c = VerifyConfig::default();
        let v: Value = serde_json::from_slice(&extraction_request(&c, "Paris is in France.")).unwrap();
        assert_eq!(v["model"], "verifier");
        assert_eq!(v["response_format"]["type"], "json_object");
        assert_eq!(v["response_format"]["schema"]["properties"]["claims"]["maxItems"], 8);
        assert_eq!(v["temperature"], 0.0);
        assert_eq!(v["stream"], false);
        assert_eq!(v["messages"].as_array().unwrap().len(), 1);
        assert_eq!(v["messages"][0]["role"], "user");
        let content = v["messages"][0]["content"].as_str().unwrap();
        assert!(content.starts_with("You extract") && content.contains("at most 8 claims"));
        assert!(content.ends_with("\n\nText:\nParis is in France."));
        assert_eq!(v["max_tokens"], 448);
        assert!(v.get("format").is_none());
    }

    #[test]
    fn ollama_shape_uses_format_json() {
        let c = VerifyConfig {
            endpoint: Endpoint::Ollama,
            model: "llama3.2".into(),
            temperature: 0.1,
            ..Default::default()
        };
        let v: Value =
            serde_json::from_slice(&verification_request(&c, "Water boils at 50 \u{b0}C \"at sea level\".")).unwrap();
        assert_eq!(v["format"], "json");
        assert_eq!(v["stream"], false);
        assert_eq!(v["model"], "llama3.2");
        assert!((v["options"]["temperature"].as_f64().unwrap() - 0.1).abs() < 1e-6);
        assert!(v.get("response_format").is_none());
        let content = v["messages"][0]["content"].as_str().unwrap();
        assert!(content.starts_with("You check one factual claim") && content.contains("\"score\""));
        assert!(content.ends_with("\n\nClaim: Water boils at 50 \u{b0}C \"at sea level\"."));
        assert_eq!(v["options"]["num_predict"], 96);
    }
}
