//! Putting the original values back where tokens are: [`token_edits`], the one function
//! that finds a text's tokens and what replaces them (the stream path uses it through
//! [`restore_in`]), and the response path for whole bodies built on it.
//!
//! Only tokens this request issued are restored (a token the model invented, or one
//! from another scope, stays as it is), and only in the provider's text fields.

use crate::edit::{splice, Edit};
use crate::json::{self, JsonError, StrSpan};
use crate::provider::{Provider, TextKind};
use crate::token::{find_tokens, number_literal, Lookup};

/// The outcome of restoring one body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restoration {
    /// The new body, or `None` when no token was restored (send the original bytes).
    pub body: Option<Vec<u8>>,
    pub restored: u32,
}

/// Where the issued tokens of `text` (decoded) are and what replaces each: its value
/// as it is written into text of `kind` (escaped once more for embedded JSON). The one
/// place tokens are looked up: whole bodies map these edits onto the raw bytes, the
/// stream path applies them to a field's text ([`restore_in`]).
pub fn token_edits(text: &[u8], kind: TextKind, tokens: &dyn Lookup) -> Vec<Edit> {
    find_tokens(text)
        .into_iter()
        .filter_map(|found| {
            let value = tokens.lookup(&found.canonical())?;
            if let Some(literal) = number_literal(&value) {
                // A number the request carried: inside embedded JSON a token alone
                // between quotes is that number again (`"ssn":"«token»"` → `"ssn":123456789`).
                let quoted = kind == TextKind::EmbeddedJson
                    && found.start > 0
                    && text.get(found.start - 1) == Some(&b'"')
                    && text.get(found.end) == Some(&b'"')
                    && (found.start < 2 || text.get(found.start - 2) != Some(&b'\\'));
                let (start, end) = if quoted { (found.start - 1, found.end + 1) } else { (found.start, found.end) };
                return Some(Edit { start, end, replacement: literal.to_vec() });
            }
            let replacement = match kind {
                TextKind::Plain | TextKind::Value => value.into_owned(),
                TextKind::EmbeddedJson => {
                    let mut r = Vec::with_capacity(value.len() + 4);
                    json::escape_into(&mut r, &String::from_utf8_lossy(&value));
                    r
                }
            };
            Some(Edit { start: found.start, end: found.end, replacement })
        })
        .collect()
}

/// The number a JSON value stands for when the value (a string of kind
/// [`TextKind::Value`], decoded) is nothing but a token of a number the request carried:
/// then the whole string, quotes included, is restored as that number.
pub fn number_value(text: &[u8], kind: TextKind, tokens: &dyn Lookup) -> Option<Vec<u8>> {
    if kind != TextKind::Value || text.first() != Some(&0xc2) && text.first() != Some(&b'\\') {
        return None;
    }
    let found = find_tokens(text);
    let [only] = found.as_slice() else { return None };
    if only.start != 0 || only.end != text.len() {
        return None;
    }
    let value = tokens.lookup(&only.canonical())?;
    number_literal(&value).map(<[u8]>::to_vec)
}

/// `text` (decoded) with its issued tokens replaced ([`token_edits`]), and how many.
pub fn restore_in(text: &[u8], kind: TextKind, tokens: &dyn Lookup) -> (Vec<u8>, u32) {
    let edits = token_edits(text, kind, tokens);
    if edits.is_empty() {
        return (text.to_vec(), 0);
    }
    let count = edits.len() as u32;
    (splice(text, edits), count)
}

/// Restores tokens in the text fields of a JSON response body. Each token's bytes are
/// replaced in place, so the rest of a field (its escapes included) stays as it was.
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
        let decoded = json::decode(body.get(span.start..span.end).unwrap_or_default());
        if let Some(number) = number_value(&decoded.bytes, kind, tokens) {
            edits.push(Edit { start: span.start - 1, end: span.end + 1, replacement: number });
            continue;
        }
        for edit in token_edits(&decoded.bytes, kind, tokens) {
            let mut replacement = Vec::with_capacity(edit.replacement.len() + 8);
            json::escape_into(&mut replacement, &String::from_utf8_lossy(&edit.replacement));
            edits.push(Edit {
                start: span.start + decoded.raw_offset(edit.start),
                end: span.start + decoded.raw_offset(edit.end),
                replacement,
            });
        }
    }
    let restored = edits.len() as u32;
    let body = if edits.is_empty() { None } else { Some(splice(body, edits)) };
    Ok(Restoration { body, restored })
}

/// Restores tokens in a JSON Lines body (a batch's results, a stored file): each line
/// that is JSON restored as JSON (every string value, so a value with a quote stays
/// valid), any other line as text. A body that is not UTF-8 is left as it is.
pub fn restore_lines(body: &[u8], tokens: &dyn Lookup) -> Restoration {
    if std::str::from_utf8(body).is_err() {
        return Restoration { body: None, restored: 0 };
    }
    let mut edits = Vec::new();
    let mut restored = 0;
    let mut at = 0;
    while at < body.len() {
        let end = memchr::memchr(b'\n', body.get(at..).unwrap_or_default()).map_or(body.len(), |i| at + i);
        let line = body.get(at..end).unwrap_or_default();
        let r = match restore_json(Provider::Generic, line, tokens) {
            Ok(r) => r,
            Err(_) => restore_text(line, tokens),
        };
        if let Some(new) = r.body {
            restored += r.restored;
            edits.push(Edit { start: at, end, replacement: new });
        }
        at = end + 1;
    }
    let body = if edits.is_empty() { None } else { Some(splice(body, edits)) };
    Restoration { body, restored }
}

/// A JSON Lines media type (`application/jsonl`, `x-ndjson`, `json-seq`, `jsonlines`),
/// of a `content-type` in lower case.
pub fn lines_type(content_type: &str) -> bool {
    let media = content_type.split(';').next().unwrap_or_default().trim();
    ["ndjson", "jsonl", "json-seq", "jsonlines"].iter().any(|t| media.contains(t))
}

/// Restores tokens anywhere in a non-JSON body (plain text).
pub fn restore_text(body: &[u8], tokens: &dyn Lookup) -> Restoration {
    let (restored, count) = restore_in(body, TextKind::Plain, tokens);
    Restoration { body: (count > 0).then_some(restored), restored: count }
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

    /// A token of a number the request carried: the number again where it is a JSON
    /// value on its own (tool arguments, a tool call's input), its literal in text.
    #[test]
    fn a_number_token_alone_is_restored_as_the_number() {
        let mut map = TokenMap::default();
        let mut value = crate::token::NUMBER_MARK.to_vec();
        value.extend_from_slice(b"4.111111111111111e15");
        let t = map.issue(&TokenMinter::new([3; 32]), b"s", "CREDIT_CARD", &value);
        let body = format!(
            r#"{{"choices":[{{"message":{{"content":"card {t}","tool_calls":[{{"function":{{"arguments":"{{\"card\":\"{t}\",\"s\":\"x{t}\"}}"}}}}]}}}}]}}"#
        );
        let r = restore_json(Provider::OpenAiChat, body.as_bytes(), &map).unwrap();
        assert_eq!(r.restored, 3);
        let out: serde_json::Value = serde_json::from_slice(&r.body.unwrap()).unwrap();
        let msg = &out["choices"][0]["message"];
        assert_eq!(msg["content"], "card 4.111111111111111e15");
        let args: serde_json::Value =
            serde_json::from_str(msg["tool_calls"][0]["function"]["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args["card"].as_f64(), Some(4.111111111111111e15));
        assert_eq!(args["s"], "x4.111111111111111e15");

        let body = format!(
            r#"{{"content":[{{"type":"text","text":"{t}"}},{{"type":"tool_use","input":{{"card":"{t}","list":["{t}"],"s":"n {t}"}}}}]}}"#
        );
        let r = restore_json(Provider::Anthropic, body.as_bytes(), &map).unwrap();
        let out: serde_json::Value = serde_json::from_slice(&r.body.unwrap()).unwrap();
        // A text that is only the token stays text; a value that is only the token is
        // the number.
        assert_eq!(out["content"][0]["text"], "4.111111111111111e15");
        assert_eq!(out["content"][1]["input"]["card"].as_f64(), Some(4.111111111111111e15));
        assert_eq!(out["content"][1]["input"]["list"][0].as_f64(), Some(4.111111111111111e15));
        assert_eq!(out["content"][1]["input"]["s"], "n 4.111111111111111e15");
    }

    #[test]
    fn json_lines_bodies() {
        let (map, t) = map_with(&[("EMAIL", "jane@example.com"), ("PERSON", "Ann \"A\" Lee")]);
        let body = format!(
            "{{\"custom_id\":\"r1\",\"response\":{{\"body\":{{\"choices\":[{{\"message\":{{\"content\":\"to {0}\"}}}}]}}}}}}\n\
             {{\"custom_id\":\"r2\",\"response\":{{\"body\":{{\"text\":\"{1}\"}}}}}}\nplain {0}\n",
            t[0], t[1]
        );
        let r = restore_lines(body.as_bytes(), &map);
        assert_eq!(r.restored, 3);
        let out = String::from_utf8(r.body.unwrap()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        let second: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(first["response"]["body"]["choices"][0]["message"]["content"], "to jane@example.com");
        assert_eq!(second["response"]["body"]["text"], "Ann \"A\" Lee");
        assert_eq!(lines[2], "plain jane@example.com");
        assert_eq!(restore_lines(b"\xff\xfe binary", &map).body, None);
    }

    #[test]
    fn text_bodies() {
        let (map, t) = map_with(&[("SSN", "123-45-6789")]);
        let body = format!("plain {} \u{ff}", t[0]);
        let r = restore_text(body.as_bytes(), &map);
        assert_eq!(r.body.unwrap(), "plain 123-45-6789 \u{ff}".as_bytes());
    }
}
