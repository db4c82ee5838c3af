//! Differential test of the request redactor against a lenient JSON reader.
//!
//! For generated request bodies (valid, invalid, lenient JSON), every string a lenient
//! JSON parser decodes from what Veil forwards — read the way a model reads it — holds
//! no seeded value. The reader below is written for this test: it takes every string
//! (values and keys) it can decode from the bytes, the way permissive parsers do
//! (Python's `json` with NaN, JSON5 readers, browsers), then applies what a model
//! would read into it (one more level of escapes, invisible characters removed,
//! full-width ASCII folded).

use proptest::prelude::*;
use veil_core::policy::CompiledPolicy;
use veil_core::provider::Provider;
use veil_core::redact::{BodyKind, Redactor, Verdict};
use veil_core::token::TokenMinter;

/// Seeded values: synthetic only.
const SEEDS: &[&str] =
    &["jane.doe@example.com", "123-45-6789", "4111 1111 1111 1111", "AKIAIOSFODNN7EXAMPLE", "10.20.30.40"];

const PROVIDERS: [Provider; 5] =
    [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic, Provider::Gemini, Provider::Generic];

use crate::lenient;

/// The policies every body is redacted under: the default (lenient JSON refused) and
/// `limits.invalid_json: scan_text`.
fn policies() -> [(&'static str, &'static CompiledPolicy); 2] {
    thread_local! {
        static POLICIES: [(&'static str, &'static CompiledPolicy); 2] = [
            ("default", Box::leak(Box::new(CompiledPolicy::from_json(b"").unwrap()))),
            ("scan_text", Box::leak(Box::new(CompiledPolicy::from_json(br#"{"limits":{"invalid_json":"scan_text"}}"#).unwrap()))),
        ];
    }
    POLICIES.with(|p| *p)
}

/// What goes to the vendor (the body, a rewrite, or nothing: blocked or refused), and
/// how Veil read the body.
fn forwarded(policy: &CompiledPolicy, provider: Provider, body: &[u8]) -> (Option<Vec<u8>>, BodyKind) {
    let minter = TokenMinter::new([7; 32]);
    let redactor = Redactor {
        profile: policy.profile(None),
        provider,
        minter: &minter,
        scope: b"differential",
        taken: &|_, _| false,
    };
    let redaction = redactor.redact(body);
    let out = match redaction.verdict {
        Verdict::Forward => Some(body.to_vec()),
        Verdict::Rewrite(out) => Some(out),
        Verdict::Block { .. } | Verdict::Refuse(_) => None,
    };
    (out, redaction.kind)
}

/// Under every provider and both policies: what a model reads from the forwarded body
/// (if anything is forwarded) never contains `seed`. Err describes the first leak.
fn check(providers: &[Provider], body: &[u8], seed: &str) -> Result<(), String> {
    for &provider in providers {
        for (name, policy) in policies() {
            let (out, kind) = forwarded(policy, provider, body);
            let Some(out) = out else { continue };
            if let Some(s) = lenient::find(&out, seed) {
                return Err(format!(
                    "{provider:?} / {name} policy (read as {}): a lenient reader decodes {s:?} from the forwarded body {:?}",
                    kind.name(),
                    String::from_utf8_lossy(&out)
                ));
            }
        }
    }
    Ok(())
}

fn assert_no_leak(body: &[u8], seed: &str) {
    // The body must hold the seed as a reader sees it, or the case tests nothing.
    assert!(
        lenient::find(body, seed).is_some(),
        "the case does not contain {seed:?}: {}",
        String::from_utf8_lossy(body)
    );
    if let Err(e) = check(&PROVIDERS, body, seed) {
        panic!("{e}");
    }
}

// ---------------------------------------------------------------------------------
// Deterministic cases, one per attack.

macro_rules! attacks {
    ($($(#[$attr:meta])* $name:ident: $seed:expr, $body:expr;)*) => {$(
        #[test]
        $(#[$attr])*
        fn $name() {
            let body: Vec<u8> = $body.into();
            assert_no_leak(&body, $seed);
        }
    )*};
}

const EMAIL: &str = "jane.doe@example.com";
const SSN: &str = "123-45-6789";
const CARD: &str = "4111 1111 1111 1111";
const AWS: &str = "AKIAIOSFODNN7EXAMPLE";
const IP: &str = "10.20.30.40";

attacks! {
    attack_plain_text_field: EMAIL, r#"{"model":"gpt-4o","messages":[{"role":"user","content":"mail jane.doe@example.com"}]}"#;
    attack_unicode_escaped_at_sign: EMAIL, r#"{"messages":[{"role":"user","content":"jane.doe\u0040example.com"}]}"#;
    attack_every_character_escaped: SSN, r#"{"messages":[{"role":"user","content":"\u0031\u0032\u0033\u002D\u0034\u0035\u002d\u0036\u0037\u0038\u0039"}]}"#;
    attack_escapes_a_second_level_down: EMAIL, r#"{"messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"to\":\"jane.doe\\u0040example.com\"}"}}]}]}"#;
    attack_zero_width_characters_inside: EMAIL, "{\"contents\":[{\"parts\":[{\"text\":\"jane\u{200b}.doe@exa\u{00ad}mple\u{2060}.com\"}]}]}";
    attack_escaped_zero_width_characters_inside: CARD, r#"{"contents":[{"parts":[{"text":"4111\u200b 1111 \ufeff1111 1111"}]}]}"#;
    attack_full_width_forms: IP, "{\"input\":\"\u{ff11}\u{ff10}\u{ff0e}20.30\u{ff0e}40\"}";
    attack_escaped_full_width_forms: EMAIL, r#"{"system":"jane.doe\uff20example\uff0ecom"}"#;
    attack_surrogate_pair_next_to_the_value: AWS, r#"{"messages":[{"role":"user","content":"\ud83d\ude00AKIAIOSFODNN7EXAMPLE\ud83d\ude00"}]}"#;
    attack_value_as_object_key: EMAIL, r#"{"metadata":{"jane.doe@example.com":true}}"#;
    attack_escaped_value_as_object_key: SSN, r#"{"metadata":{"123\u002d45\u002d6789":"x"}}"#;
    attack_duplicate_keys: SSN, r#"{"messages":[{"role":"user","content":"hi","content":"123-45-6789"}]}"#;
    attack_unknown_nested_field: CARD, r#"{"model":"m","x_extra":{"a":[1,{"b":[null,"card 4111 1111 1111 1111"]}]}}"#;
    attack_value_in_structural_key: IP, r#"{"model":"10.20.30.40","messages":[]}"#;
    attack_value_in_role: EMAIL, r#"{"messages":[{"role":"jane.doe@example.com","content":"hi"}]}"#;
    attack_text_in_media_key: EMAIL, r#"{"messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"jane.doe@example.com"}}]}]}"#;
    attack_nan_literal: EMAIL, r#"{"messages":[{"role":"user","content":"jane.doe@example.com"}],"temperature":NaN}"#;
    attack_infinity_literal: SSN, r#"{"temperature":-Infinity,"messages":[{"role":"user","content":"123-45-6789"}]}"#;
    attack_trailing_comma: IP, r#"{"messages":[{"role":"user","content":"10.20.30.40"},],}"#;
    attack_line_comment: EMAIL, "{// hi\n\"messages\":[{\"role\":\"user\",\"content\":\"jane.doe@example.com\"}]}";
    attack_block_comment: CARD, r#"{/* c */"messages":[{"role":"user","content":"4111 1111 1111 1111"}]}"#;
    attack_byte_order_mark: SSN, b"\xEF\xBB\xBF{\"messages\":[{\"role\":\"user\",\"content\":\"123-45-6789\"}]}".to_vec();
    attack_single_quoted_strings: EMAIL, r#"{'messages':[{'role':'user','content':'jane.doe\u0040example.com'}]}"#;
    attack_unquoted_keys: AWS, r#"{messages:[{role:"user",content:"key AKIAIOSFODNN7EXAMPLE"}]}"#;
    attack_invalid_utf8_elsewhere: IP, b"{\"x\":\"\xff\",\"messages\":[{\"role\":\"user\",\"content\":\"10.20.30.40\"}]}".to_vec();
    attack_nesting_beyond_1000: EMAIL, format!("{{\"a\":{}\"jane.doe\\u0040example.com\"{}}}", "[".repeat(1001), "]".repeat(1001));
    attack_garbage_after_the_document: SSN, r#"{"messages":[]} {"messages":[{"role":"user","content":"123-45-6789"}]}"#;
    attack_truncated_document: EMAIL, r#"{"messages":[{"role":"user","content":"jane.doe@example.com"#;
    attack_lone_surrogate_next_to_the_value: IP, r#"{"input":"\ud800 10.20.30.40 \udc00"}"#;
}

// Leaks this test found, fixed in the source (a289f22); kept as regressions.
attacks! {
    // A value spelled only in the base64 alphabet (an AWS key id, a card number without
    // spaces), alone in a string under a media key (`data`, `url`, …), was taken for
    // base64 media and never scanned, in strict JSON under the default policy.
    regression_base64_alphabet_value_under_a_media_key: AWS, r#"{"url":"AKIAIOSFODNN7EXAMPLE"}"#;
    regression_card_number_in_a_text_document_source: "4111111111111111",
        r#"{"model":"claude","messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"4111111111111111"}}]}]}"#;
    // JSON5 escapes (`\xHH`, a punctuation character escaped as itself), which JSON5 /
    // JavaScript readers decode, were not decoded when a body is scanned as text: with
    // `limits.invalid_json: scan_text`, and under the default policy too for JSON that
    // does not start with `{` or `[` (a comment first, a top-level string), which is
    // classified as text.
    regression_json5_hex_escape_scanned_as_text: EMAIL, r#"{"input":"jane.doe\x40example.com"}"#;
    regression_json5_identity_escape_scanned_as_text: SSN, r#"{"input":"123\-45-6789"}"#;
    regression_json5_escape_after_a_leading_comment: EMAIL, "/**/{\"input\":\"jane.doe\\x40example.com\"}";
    regression_json5_escape_in_a_top_level_string: SSN, r#""123\-45-6789""#;
    // An invisible character (zero-width space, word joiner, soft hyphen, BOM…) between
    // a word and the value: the view removed it, glued the value to the word
    // (`ssn123-45-6789`), the word boundary failed and the value went on verbatim.
    regression_invisible_character_before_the_value: SSN, r#"{"input":"ssn\u200b123-45-6789"}"#;
    regression_invisible_character_after_the_value: IP, "{\"input\":\"10.20.30.40\u{2060}note\"}";
}

// Leaks this test found, fixed in the source (2eaab1f); kept as regressions.
attacks! {
    // A JSON5 identity escape of a space or of a non-ASCII character (`\ `, `\＠`, a
    // backslash before a zero-width space) was not decoded when a body is read as text
    // (`limits.invalid_json: scan_text`, or the default policy after a leading comment).
    regression_json5_identity_escape_of_a_space: CARD, r#"{"input":"4111 1111 1111\ 1111"}"#;
    regression_json5_identity_escape_of_a_full_width_character: EMAIL, "{\"input\":\"jane.doe\\\u{ff20}example.com\"}";
    regression_json5_identity_escape_of_a_space_after_a_leading_comment: CARD, r#"/**/{"input":"4111 1111 1111\ 1111"}"#;
    // An invisible character between a word and the value *and* one inside the value:
    // one view (invisible removed) glued the value to the word (`ssn123-45-6789`), the
    // other (invisible read as a space) split it (`ssn 123-45-678 9`); strict JSON, the
    // default policy.
    regression_invisible_characters_around_and_inside_the_value: SSN, r#"{"input":"ssn\u200b123-45-678\u200b9"}"#;
    // A private IP within 24 bytes of "oid" (or "build", "upgrade") lost confidence and
    // went on verbatim (found by the fuzz target as `""oid"1０.20.３0.40`). Only words
    // that name a version ("version", "release", "ver", "firmware") still lower it, by
    // design; the generated cases never write them.
    regression_private_ip_next_to_oid: IP, r#"{"input":"oid 10.20.30.40"}"#;
}

// Found by the fuzz target, fixed in the source; kept as regressions.
attacks! {
    // Digits right before a card number made a Luhn-valid card that starts earlier
    // (`2549 4111 1111 1111`); a longer overlapping finding (the password
    // `correct.horse.battery.2549`) won the overlap, and the real card, whose digits the
    // dropped candidate had consumed, was never looked for again. Later group starts
    // are candidates too now.
    regression_card_number_after_digits_of_a_password: CARD, r#"{"input":"password: correct.horse.battery.2549 4111 1111 1111 1111"}"#;
}

// Found by the fuzz target, fixed in the source; kept as a regression.
attacks! {
    // A card-like run of digits with a dot in it (`300220220.3030220`, Luhn-valid as a
    // whole), then a space, then the card: the search resumed after the run's shortened
    // candidate (`3030220 4111 1111`), so the card itself was never a candidate. Later
    // group starts are candidates whatever was accepted before them.
    regression_card_number_after_a_dotted_digit_run: CARD, r#"{"":"300220220.3030220 4111 1111 1111 1111"}"#;
}

// Not covered (README, "Known limits"): a value that starts or ends with a letter,
// glued to a word by an invisible character *and* with another invisible character
// inside it (`x\u{200B}AKIAIOSFOD\u{200B}NN7EXAMPLE`): the view that removes them glues
// it to the word, the one that reads them as spaces splits it, and the one that reads
// them as spaces between a letter and a digit does not apply. The generated cases skip
// that one shape (`Case::glued_at_a_letter_and_split`).

// ---------------------------------------------------------------------------------
// Generated bodies.

/// How one character of the seed is written inside a JSON string.
#[derive(Debug, Clone, Copy)]
enum Spell {
    Plain,
    /// `\u00XX` (upper-case hex digits when true).
    Escaped(bool),
    /// Its full-width form, as UTF-8.
    FullWidth,
    /// Its full-width form as a `\uFFXX` escape.
    FullWidthEscaped,
    /// An invisible character before it (index into `INVISIBLE`), as UTF-8 or escaped.
    Invisible(usize, bool),
    /// `\\u00XX`: the string holds an escape a model decodes.
    DoubleEscaped,
}

const INVISIBLE: &[char] = &[
    '\u{200B}', '\u{200C}', '\u{200D}', '\u{200E}', '\u{200F}', '\u{2060}', '\u{2061}', '\u{2062}', '\u{2063}',
    '\u{2064}', '\u{FEFF}', '\u{00AD}',
];

fn spell() -> impl Strategy<Value = Spell> {
    prop_oneof![
        12 => Just(Spell::Plain),
        2 => any::<bool>().prop_map(Spell::Escaped),
        1 => Just(Spell::FullWidth),
        1 => Just(Spell::FullWidthEscaped),
        1 => (0..INVISIBLE.len(), any::<bool>()).prop_map(|(i, e)| Spell::Invisible(i, e)),
        1 => Just(Spell::DoubleEscaped),
    ]
}

/// A lenient-JSON change to the whole body.
#[derive(Debug, Clone, Copy)]
enum Lenient {
    NaN(usize),
    TrailingComma,
    LineComment,
    BlockComment,
    Bom,
    SingleQuotes,
    UnquotedKey,
    InvalidUtf8,
    /// The seed's string nested more than 1000 arrays deep.
    Deep,
    /// Bytes after the document; with the seed's string again when true.
    GarbageAfter(bool),
    /// A comment before the document (a line comment when true).
    CommentFirst(bool),
    /// A JSON5 escape for the seed's character at this index.
    Json5Escape(usize, Json5),
}

/// How a JSON5 escape writes a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Json5 {
    /// `\xHH`.
    Hex,
    /// The character escaped as itself (`\@`, `\ `; a letter or a digit as `\xHH`, since
    /// `\n`, `\x`, `\1` mean something else).
    Identity,
    /// Its full-width form escaped as itself (`\＠`; `\xHH` for a space).
    FullWidth,
}

fn lenient_change() -> impl Strategy<Value = Lenient> {
    prop_oneof![
        (0..3usize).prop_map(Lenient::NaN),
        Just(Lenient::TrailingComma),
        Just(Lenient::LineComment),
        Just(Lenient::BlockComment),
        Just(Lenient::Bom),
        Just(Lenient::SingleQuotes),
        Just(Lenient::UnquotedKey),
        Just(Lenient::InvalidUtf8),
        Just(Lenient::Deep),
        any::<bool>().prop_map(Lenient::GarbageAfter),
        any::<bool>().prop_map(Lenient::CommentFirst),
        (0..32usize, prop_oneof![Just(Json5::Hex), Just(Json5::Identity), Just(Json5::FullWidth)])
            .prop_map(|(i, how)| Lenient::Json5Escape(i, how)),
    ]
}

/// Where the seed's string sits inside the hole.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Value,
    Key,
    /// In an array of strings.
    InArray,
    /// The second of two members with the same key.
    Duplicate,
}

/// One level of nesting around the seed's string: an object member (key index into
/// `KEYS`, with a sibling or not) or an array element (at this position).
#[derive(Debug, Clone, Copy)]
enum Wrap {
    Obj(usize, bool),
    Arr(usize),
}

/// Keys placed around the seed: text fields, structure, media, unknown.
const KEYS: &[&str] = &[
    "content",
    "text",
    "input",
    "prompt",
    "system",
    "instructions",
    "arguments",
    "description",
    "model",
    "role",
    "type",
    "id",
    "name",
    "status",
    "mimeType",
    "media_type",
    "format",
    "tool_call_id",
    "data",
    "url",
    "image_url",
    "signature",
    "b64_json",
    "x_note",
    "metadata",
    "customField",
    "__proto__",
    "tags",
    "",
    "k",
];

/// Each provider's request shapes, with `@@` where the hole goes.
fn templates(provider: Provider) -> &'static [&'static str] {
    match provider {
        Provider::OpenAiChat => &[
            r#"{"model":"gpt-4o","messages":[{"role":"user","content":@@}]}"#,
            r#"{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"text","text":@@}]}]}"#,
            r#"{"model":"gpt-4o","messages":[{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":@@}}]}]}"#,
            r#"{"model":@@,"messages":[{"role":"user","content":"hi"}]}"#,
            r#"{"model":"gpt-4o","messages":[{"role":@@,"content":"hi"}],"user":"u"}"#,
            r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"f","description":@@}}]}"#,
        ],
        Provider::OpenAiResponses => &[
            r#"{"model":"gpt-4o","input":@@}"#,
            r#"{"model":"gpt-4o","instructions":@@,"input":"hi"}"#,
            r#"{"model":"gpt-4o","input":[{"role":"user","content":[{"type":"input_text","text":@@}]}]}"#,
            r#"{"model":"gpt-4o","input":[{"type":"function_call_output","call_id":"c1","output":@@}]}"#,
        ],
        Provider::Anthropic => &[
            r#"{"model":"claude","max_tokens":10,"system":@@,"messages":[]}"#,
            r#"{"model":"claude","messages":[{"role":"user","content":[{"type":"text","text":@@}]}]}"#,
            r#"{"model":"claude","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":@@}]}]}"#,
            r#"{"model":"claude","messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":@@}}]}]}"#,
            r#"{"model":"claude","metadata":{"user_id":@@},"messages":[]}"#,
        ],
        Provider::Gemini => &[
            r#"{"contents":[{"role":"user","parts":[{"text":@@}]}]}"#,
            r#"{"systemInstruction":{"parts":[{"text":@@}]},"contents":[]}"#,
            r#"{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{"q":@@}}}]}]}"#,
            r#"{"contents":[{"parts":[{"inlineData":{"mimeType":"text/plain","data":@@}}]}]}"#,
        ],
        Provider::Generic => &[r#"{"input":@@}"#, r#"{"prompt":@@,"n":1}"#, r#"[1,@@]"#],
    }
}

/// Filler words around the seed (never a word that lowers a detector's confidence by
/// design, see `regression_private_ip_next_to_oid`), and what separates them from it (raw JSON string
/// contents).
const FILLERS: &[&str] =
    &["mail", "ssn", "card", "key", "ip", "note", "hi there", "日本語", "caf\\u00e9", "😀", "\\ud83d\\ude00"];
const SEPARATORS: &[&str] = &[
    " ",
    "\\n",
    "\\t",
    ": ",
    " (",
    ") ",
    "😀",
    "\\ud83d\\ude00",
    "\\\"",
    "<",
    ">",
    ", ",
    " \u{200b}",
    // Invisible only (the last `INVISIBLE_SEPARATORS`).
    "\u{200b}",
    "\\u200b",
    "\u{ad}",
    "\\u2060",
    "\u{feff}",
];
const INVISIBLE_SEPARATORS: usize = 5;

/// Whether a filler and a separator glue the seed to an ASCII word character once the
/// separator's invisible characters are removed (`before`: the filler comes first).
fn glued(filler: &str, separator: &str, before: bool) -> bool {
    let read = |raw: &str| lenient::model_reads(&lenient::unescape(raw));
    let filler = read(filler);
    let edge = if before { filler.chars().last() } else { filler.chars().next() };
    read(separator).is_empty() && edge.is_some_and(|c| c.is_ascii_alphanumeric())
}

/// A separator, rarely an invisible one.
fn separator() -> impl Strategy<Value = usize> {
    let visible = SEPARATORS.len() - INVISIBLE_SEPARATORS;
    prop_oneof![8 => 0..visible, 1 => visible..SEPARATORS.len()]
}

#[derive(Debug, Clone)]
struct Case {
    provider: Provider,
    seed: &'static str,
    spells: Vec<Spell>,
    /// Plain text before everything else in the string (moves the seed's alignment).
    pad: usize,
    prefix: Option<(usize, usize)>,
    suffix: Option<(usize, usize)>,
    /// The seed written twice in the string.
    twice: bool,
    /// Index into the provider's templates; or, when `top_key` is set, that
    /// template with one more top-level member.
    template: usize,
    top_key: Option<usize>,
    wraps: Vec<Wrap>,
    slot: Slot,
    lenient: Vec<Lenient>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        proptest::sample::select(PROVIDERS.to_vec()),
        proptest::sample::select(SEEDS),
        // Each character spelled its own way, or the seed written plainly.
        prop_oneof![3 => proptest::collection::vec(spell(), 32), 2 => Just(vec![Spell::Plain])],
        (
            prop_oneof![3 => Just(0usize), 1 => 1..48usize],
            proptest::option::weighted(0.5, (0..FILLERS.len(), separator())),
            proptest::option::weighted(0.5, (separator(), 0..FILLERS.len())),
            proptest::bool::weighted(0.15),
        ),
        0..8usize,
        proptest::option::weighted(0.3, 0..KEYS.len()),
        proptest::collection::vec(
            prop_oneof![
                (0..KEYS.len(), any::<bool>()).prop_map(|(k, s)| Wrap::Obj(k, s)),
                (0..3usize).prop_map(Wrap::Arr)
            ],
            0..4,
        ),
        prop_oneof![4 => Just(Slot::Value), 2 => Just(Slot::Key), 1 => Just(Slot::InArray), 1 => Just(Slot::Duplicate)],
        proptest::collection::vec(lenient_change(), 0..3),
    )
        .prop_map(
            |(provider, seed, spells, (pad, prefix, suffix, twice), template, top_key, wraps, slot, lenient)| Case {
                provider,
                seed,
                spells,
                pad,
                prefix,
                suffix,
                twice,
                template,
                top_key,
                wraps,
                slot,
                lenient,
            },
        )
}

impl Case {
    fn single_quotes(&self) -> bool {
        self.lenient.iter().any(|l| matches!(l, Lenient::SingleQuotes))
    }

    /// The seed's string contents, as raw JSON.
    fn seed_contents(&self) -> Vec<u8> {
        const LOREM: &str = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod ";
        let mut out = Vec::new();
        if self.pad > 0 {
            out.extend_from_slice(LOREM.get(..self.pad.min(LOREM.len() - 1)).unwrap_or_default().as_bytes());
            out.push(b' ');
        }
        if let Some((f, s)) = self.prefix {
            out.extend_from_slice(FILLERS[f].as_bytes());
            out.extend_from_slice(SEPARATORS[s].as_bytes());
        }
        self.spell_seed(&mut out);
        if self.twice {
            out.extend_from_slice(b", ");
            self.spell_seed(&mut out);
        }
        if let Some((s, f)) = self.suffix {
            out.extend_from_slice(SEPARATORS[s].as_bytes());
            out.extend_from_slice(FILLERS[f].as_bytes());
        }
        out
    }

    /// Whether an invisible separator glues the seed to a word at an edge where the seed
    /// has a letter, while an invisible character sits inside it too (the shape not
    /// covered, see "Not covered" above).
    fn glued_at_a_letter_and_split(&self) -> bool {
        let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
        let glued = self
            .prefix
            .is_some_and(|(f, s)| glued(FILLERS[f], SEPARATORS[s], true) && letter(self.seed.chars().next()))
            || self
                .suffix
                .is_some_and(|(s, f)| glued(FILLERS[f], SEPARATORS[s], false) && letter(self.seed.chars().last()));
        let split = (1..self.seed.len()).any(|i| {
            matches!(self.spells[i % self.spells.len()], Spell::Invisible(..)) && self.json5_escape(i).is_none()
        });
        glued && split
    }

    /// The JSON5 escape that writes the seed's character at `i`, if any.
    fn json5_escape(&self, i: usize) -> Option<Json5> {
        self.lenient.iter().find_map(|l| match *l {
            Lenient::Json5Escape(at, how) if at % self.seed.len() == i => Some(how),
            _ => None,
        })
    }

    /// The seed, each character spelled as `spells` (and JSON5 escapes) say.
    fn spell_seed(&self, out: &mut Vec<u8>) {
        for (i, c) in self.seed.chars().enumerate() {
            let full = (0x21..=0x7E).contains(&(c as u32)).then(|| char::from_u32(c as u32 - 0x21 + 0xFF01)).flatten();
            match self.json5_escape(i) {
                Some(Json5::Identity) if !c.is_ascii_alphanumeric() => {
                    out.push(b'\\');
                    out.push(c as u8);
                }
                Some(Json5::FullWidth) if full.is_some() => {
                    out.push(b'\\');
                    out.extend_from_slice(full.unwrap_or(c).to_string().as_bytes());
                }
                Some(_) => out.extend_from_slice(format!("\\x{:02x}", c as u32).as_bytes()),
                None => {}
            }
            if self.json5_escape(i).is_some() {
                continue;
            }
            match (self.spells[i % self.spells.len()], full) {
                (Spell::Escaped(upper), _) => {
                    let e = if upper { format!("\\u{:04X}", c as u32) } else { format!("\\u{:04x}", c as u32) };
                    out.extend_from_slice(e.as_bytes());
                }
                (Spell::FullWidth, Some(f)) => out.extend_from_slice(f.to_string().as_bytes()),
                (Spell::FullWidthEscaped, Some(f)) => out.extend_from_slice(format!("\\u{:04x}", f as u32).as_bytes()),
                (Spell::Invisible(k, escaped), _) if i > 0 => {
                    let z = INVISIBLE[k];
                    let z = if escaped { format!("\\u{:04x}", z as u32) } else { z.to_string() };
                    out.extend_from_slice(z.as_bytes());
                    out.push(c as u8);
                }
                (Spell::DoubleEscaped, _) => out.extend_from_slice(format!("\\\\u{:04x}", c as u32).as_bytes()),
                _ => out.push(c as u8),
            }
        }
    }

    /// A JSON string literal with these raw contents.
    fn string(&self, contents: &[u8]) -> Vec<u8> {
        let q = if self.single_quotes() { b'\'' } else { b'"' };
        let mut out = vec![q];
        out.extend_from_slice(contents);
        out.push(q);
        out
    }

    fn body(&self) -> Vec<u8> {
        let seed = self.string(&self.seed_contents());
        let mut hole = match self.slot {
            Slot::Value => seed.clone(),
            Slot::Key => [&b"{"[..], &seed, b":1}"].concat(),
            Slot::InArray => [&b"[\"a\","[..], &seed, b",\"b\"]"].concat(),
            Slot::Duplicate => [&b"{\"content\":\"hi\",\"content\":"[..], &seed, b"}"].concat(),
        };
        for wrap in self.wraps.iter().rev() {
            hole = match *wrap {
                Wrap::Obj(k, sibling) => {
                    let key = format!("{{\"{}\":", KEYS[k]);
                    let sib: &[u8] = if sibling { b",\"other\":[true,null,-1.5e3]}" } else { b"}" };
                    [key.as_bytes(), &hole, sib].concat()
                }
                Wrap::Arr(at) => {
                    let mut items: Vec<Vec<u8>> = vec![b"0".to_vec(), b"\"x\"".to_vec()];
                    items.insert(at.min(items.len()), hole);
                    [&b"["[..], &items.join(&b","[..]), b"]"].concat()
                }
            };
        }
        if self.lenient.iter().any(|l| matches!(l, Lenient::Deep)) {
            hole = [b"[".repeat(1001), hole, b"]".repeat(1001)].concat();
        }
        let templates = templates(self.provider);
        let template = templates[self.template % templates.len()];
        let (before, after) = template.split_once("@@").unwrap_or((template, ""));
        let mut body = match self.top_key {
            // One more member first in the template's top-level object (the Generic
            // array template takes it as an element).
            Some(k) => {
                let (open, rest) = template.split_at(1);
                let member = if open == "{" { format!("\"{}\":", KEYS[k]) } else { String::new() };
                let rest = rest.replacen("@@", "\"hi\"", 1);
                [open.as_bytes(), member.as_bytes(), &hole, b",", rest.as_bytes()].concat()
            }
            None => [before.as_bytes(), &hole, after.as_bytes()].concat(),
        };
        if self.single_quotes() {
            // Every other string single-quoted too (none holds a quote of either kind).
            let seed_at = body.windows(seed.len()).position(|w| w == seed.as_slice());
            let (head, tail) = match seed_at {
                Some(at) => body.split_at(at),
                None => body.split_at(body.len()),
            };
            let swap = |part: &[u8]| part.iter().map(|&b| if b == b'"' { b'\'' } else { b }).collect::<Vec<u8>>();
            let tail_rest = tail.get(seed.len()..).unwrap_or_default();
            body = [swap(head), tail.get(..seed.len()).unwrap_or_default().to_vec(), swap(tail_rest)].concat();
        }
        // Members inserted right after the first `{` (or `[`).
        let open = body.iter().position(|&b| b == b'{' || b == b'[').map_or(0, |p| p + 1);
        let is_object = body.get(open - 1) == Some(&b'{');
        for change in &self.lenient {
            let insert: Option<Vec<u8>> = match *change {
                Lenient::NaN(which) => {
                    let lit = ["NaN", "Infinity", "-Infinity"][which % 3];
                    Some(if is_object { format!("\"t\":{lit},") } else { format!("{lit},") }.into_bytes())
                }
                Lenient::LineComment => Some(b"// note\n".to_vec()),
                Lenient::BlockComment => Some(b"/* note */".to_vec()),
                Lenient::UnquotedKey => Some(if is_object { b"unquoted:1,".to_vec() } else { b"1,".to_vec() }),
                Lenient::InvalidUtf8 => {
                    Some(if is_object { b"\"z\":\"\xff\xfe\",".to_vec() } else { b"\"\xff\",".to_vec() })
                }
                _ => None,
            };
            if let Some(insert) = insert {
                body.splice(open..open, insert);
            }
        }
        if self.lenient.iter().any(|l| matches!(l, Lenient::TrailingComma)) {
            if let Some(last) = body.iter().rposition(|&b| b == b'}' || b == b']') {
                body.insert(last, b',');
            }
        }
        for change in &self.lenient {
            if let Lenient::CommentFirst(line) = *change {
                let comment: &[u8] = if line { b"// note\n" } else { b"/* note */ " };
                body.splice(0..0, comment.iter().copied());
            }
        }
        if self.lenient.iter().any(|l| matches!(l, Lenient::Bom)) {
            body.splice(0..0, b"\xEF\xBB\xBF".iter().copied());
        }
        for change in &self.lenient {
            if let Lenient::GarbageAfter(again) = *change {
                body.extend_from_slice(b" }]garbage ");
                if again {
                    body.extend_from_slice(b"{\"after\":");
                    body.extend_from_slice(&seed);
                    body.push(b'}');
                }
            }
        }
        body
    }
}

/// 256 cases, or `PROPTEST_CASES` when set (for a longer hunt).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Every string a lenient reader decodes from what Veil forwards — under the
    /// default policy and under `limits.invalid_json: scan_text` — holds no seeded
    /// value, for bodies valid, lenient and broken.
    #[test]
    fn lenient_readers_never_read_a_seeded_value_veil_forwards(case in case()) {
        let body = case.body();
        prop_assert!(
            lenient::find(&body, case.seed).is_some(),
            "generator bug: the body does not hold the seed: {}", String::from_utf8_lossy(&body)
        );
        // The one shape not covered (see above, and README "Known limits").
        if case.glued_at_a_letter_and_split() {
            return Ok(());
        }
        let result = check(&[case.provider], &body, case.seed);
        prop_assert!(result.is_ok(), "{}\nbody: {}", result.err().unwrap_or_default(), String::from_utf8_lossy(&body));
    }
}
