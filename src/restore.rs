//! The response path for whole bodies: put the original values back where tokens are.
//!
//! Only tokens this request issued are restored (a token the model invented, or one
//! from another scope, stays as it is), and only in the provider's text fields.

use crate::edit::{splice, Edit};
use crate::json::{self, JsonError, StrSpan};
use crate::provider::{Provider, TextKind};
use crate::token::{find_tokens, Lookup};

/// The outcome of restoring one body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restoration {
    /// The new body, or `None` when no token was restored (send the original bytes).
    pub body: Option<Vec<u8>>,
    pub restored: u32,
}

/// Restores tokens in the text fields of a JSON response body.
pub fn restore_json(provider: Provider, body: &[u8], tokens: &dyn Lookup) -> Result<Restoration, JsonError> {
    let mut spans: Vec<(StrSpan, TextKind)> = Vec::new();
    json::visit_strings(body, &mut |path, span| {
        if let Some(kind) = provider.response_text(path) {
            // Cheap pre-check on the raw bytes: a token starts with '«' (raw or \u00ab).
            let raw = body.get(span.start..span.end).unwrap_or_default();
            if raw.contains(&0xc2) || raw.contains(&b'\\') {
                spans.push((span, kind));
            }
        }
    })?;
    let mut edits = Vec::new();
    for (span, kind) in spans {
        let raw = body.get(span.start..span.end).unwrap_or_default();
        let decoded = json::decode(raw);
        for found in find_tokens(&decoded.bytes) {
            let Some(value) = tokens.lookup(&found.canonical()) else { continue };
            let value = String::from_utf8_lossy(&value);
            let mut replacement = Vec::with_capacity(value.len() + 8);
            match kind {
                TextKind::Plain => json::escape_into(&mut replacement, &value),
                TextKind::EmbeddedJson => {
                    let mut inner = Vec::with_capacity(value.len() + 8);
                    json::escape_into(&mut inner, &value);
                    json::escape_into(&mut replacement, &String::from_utf8_lossy(&inner));
                }
            }
            edits.push(Edit {
                start: span.start + decoded.raw_offset(found.start),
                end: span.start + decoded.raw_offset(found.end),
                replacement,
            });
        }
    }
    let restored = edits.len() as u32;
    let body = if edits.is_empty() { None } else { Some(splice(body, edits)) };
    Ok(Restoration { body, restored })
}

/// Restores tokens anywhere in a non-JSON body (plain text).
pub fn restore_text(body: &[u8], tokens: &dyn Lookup) -> Restoration {
    let mut edits = Vec::new();
    for found in find_tokens(body) {
        if let Some(value) = tokens.lookup(&found.canonical()) {
            edits.push(Edit { start: found.start, end: found.end, replacement: value.into_owned() });
        }
    }
    let restored = edits.len() as u32;
    let body = if edits.is_empty() { None } else { Some(splice(body, edits)) };
    Restoration { body, restored }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::{TokenMap, TokenMinter};

    fn map_with(values: &[(&str, &str)]) -> (TokenMap, Vec<String>) {
        let mut map = TokenMap::default();
        let minter = TokenMinter::new([3; 32]);
        let tokens = values.iter().map(|(cat, v)| map.issue(&minter, b"s", cat, v.as_bytes())).collect();
        (map, tokens)
    }

    #[test]
    fn restores_content_and_tool_arguments() {
        let (map, t) = map_with(&[("EMAIL", "jane@example.com"), ("PHONE", "say \"hi\"")]);
        let body = format!(
            r#"{{"id":"chatcmpl-1","choices":[{{"index":0,"message":{{"role":"assistant","content":"Write to {0} or {1}.","tool_calls":[{{"id":"call_1","type":"function","function":{{"name":"send","arguments":"{{\"to\":\"{0}\",\"note\":\"{1}\"}}"}}}}]}},"finish_reason":"stop"}}],"usage":{{"total_tokens":3}}}}"#,
            t[0], t[1]
        );
        let r = restore_json(Provider::OpenAiChat, body.as_bytes(), &map).unwrap();
        assert_eq!(r.restored, 4);
        let out: serde_json::Value = serde_json::from_slice(&r.body.unwrap()).unwrap();
        let msg = &out["choices"][0]["message"];
        assert_eq!(msg["content"], "Write to jane@example.com or say \"hi\".");
        let args: serde_json::Value =
            serde_json::from_str(msg["tool_calls"][0]["function"]["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args["to"], "jane@example.com");
        assert_eq!(args["note"], "say \"hi\"");
        assert_eq!(out["usage"]["total_tokens"], 3);
    }

    #[test]
    fn escaped_guillemets_are_restored() {
        let (map, t) = map_with(&[("EMAIL", "jane@example.com")]);
        let escaped = t[0].replace('«', "\\u00ab").replace('»', "\\u00BB");
        let body = format!(r#"{{"choices":[{{"message":{{"content":"to {escaped}!"}}}}]}}"#);
        let r = restore_json(Provider::OpenAiChat, body.as_bytes(), &map).unwrap();
        assert_eq!(
            String::from_utf8(r.body.unwrap()).unwrap(),
            r#"{"choices":[{"message":{"content":"to jane@example.com!"}}]}"#
        );
    }

    #[test]
    fn unknown_tokens_and_non_text_fields_stay() {
        let (map, t) = map_with(&[("EMAIL", "jane@example.com")]);
        let body =
            format!(r#"{{"id":"{0}","choices":[{{"message":{{"content":"«token:EMAIL:00000000» x"}}}}]}}"#, t[0]);
        let r = restore_json(Provider::OpenAiChat, body.as_bytes(), &map).unwrap();
        assert_eq!(r, Restoration { body: None, restored: 0 });
    }

    #[test]
    fn text_bodies() {
        let (map, t) = map_with(&[("SSN", "123-45-6789")]);
        let body = format!("plain {} \u{ff}", t[0]);
        let r = restore_text(body.as_bytes(), &map);
        assert_eq!(r.body.unwrap(), "plain 123-45-6789 \u{ff}".as_bytes());
    }
}
