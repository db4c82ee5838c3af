//! Where the marks go: after the sentence of each doubtful claim, or in one block at
//! the end; in plain text, or inside the text fields of a JSON response.
//!
//! Positions are byte offsets at character boundaries of the verified text (the
//! session found each claim there); insertions go in at sentence ends, never inside
//! a multi-byte character.

use crate::edit::{splice, Edit};
use crate::json::{self, JsonError, Seg, StrSpan};
use crate::provider::{Provider, TextKind};

use super::AnnotationStyle;

/// One doubtful claim to mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Byte range of the claim in the verified text, when it was found there.
    pub span: Option<(usize, usize)>,
    pub claim: String,
    pub score: u8,
    pub reasoning: String,
}

/// `⚠️ [Confidence: 45%] <reasoning>`.
pub fn annotation_line(score: u8, reasoning: &str) -> String {
    format!("\u{26a0}\u{fe0f} [Confidence: {score}%] {reasoning}")
}

/// The block appended at the end of an answer (and the text of a stream's extra
/// event): one line per claim, quoting it.
pub fn appended_block(marks: &[Mark]) -> String {
    let mut out = String::new();
    for mark in marks {
        out.push_str(if out.is_empty() { "\n\n" } else { "\n" });
        out.push_str(&annotation_line(mark.score, &mark.reasoning));
        out.push_str(" (\u{201c}");
        out.push_str(&mark.claim);
        out.push_str("\u{201d})");
    }
    out
}

fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '\u{3002}' | '\u{ff01}' | '\u{ff1f}')
}

/// Where the sentence holding a claim that ends at `end` ends: after its terminator
/// (and closing quotes or brackets), or before a line break, or at the end.
fn sentence_end(text: &str, end: usize) -> usize {
    let end = (0..=end.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let before = text.get(..end).unwrap_or_default();
    let mut iter = text.get(end..).unwrap_or_default().char_indices().peekable();
    // A claim that already ends its sentence gets its mark right after it.
    let mut found_terminator = before.chars().next_back().is_some_and(is_terminator);
    let mut at = end;
    while let Some((i, c)) = iter.next() {
        if found_terminator {
            if matches!(c, '"' | '\'' | ')' | ']' | '\u{201d}' | '\u{2019}') || is_terminator(c) {
                at = end + i + c.len_utf8();
                continue;
            }
            return at;
        }
        if c == '\n' || c == '\r' {
            return end + i;
        }
        at = end + i + c.len_utf8();
        if is_terminator(c) {
            let next = iter.peek().map(|(_, n)| *n);
            if next.is_none_or(|n| n.is_whitespace() || matches!(n, '"' | '\'' | ')' | ']' | '\u{201d}')) {
                found_terminator = true;
            }
        }
    }
    at
}

/// Insertions (offset, text) for `marks` in `text`, sorted by offset. `Inline` puts
/// each mark after its claim's sentence (claims not found go to the end); `Append`
/// puts one block at the end; `Headers` inserts nothing.
pub fn insert_annotations(text: &str, marks: &[Mark], style: AnnotationStyle) -> Vec<(usize, String)> {
    match style {
        AnnotationStyle::Headers => Vec::new(),
        AnnotationStyle::Append => {
            if marks.is_empty() {
                Vec::new()
            } else {
                vec![(text.len(), appended_block(marks))]
            }
        }
        AnnotationStyle::Inline => {
            let mut at: Vec<(usize, String)> = Vec::new();
            let mut unplaced = Vec::new();
            for mark in marks {
                match mark.span {
                    Some((_, end)) if end <= text.len() => {
                        let pos = sentence_end(text, end);
                        let line = annotation_line(mark.score, &mark.reasoning);
                        match at.iter_mut().find(|(p, _)| *p == pos) {
                            Some((_, existing)) => {
                                existing.push(' ');
                                existing.push_str(&line);
                            }
                            None => at.push((pos, format!(" {line}"))),
                        }
                    }
                    _ => unplaced.push(mark.clone()),
                }
            }
            if !unplaced.is_empty() {
                at.push((text.len(), appended_block(&unplaced)));
            }
            at.sort_by_key(|(p, _)| *p);
            at
        }
    }
}

/// Applies sorted insertions to a text.
pub fn apply(text: &str, insertions: &[(usize, String)]) -> String {
    let mut out = String::with_capacity(text.len() + insertions.iter().map(|(_, s)| s.len()).sum::<usize>());
    let mut last = 0;
    for (pos, insert) in insertions {
        let pos = (*pos).clamp(last, text.len());
        out.push_str(text.get(last..pos).unwrap_or_default());
        out.push_str(insert);
        last = pos;
    }
    out.push_str(text.get(last..).unwrap_or_default());
    out
}

/// A text field of a JSON response: where it is, its decoded text, and where that
/// text starts in the joined text the verifier sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextField {
    pub span: StrSpan,
    pub text: String,
    pub offset: usize,
}

/// Separator between fields in the joined text.
pub const FIELD_SEPARATOR: &str = "\n\n";

/// Is this response path prose to verify? The provider's plain text fields, minus
/// refusals and tool inputs.
fn is_prose(provider: Provider, path: &[Seg<'_>]) -> bool {
    if provider.response_text(path) != Some(TextKind::Plain) {
        return false;
    }
    !path
        .iter()
        .any(|seg| matches!(seg, Seg::Key(k) if matches!(k.as_ref(), "refusal" | "input" | "args" | "arguments")))
}

/// The prose fields of a JSON response, and their joined text.
pub fn response_text_fields(provider: Provider, body: &[u8]) -> Result<(Vec<TextField>, String), JsonError> {
    let mut spans = Vec::new();
    json::visit_strings(body, &mut |path, span| {
        if is_prose(provider, path) {
            spans.push(span);
        }
    })?;
    let mut fields = Vec::new();
    let mut joined = String::new();
    for span in spans {
        let decoded = json::decode(body.get(span.start..span.end).unwrap_or_default());
        let text = decoded.text().into_owned();
        if text.trim().is_empty() {
            continue;
        }
        if !joined.is_empty() {
            joined.push_str(FIELD_SEPARATOR);
        }
        fields.push(TextField { span, offset: joined.len(), text: text.clone() });
        joined.push_str(&text);
    }
    Ok((fields, joined))
}

/// Puts insertions made on the joined text back into the fields of `body`.
pub fn annotate_json(body: &[u8], fields: &[TextField], insertions: &[(usize, String)]) -> Vec<u8> {
    let mut edits = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let end = field.offset + field.text.len();
        let last = i + 1 == fields.len();
        let mine: Vec<(usize, String)> = insertions
            .iter()
            .filter(|(pos, _)| *pos >= field.offset && (*pos <= end || last))
            .filter(|(pos, _)| {
                // A position on the separator belongs to the field before it.
                fields.get(i + 1).is_none_or(|next| *pos < next.offset)
            })
            .map(|(pos, s)| (pos.saturating_sub(field.offset).min(field.text.len()), s.clone()))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let text = apply(&field.text, &mine);
        let mut replacement = Vec::with_capacity(text.len() + 16);
        json::escape_into(&mut replacement, &text);
        edits.push(Edit { start: field.span.start, end: field.span.end, replacement });
    }
    if edits.is_empty() {
        body.to_vec()
    } else {
        splice(body, edits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(text: &str, claim: &str, score: u8) -> Mark {
        let start = text.find(claim);
        Mark { span: start.map(|s| (s, s + claim.len())), claim: claim.into(), score, reasoning: format!("r{score}") }
    }

    fn annotate(text: &str, marks: &[Mark], style: AnnotationStyle) -> String {
        apply(text, &insert_annotations(text, marks, style))
    }

    #[test]
    fn inline_after_the_sentence() {
        let text = "The Eiffel Tower is in Rome, as everyone knows. Water is wet.";
        let m = mark(text, "The Eiffel Tower is in Rome", 20);
        assert_eq!(
            annotate(text, &[m], AnnotationStyle::Inline),
            "The Eiffel Tower is in Rome, as everyone knows. \u{26a0}\u{fe0f} [Confidence: 20%] r20 Water is wet."
        );
    }

    #[test]
    fn inline_claim_that_ends_its_sentence_and_the_text() {
        let text = "Cats bark. Dogs meow!";
        let marks = [mark(text, "Cats bark.", 10), mark(text, "Dogs meow!", 30)];
        assert_eq!(
            annotate(text, &marks, AnnotationStyle::Inline),
            "Cats bark. \u{26a0}\u{fe0f} [Confidence: 10%] r10 Dogs meow! \u{26a0}\u{fe0f} [Confidence: 30%] r30"
        );
    }

    #[test]
    fn inline_multi_claim_same_sentence_and_utf8() {
        let text = "Zürich hat 9 Millionen Einwohner und liegt am Meer. Straße — gut.\nNächste Zeile";
        let marks = [mark(text, "Zürich hat 9 Millionen Einwohner", 40), mark(text, "liegt am Meer", 5)];
        let out = annotate(text, &marks, AnnotationStyle::Inline);
        assert_eq!(
            out,
            "Zürich hat 9 Millionen Einwohner und liegt am Meer. \u{26a0}\u{fe0f} [Confidence: 40%] r40 \u{26a0}\u{fe0f} [Confidence: 5%] r5 Straße — gut.\nNächste Zeile"
        );
        // No sentence terminator: before the line break.
        let text = "Größe: 3 m\nrest";
        let out = annotate(text, &[mark(text, "Größe: 3 m", 1)], AnnotationStyle::Inline);
        assert_eq!(out, "Größe: 3 m \u{26a0}\u{fe0f} [Confidence: 1%] r1\nrest");
    }

    #[test]
    fn decimals_and_quotes_do_not_end_a_sentence() {
        let text = "Pi is 3.14 exactly (he said \"so.\") and more. Next.";
        let out = annotate(text, &[mark(text, "Pi is 3.14 exactly", 9)], AnnotationStyle::Inline);
        assert_eq!(out, "Pi is 3.14 exactly (he said \"so.\") \u{26a0}\u{fe0f} [Confidence: 9%] r9 and more. Next.");
    }

    #[test]
    fn unplaced_claims_and_append_style_go_to_the_end() {
        let text = "A is B.";
        let lost = Mark { span: None, claim: "C is D".into(), score: 3, reasoning: "no".into() };
        let want = "A is B.\n\n\u{26a0}\u{fe0f} [Confidence: 3%] no (\u{201c}C is D\u{201d})";
        assert_eq!(annotate(text, std::slice::from_ref(&lost), AnnotationStyle::Inline), want);
        assert_eq!(annotate(text, std::slice::from_ref(&lost), AnnotationStyle::Append), want);
        assert_eq!(annotate(text, &[lost], AnnotationStyle::Headers), text);
        assert_eq!(annotate(text, &[], AnnotationStyle::Append), text);
    }

    #[test]
    fn json_fields_are_annotated_in_place() {
        let body = r#"{"id":"m","content":[{"type":"text","text":"Cats bark. Fine."},{"type":"tool_use","input":{"q":"Cats bark."}},{"type":"text","text":"Dogs \"meow\"."}],"x":1.50}"#;
        let (fields, joined) = response_text_fields(Provider::Anthropic, body.as_bytes()).unwrap();
        assert_eq!(joined, "Cats bark. Fine.\n\nDogs \"meow\".");
        assert_eq!(fields.len(), 2);
        let marks = [mark(&joined, "Cats bark.", 10), mark(&joined, "Dogs \"meow\".", 20)];
        let out =
            annotate_json(body.as_bytes(), &fields, &insert_annotations(&joined, &marks, AnnotationStyle::Inline));
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["content"][0]["text"], "Cats bark. \u{26a0}\u{fe0f} [Confidence: 10%] r10 Fine.");
        assert_eq!(v["content"][2]["text"], "Dogs \"meow\". \u{26a0}\u{fe0f} [Confidence: 20%] r20");
        assert_eq!(v["content"][1]["input"]["q"], "Cats bark.");
        assert!(String::from_utf8(out).unwrap().ends_with(r#""x":1.50}"#));
    }

    #[test]
    fn prose_fields_per_provider() {
        let chat = r#"{"choices":[{"message":{"content":"Hi.","refusal":"no","tool_calls":[{"function":{"arguments":"{}"}}]}}]}"#;
        assert_eq!(response_text_fields(Provider::OpenAiChat, chat.as_bytes()).unwrap().1, "Hi.");
        let gemini = r#"{"candidates":[{"content":{"parts":[{"text":"A."},{"functionCall":{"args":{"t":"B."}}}]}}]}"#;
        assert_eq!(response_text_fields(Provider::Gemini, gemini.as_bytes()).unwrap().1, "A.");
        let responses = r#"{"output":[{"type":"message","content":[{"type":"output_text","text":"R."}]}]}"#;
        assert_eq!(response_text_fields(Provider::OpenAiResponses, responses.as_bytes()).unwrap().1, "R.");
    }

    proptest::proptest! {
        /// Whatever the text and claim positions, marks go in at character boundaries
        /// and the original text is kept, in order.
        #[test]
        fn marks_never_split_characters(text in "[a-zé€. !?\n\"]{0,80}", cuts in proptest::collection::vec((0usize..100, 0usize..100), 0..4)) {
            let marks: Vec<Mark> = cuts
                .iter()
                .map(|&(a, b)| {
                    let (a, b) = (a.min(b).min(text.len()), a.max(b).min(text.len()));
                    let ok = text.is_char_boundary(a) && text.is_char_boundary(b);
                    Mark { span: ok.then_some((a, b)), claim: "c".into(), score: 1, reasoning: "r".into() }
                })
                .collect();
            for style in [AnnotationStyle::Inline, AnnotationStyle::Append] {
                let out = annotate(&text, &marks, style);
                let mut rest = out.as_str();
                for ch in text.chars() {
                    let at = rest.find(ch).expect("original text kept in order");
                    rest = &rest[at + ch.len_utf8()..];
                }
                proptest::prop_assert_eq!(out.matches("[Confidence: 1%]").count(), marks.len());
            }
        }
    }
}
