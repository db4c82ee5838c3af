//! A company-hosted model's chat answer, read robustly: the assistant text of an
//! OpenAI-compatible or Ollama answer, the JSON dug out of it (code fences, prose
//! before it) and repaired where that is safe (trailing commas, an answer cut short).
//! Errors carry a kind, never the answer's text.

use serde_json::Value;

/// Why an answer could not be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("the verifier's HTTP body is not a chat completion")]
    Envelope,
    #[error("no JSON found in the verifier's answer")]
    NoJson,
    #[error("the verifier's answer has no usable score")]
    NoScore,
}

/// The assistant text of an OpenAI-compatible or Ollama chat answer. A body that is
/// itself the JSON asked for (some servers, and proxies in between) is returned whole.
pub(crate) fn message_content(body: &[u8]) -> Result<String, ParseError> {
    let text = std::str::from_utf8(body).map_err(|_| ParseError::Envelope)?;
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        // Not JSON at all: maybe the server answered with bare text.
        return Ok(text.to_string());
    };
    let content = value
        .pointer("/choices/0/message/content")
        .or_else(|| value.pointer("/message/content"))
        .or_else(|| value.pointer("/choices/0/text"))
        .or_else(|| value.get("response"));
    match content {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) if other.is_object() || other.is_array() => Ok(other.to_string()),
        _ if value.get("claims").is_some() || value.get("score").is_some() => Ok(text.to_string()),
        _ => Err(ParseError::Envelope),
    }
}

/// Finds the JSON value in a model's text: inside a code fence if there is one, else
/// from the first `{` or `[` to the last matching closer; trailing commas removed.
pub(crate) fn dig_json(text: &str) -> Option<Value> {
    let mut candidates: Vec<&str> = Vec::new();
    if let Some(start) = text.find("```") {
        let after = text.get(start + 3..).unwrap_or_default();
        let body_start = after.find('\n').map_or(0, |n| n + 1);
        let body = after.get(body_start..).unwrap_or_default();
        let end = body.find("```").unwrap_or(body.len());
        candidates.push(body.get(..end).unwrap_or_default());
    }
    candidates.push(text);
    for candidate in candidates {
        // Whichever opens first is the outer value.
        let mut openers: Vec<(usize, char)> =
            ['{', '['].iter().filter_map(|&o| candidate.find(o).map(|at| (at, o))).collect();
        openers.sort_unstable();
        for (start, opener) in openers {
            let closer = if opener == '{' { '}' } else { ']' };
            let end = candidate.rfind(closer).map_or(candidate.len(), |e| e + 1);
            let Some(slice) = candidate.get(start..end.max(start)) else { continue };
            let repaired = remove_trailing_commas(slice);
            if let Ok(v) = serde_json::from_str::<Value>(&repaired) {
                return Some(v);
            }
            // A truncated answer: close what is open and try once more.
            if let Ok(v) = serde_json::from_str::<Value>(&close_open(&repaired)) {
                return Some(v);
            }
        }
    }
    None
}

/// Where a JSON text's string literals are, one character at a time.
#[derive(Debug, Default)]
pub(crate) struct Strings {
    open: bool,
    escaped: bool,
}

impl Strings {
    /// Feeds `c`; true when it belongs to a string literal (its quotes included).
    fn feed(&mut self, c: char) -> bool {
        if !self.open {
            self.open = c == '"';
            return self.open;
        }
        match (self.escaped, c) {
            (true, _) => self.escaped = false,
            (false, '\\') => self.escaped = true,
            (false, '"') => self.open = false,
            _ => {}
        }
        true
    }
}

/// Drops commas that directly precede `}` or `]` (outside strings).
pub(crate) fn remove_trailing_commas(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut strings = Strings::default();
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if strings.feed(c) {
            out.push(c);
            continue;
        }
        if c == ',' {
            let next = chars.iter().skip(i + 1).find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Closes an unterminated string and any open brackets (an answer cut off by
/// `max_tokens`). Whatever that yields is still checked by the JSON parser.
pub(crate) fn close_open(s: &str) -> String {
    let mut stack = Vec::new();
    let mut strings = Strings::default();
    for c in s.chars() {
        if strings.feed(c) {
            continue;
        }
        match c {
            '{' => stack.push('}'),
            '[' => stack.push(']'),
            '}' | ']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    let mut out = s.trim_end().trim_end_matches(',').to_string();
    if strings.open {
        out.push('"');
    }
    while let Some(c) = stack.pop() {
        out.push(c);
    }
    remove_trailing_commas(&out)
}

/// The JSON value of a chat answer (HTTP body, OpenAI-compatible or Ollama): the
/// assistant text dug out and repaired as above. Shared by the verifier and the
/// detector model (`detect/engine/model.rs`).
pub fn answer_json(body: &[u8]) -> Result<Value, ParseError> {
    let content = message_content(body)?;
    dig_json(&content).ok_or(ParseError::NoJson)
}
