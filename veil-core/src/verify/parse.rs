//! Robust parsing of verifier answers.
//!
//! Small local models wrap JSON in code fences, put prose before it, leave trailing
//! commas, rename or drop fields and give scores as `0.45`, `"45%"` or `450`. The
//! parser digs the JSON out, repairs what is safe to repair, clamps scores to 0–100
//! and drops what cannot be read — it never fails the response. Errors carry a kind,
//! never the answer's text.

use serde_json::Value;

use crate::llm::answer_json;
pub use crate::llm::ParseError;

/// One scored claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// 0–100.
    pub score: u8,
    /// One line, at most `MAX_REASONING` (240) bytes.
    pub reasoning: String,
}

/// Longest reasoning kept, in bytes.
pub const MAX_REASONING: usize = 240;
/// Longest claim kept, in bytes.
pub const MAX_CLAIM: usize = 600;

/// One line: control characters become spaces, runs of spaces collapse, cut at `max`
/// bytes on a character boundary.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max));
    let mut space = false;
    for c in text.trim().chars() {
        let c = if c.is_control() || c.is_whitespace() { ' ' } else { c };
        if c == ' ' {
            if space {
                continue;
            }
            space = true;
        } else {
            space = false;
        }
        if out.len() + c.len_utf8() > max {
            out.push('…');
            break;
        }
        out.push(c);
    }
    out.trim_end().to_string()
}

/// The claims of an extraction answer (HTTP body), in order, deduplicated, at most
/// `max`. Items may be strings or objects with `text`, `claim` or `quote`.
pub fn parse_claims(body: &[u8], max: usize) -> Result<Vec<String>, ParseError> {
    let value = answer_json(body)?;
    let items = match &value {
        Value::Array(items) => items.clone(),
        Value::Object(map) => ["claims", "facts", "statements", "items"]
            .iter()
            .find_map(|k| map.get(*k).and_then(Value::as_array).cloned())
            .or_else(|| map.get("claim").or_else(|| map.get("text")).map(|one| vec![one.clone()]))
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let mut claims: Vec<String> = Vec::new();
    for item in items {
        let text = match &item {
            Value::String(s) => s.as_str(),
            Value::Object(map) => ["text", "claim", "quote", "statement"]
                .iter()
                .find_map(|k| map.get(*k).and_then(Value::as_str))
                .unwrap_or_default(),
            _ => "",
        };
        let text = one_line(text, MAX_CLAIM);
        if text.chars().count() < 3 || claims.contains(&text) {
            continue;
        }
        claims.push(text);
        if claims.len() >= max {
            break;
        }
    }
    Ok(claims)
}

/// A score from a number or a string such as `"45"`, `"45%"` or `"0.45"`. Fractions
/// (a non-integer in 0..=1) are read as shares; everything is clamped to 0–100.
fn score_of(value: &Value) -> Option<u8> {
    let number = match value {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().trim_end_matches('%').trim().parse::<f64>().ok()?,
        _ => return None,
    };
    if !number.is_finite() {
        return None;
    }
    let scaled = if number > 0.0 && number < 1.0 { number * 100.0 } else { number };
    Some(scaled.round().clamp(0.0, 100.0) as u8)
}

/// The verdict of a verification answer (HTTP body).
pub fn parse_verdict(body: &[u8]) -> Result<Verdict, ParseError> {
    let value = answer_json(body)?;
    let object = match &value {
        Value::Array(items) => items.first().cloned().unwrap_or(Value::Null),
        other => other.clone(),
    };
    let score = ["score", "confidence", "probability", "likelihood"]
        .iter()
        .find_map(|k| object.get(*k).and_then(score_of))
        .ok_or(ParseError::NoScore)?;
    let reasoning = ["reasoning", "reason", "explanation", "rationale"]
        .iter()
        .find_map(|k| object.get(*k).and_then(Value::as_str))
        .map(|r| one_line(r, MAX_REASONING))
        .filter(|r| !r.is_empty())
        .unwrap_or_else(|| "no reasoning given".to_string());
    Ok(Verdict { score, reasoning })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openai(content: &str) -> Vec<u8> {
        serde_json::to_vec(
            &serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}),
        )
        .unwrap()
    }

    fn ollama(content: &str) -> Vec<u8> {
        serde_json::to_vec(
            &serde_json::json!({"model": "m", "message": {"role": "assistant", "content": content}, "done": true}),
        )
        .unwrap()
    }

    #[test]
    fn claims_from_many_shapes() {
        let cases: &[(&str, &[&str])] = &[
            (
                r#"{"claims":[{"text":"Paris is in France."},{"text":"The Nile is long."}]}"#,
                &["Paris is in France.", "The Nile is long."],
            ),
            ("```json\n{\"claims\": [\"A is B.\",]}\n```", &["A is B."]),
            ("Sure! Here are the claims:\n{\"claims\": [{\"claim\": \"A is B.\"}]} Hope this helps.", &["A is B."]),
            (r#"[{"quote": "A is B."}, "C is D."]"#, &["A is B.", "C is D."]),
            (r#"{"claims": [{"text": "A is B."}, {"text": "A is B."}, {"nope": 1}, 7, {"text": "x"}]}"#, &["A is B."]),
            (r#"{"claims": []}"#, &[]),
            (r#"{"something_else": true}"#, &[]),
            (r#"{"claims": [{"text": "line\nbreak  and\ttab"}"#, &["line break and tab"]),
            (r#"{"claims":[{"text":"cut off in the mid"#, &["cut off in the mid"]),
        ];
        for (content, want) in cases {
            for body in [openai(content), ollama(content)] {
                let got = parse_claims(&body, 8).unwrap_or_else(|e| panic!("{content}: {e}"));
                assert_eq!(got, *want, "{content}");
            }
        }
    }

    #[test]
    fn claims_are_capped() {
        let content = r#"{"claims":["A is 1.","B is 2.","C is 3."]}"#;
        assert_eq!(parse_claims(&openai(content), 2).unwrap().len(), 2);
    }

    #[test]
    fn unusable_answers_are_errors_not_panics() {
        let cases: &[(&[u8], ParseError)] = &[
            (b"\xff\xfe", ParseError::Envelope),
            (br#"{"error": {"message": "model not found"}}"#, ParseError::Envelope),
            (br#"{"choices": []}"#, ParseError::Envelope),
            (&[], ParseError::NoJson),
        ];
        for (body, want) in cases {
            assert_eq!(parse_claims(body, 8).unwrap_err(), *want, "{}", String::from_utf8_lossy(body));
        }
        assert_eq!(parse_claims(&openai("I cannot help with that."), 8).unwrap_err(), ParseError::NoJson);
        assert_eq!(parse_verdict(&openai("no json here")).unwrap_err(), ParseError::NoJson);
        assert_eq!(parse_verdict(&openai(r#"{"reasoning": "no score"}"#)).unwrap_err(), ParseError::NoScore);
        assert_eq!(parse_verdict(&openai(r#"{"score": "high"}"#)).unwrap_err(), ParseError::NoScore);
        assert_eq!(parse_verdict(&openai(r#"{"score": null}"#)).unwrap_err(), ParseError::NoScore);
    }

    #[test]
    fn scores_are_read_and_clamped() {
        let cases: &[(&str, u8)] = &[
            (r#"{"score": 45, "reasoning": "r"}"#, 45),
            (r#"{"score": 0.45, "reasoning": "r"}"#, 45),
            (r#"{"score": "45%", "reasoning": "r"}"#, 45),
            (r#"{"confidence": "0.9"}"#, 90),
            (r#"{"score": 450}"#, 100),
            (r#"{"score": -3}"#, 0),
            (r#"{"score": 1}"#, 1),
            (r#"{"score": 1.0}"#, 1),
            (r#"{"score": 0}"#, 0),
            (r#"{"score": 99.6,}"#, 100),
            ("```\n{\"score\": 12, \"reasoning\": \"fenced\"}\n```", 12),
            (r#"[{"score": 33}]"#, 33),
        ];
        for (content, want) in cases {
            assert_eq!(parse_verdict(&openai(content)).unwrap().score, *want, "{content}");
            assert_eq!(parse_verdict(&ollama(content)).unwrap().score, *want, "{content}");
        }
    }

    #[test]
    fn reasoning_is_one_bounded_line() {
        let long = "é".repeat(400);
        let v = parse_verdict(&openai(&format!(r#"{{"score": 10, "reasoning": "a\nb {long}"}}"#))).unwrap();
        assert!(v.reasoning.starts_with("a b éé"));
        assert!(v.reasoning.len() <= MAX_REASONING + '…'.len_utf8());
        assert!(!v.reasoning.contains('\n'));
        let v = parse_verdict(&openai(r#"{"score": 10}"#)).unwrap();
        assert_eq!(v.reasoning, "no reasoning given");
    }

    #[test]
    fn bare_json_bodies_are_accepted() {
        assert_eq!(parse_verdict(br#"{"score": 80, "reasoning": "ok"}"#).unwrap().score, 80);
        assert_eq!(parse_claims(br#"{"claims": ["A is B."]}"#, 3).unwrap(), vec!["A is B."]);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_bytes(body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
            let _ = parse_claims(&body, 8);
            let _ = parse_verdict(&body);
        }

        #[test]
        fn never_panics_on_json_like_content(content in "[{}\\[\\]\",:a-z0-9 .%`\n-]{0,120}") {
            let _ = parse_claims(&openai(&content), 8);
            if let Ok(v) = parse_verdict(&ollama(&content)) {
                proptest::prop_assert!(v.score <= 100);
            }
        }
    }
}
