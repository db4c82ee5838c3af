//! Byte-range edits applied to a body in one pass.

/// Replace `body[start..end]` with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub replacement: Vec<u8>,
}

/// Applies non-overlapping edits (in any order) to `body`. Edits that overlap an
/// earlier one or fall outside the body are skipped; callers produce neither.
pub fn splice(body: &[u8], mut edits: Vec<Edit>) -> Vec<u8> {
    edits.sort_by_key(|e| (e.start, e.end));
    let extra: usize = edits.iter().map(|e| e.replacement.len()).sum();
    let mut out = Vec::with_capacity(body.len() + extra);
    let mut at = 0;
    for edit in edits {
        if edit.start < at || edit.end < edit.start || edit.end > body.len() {
            continue;
        }
        out.extend_from_slice(body.get(at..edit.start).unwrap_or_default());
        out.extend_from_slice(&edit.replacement);
        at = edit.end;
    }
    out.extend_from_slice(body.get(at..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(start: usize, end: usize, r: &str) -> Edit {
        Edit { start, end, replacement: r.as_bytes().to_vec() }
    }

    #[test]
    fn applies_in_order_and_skips_bad_edits() {
        let out = splice(b"hello world", vec![e(6, 11, "there"), e(0, 1, "J"), e(7, 9, "x"), e(20, 30, "y")]);
        assert_eq!(out, b"Jello there");
        assert_eq!(splice(b"abc", vec![]), b"abc");
        assert_eq!(splice(b"abc", vec![e(3, 3, "d")]), b"abcd");
    }
}
