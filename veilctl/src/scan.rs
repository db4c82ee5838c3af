//! `veilctl scan`: what the policy's detectors find in files, as JSON, as text lines
//! (`path:line:column`) or as a SARIF 2.1.0 log for code-scanning tools, with an exit
//! status for CI (`--fail-on SEVERITY`). Never the matched text.
//!
//! Positions are computed in one pass over each text for all findings at once
//! ([`Locator`]): the byte offsets of every finding's start and end, sorted, are met in
//! order while the text's characters are counted, so a file with tens of thousands of
//! findings costs one walk, not one per finding.

use serde_json::{json, Map, Value};
use veil_core::policy::{Action, CompiledPolicy};
use veil_detect::category::{self, Severity};
use veil_detect::Source;

/// Where a byte offset is, as editors and code-scanning tools count: UTF-16 code units
/// from the start (what JavaScript and the detection API index by), and a 1-based line
/// and a 1-based column in UTF-16 code units (SARIF's default `columnKind`). Invalid
/// UTF-8 counts one U+FFFD per invalid sequence, as `String::from_utf8_lossy` reads it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Position {
    pub utf16: usize,
    pub line: usize,
    pub column: usize,
}

/// The positions of a text's byte offsets, found in one pass.
pub struct Locator {
    offsets: Vec<usize>,
    positions: Vec<Position>,
}

impl Locator {
    /// The positions of every offset in `wanted` (any order, repeats allowed) in `text`.
    /// An offset inside a character is placed at that character's start.
    pub fn new(text: &[u8], wanted: impl IntoIterator<Item = usize>) -> Locator {
        let mut offsets: Vec<usize> = wanted.into_iter().collect();
        offsets.sort_unstable();
        offsets.dedup();
        let mut positions = Vec::with_capacity(offsets.len());
        let mut next = offsets.iter().copied().peekable();
        let (mut byte, mut utf16, mut line, mut column) = (0usize, 0usize, 1usize, 1usize);
        // Each unit: its byte length, its UTF-16 length, whether it ends a line; the
        // offsets inside it or at its start are placed where it begins.
        let mut step = |len: usize, units: usize, newline: bool| {
            while next.next_if(|&at| at < byte + len).is_some() {
                positions.push(Position { utf16, line, column });
            }
            byte += len;
            utf16 += units;
            if newline {
                line += 1;
                column = 1;
            } else {
                column += units;
            }
        };
        for chunk in text.utf8_chunks() {
            for c in chunk.valid().chars() {
                step(c.len_utf8(), c.len_utf16(), c == '\n');
            }
            if !chunk.invalid().is_empty() {
                step(chunk.invalid().len(), 1, false);
            }
        }
        // Offsets at or past the end.
        positions.extend(next.map(|_| Position { utf16, line, column }));
        Locator { offsets, positions }
    }

    /// The position of `offset`, one of those the locator was made for.
    pub fn at(&self, offset: usize) -> Position {
        match self.offsets.binary_search(&offset) {
            Ok(i) => self.positions.get(i).copied().unwrap_or_default(),
            Err(_) => Position::default(),
        }
    }
}

/// One finding as reported: its rule, category, position and what the policy does.
pub struct Entity {
    pub category: String,
    pub rule_id: String,
    pub severity: Severity,
    pub source: Source,
    pub confidence: f64,
    pub action: Action,
    pub byte_start: usize,
    pub byte_end: usize,
    pub start: Position,
    pub end: Position,
}

/// What the policy's detectors find in `text`: every finding but those of categories the
/// policy allows (its top-level action `allow`, which the gateway leaves in place).
pub fn entities(policy: &CompiledPolicy, text: &[u8]) -> Vec<Entity> {
    let engine = policy.engine();
    let findings = engine.scan(text);
    let locator = Locator::new(text, findings.iter().flat_map(|f| [f.start, f.end]));
    findings
        .iter()
        .filter_map(|f| {
            let rule = engine.rule(f.rule)?;
            let action = policy.action(&rule.category);
            (action != Action::Allow).then(|| Entity {
                category: rule.category.clone(),
                rule_id: rule.id.clone(),
                severity: rule.severity,
                source: rule.source,
                // Rounded to two decimals before the stats, so that they agree with the
                // entities.
                confidence: (f64::from(f.confidence) * 100.0).round() / 100.0,
                action,
                byte_start: f.start,
                byte_end: f.end,
                start: locator.at(f.start),
                end: locator.at(f.end),
            })
        })
        .collect()
}

fn action_name(action: Action) -> String {
    serde_json::to_value(action).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// One detection result in the shape of the detection API (never the matched text).
pub fn json_result(text: &[u8], entities: &[Entity]) -> Value {
    let utf8_valid = std::str::from_utf8(text).is_ok();
    let mut by_type = Map::new();
    let mut severities = [0u32; 3];
    let (mut min, mut max, mut sum) = (1.0f64, 0.0f64, 0.0f64);
    let mut validated = 0;
    let mut list = Vec::with_capacity(entities.len());
    for e in entities {
        min = min.min(e.confidence);
        max = max.max(e.confidence);
        sum += e.confidence;
        if let Some(count) = severities.get_mut(e.severity as usize) {
            *count += 1;
        }
        validated += usize::from(e.source == Source::Validated);
        let count = by_type.entry(e.category.clone()).or_insert(json!(0));
        *count = json!(count.as_u64().unwrap_or(0) + 1);
        list.push(json!({
            "type": e.category,
            "label": category::label(&e.category),
            "start": e.start.utf16,
            "end": e.end.utf16,
            "byte_start": e.byte_start,
            "byte_end": e.byte_end,
            "line": e.start.line,
            "column": e.start.column,
            "confidence": e.confidence,
            "severity": e.severity.name(),
            "source": e.source.name(),
            "rule_id": e.rule_id,
            "action": action_name(e.action),
        }));
    }
    let n = list.len();
    let avg = if n == 0 { 1.0 } else { sum / n as f64 };
    let binary =
        text.iter().filter(|&&b| b < 0x09 || (0x0e..0x20).contains(&b)).count() as f64 / text.len().max(1) as f64;
    let score = avg * if utf8_valid { 1.0 } else { 0.8 } * (1.0 - binary.min(1.0) * 0.5);
    let round3 = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "entities": list,
        "stats": {
            "total": n,
            "by_type": by_type,
            "confidence": if n == 0 { json!(null) } else { json!({"min": min, "max": max, "avg": round3(avg)}) },
            "severity": {"LOW": severities[0], "MEDIUM": severities[1], "HIGH": severities[2]},
        },
        "reliability": {
            "score": round3(score),
            "signals": {
                "utf8_valid": utf8_valid,
                "binary_ratio": round3(binary),
                "avg_confidence": round3(avg),
                "validated_share": if n == 0 { json!(null) } else { json!(round3(validated as f64 / n as f64)) },
                "bytes": text.len(),
                "utf16_units": String::from_utf8_lossy(text).encode_utf16().count(),
            }
        }
    })
}

/// One line per finding: `path:line:column: SEVERITY CATEGORY (label) rule confidence
/// action`, as compilers print diagnostics (columns in UTF-16 code units).
pub fn text_lines(path: &str, entities: &[Entity]) -> String {
    let mut out = String::new();
    for e in entities {
        out.push_str(&format!(
            "{path}:{}:{}: {} {} ({}) {} {:.2} {}\n",
            e.start.line,
            e.start.column,
            e.severity.name(),
            e.category,
            category::label(&e.category),
            e.rule_id,
            e.confidence,
            action_name(e.action),
        ));
    }
    out
}

/// SARIF's level for a severity: what code-scanning tools show as error, warning, note.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low => "note",
    }
}

/// A SARIF 2.1.0 log of one run over `files` (path, entities): one reporting
/// descriptor per rule that found something, one result per finding with its region
/// (lines and UTF-16 columns, byte offset and length). No snippet: SARIF viewers show
/// the file's own text at the region.
pub fn sarif(files: &[(String, Vec<Entity>)]) -> Value {
    let mut rules: Vec<(String, String, Severity)> = Vec::new();
    for (_, entities) in files {
        for e in entities {
            if !rules.iter().any(|(id, _, _)| *id == e.rule_id) {
                rules.push((e.rule_id.clone(), e.category.clone(), e.severity));
            }
        }
    }
    rules.sort();
    let descriptors: Vec<Value> = rules
        .iter()
        .map(|(id, cat, severity)| {
            json!({
                "id": id,
                "shortDescription": {"text": format!("{} ({cat})", category::label(cat))},
                "defaultConfiguration": {"level": level(*severity)},
                "properties": {"category": cat, "severity": severity.name()},
            })
        })
        .collect();
    let mut results = Vec::new();
    for (path, entities) in files {
        for e in entities {
            let index = rules.iter().position(|(id, _, _)| *id == e.rule_id).unwrap_or_default();
            results.push(json!({
                "ruleId": e.rule_id,
                "ruleIndex": index,
                "level": level(e.severity),
                "message": {"text": format!("{} found ({}); the gateway would {} it.", category::label(&e.category), e.category, action_name(e.action))},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": path},
                        "region": {
                            "startLine": e.start.line,
                            "startColumn": e.start.column,
                            "endLine": e.end.line,
                            "endColumn": e.end.column,
                            "byteOffset": e.byte_start,
                            "byteLength": e.byte_end - e.byte_start,
                        }
                    }
                }],
                "properties": {"category": e.category, "confidence": e.confidence, "action": action_name(e.action)},
            }));
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "veilctl",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/veil-gateway/veil",
                "rules": descriptors,
            }},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions in one pass agree with counting from the start for each offset.
    #[test]
    fn positions_agree_with_counting_each_offset_from_the_start() {
        let text = "ab\né😀 x\r\nyz\n\nend".as_bytes();
        let offsets: Vec<usize> =
            (0..=text.len()).filter(|&i| std::str::from_utf8(text).unwrap().is_char_boundary(i)).collect();
        let locator = Locator::new(text, offsets.iter().rev().copied());
        for &at in &offsets {
            let before = std::str::from_utf8(&text[..at]).unwrap();
            let line = before.matches('\n').count() + 1;
            let last = before.rsplit('\n').next().unwrap_or_default();
            let want = Position { utf16: before.encode_utf16().count(), line, column: last.encode_utf16().count() + 1 };
            assert_eq!(locator.at(at), want, "{at}");
        }
        // Invalid UTF-8: one unit per invalid sequence, as the lossy reading.
        let bad = b"a\xff\xfeb";
        assert_eq!(Locator::new(bad, [3]).at(3).utf16, String::from_utf8_lossy(&bad[..3]).encode_utf16().count());
    }
}
