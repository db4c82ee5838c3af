//! Tokens: `«token:CATEGORY:id»`, their derivation, and the per-request token map.
//!
//! An id is a keyed HMAC-SHA256 of (scope, category, value), truncated to
//! [`ID_HEX_LEN`] hex digits: the same value in the same scope always yields the
//! same token, so the model sees consistent placeholders. When two different values
//! would share an id within one map, the later one gets a longer id — never a
//! silent overwrite that would restore the wrong value.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Mutex;

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::generations::{Fingerprints, Generations};

/// Opening and closing marks (U+00AB, U+00BB) and the fixed prefix.
pub const OPEN: &str = "«";
pub const CLOSE: &str = "»";
pub const PREFIX: &str = "«token:";

/// Default id length in hex digits (32 bits).
pub const ID_HEX_LEN: usize = 8;
/// Longest id ever issued (collision fallback): the full 256-bit MAC.
pub const MAX_ID_HEX_LEN: usize = 64;
/// Longest category name a policy accepts.
pub const MAX_CATEGORY_LEN: usize = 32;
/// Upper bound on a token's length in bytes: what a stream restorer must hold back.
pub const MAX_TOKEN_LEN: usize = PREFIX.len() + MAX_CATEGORY_LEN + 1 + MAX_ID_HEX_LEN + CLOSE.len();

/// Derives token ids under a secret key.
pub struct TokenMinter {
    /// HMAC state with the key already absorbed (saves two SHA-256 blocks per token).
    keyed: Option<Hmac<Sha256>>,
    /// Hex digits of a new id (before any collision lengthening).
    id_len: usize,
    macs: MacMemo,
}

/// Most MACs a minter remembers (see [`MacMemo`]).
pub const MAC_MEMO_ENTRIES: usize = 4096;

/// The MACs a minter computed lately: a conversation sends its values again with
/// every turn, and a keyed hash of the input costs far less than the HMAC (two or
/// three SHA-256 blocks, about 5 µs in V8). Keyed by a 128-bit hash of (scope,
/// category, value) under keys random per minter, so inputs are never kept and two
/// different inputs share an entry with odds of one in 2^128 however they were
/// chosen; the scope is in the key, so one client cannot tell by timing whether
/// another sent a value. Bounded by [`MAC_MEMO_ENTRIES`] in two generations.
struct MacMemo {
    keys: Fingerprints,
    inner: Mutex<Generations<u128, [u8; 32]>>,
}

impl MacMemo {
    fn new() -> MacMemo {
        MacMemo {
            keys: Fingerprints::new(),
            inner: Mutex::new(Generations::new(MAC_MEMO_ENTRIES, MAC_MEMO_ENTRIES, |_| 1)),
        }
    }
}

/// A copy starts with no memory, under keys of its own.
impl Clone for TokenMinter {
    fn clone(&self) -> TokenMinter {
        TokenMinter { keyed: self.keyed.clone(), id_len: self.id_len, macs: MacMemo::new() }
    }
}

/// The id length (hex digits) that keeps the chance of *any* collision among
/// `entries` tokens of one scope below one in a million (birthday bound
/// n²/2^(4L+1) < 10⁻⁶): 14 digits for the vault's default 100 000 entries. Between
/// tokens that do collide, the vault check in [`TokenMap::issue_checked`] still
/// resolves it; this keeps the unresolvable case (an expired entry's old token
/// meeting a new value) negligible.
pub fn id_hex_len_for(entries: usize) -> usize {
    let n = entries.max(1) as f64;
    let bits = (n * n * 1e6).log2() - 1.0;
    ((bits / 4.0).ceil() as usize).clamp(ID_HEX_LEN, MAX_ID_HEX_LEN)
}

impl std::fmt::Debug for TokenMinter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenMinter { key: <sealed> }")
    }
}

impl TokenMinter {
    pub fn new(key: [u8; 32]) -> TokenMinter {
        TokenMinter {
            keyed: <Hmac<Sha256> as Mac>::new_from_slice(&key).ok(),
            id_len: ID_HEX_LEN,
            macs: MacMemo::new(),
        }
    }

    /// The same minter issuing ids of `len` hex digits (clamped to 8..=64).
    pub fn with_id_len(mut self, len: usize) -> TokenMinter {
        self.id_len = len.clamp(ID_HEX_LEN, MAX_ID_HEX_LEN);
        self
    }

    pub fn id_len(&self) -> usize {
        self.id_len
    }

    /// The full-length hex MAC of (scope, category, value); length-prefixed fields so
    /// that no two different triples share an input. From memory when this minter
    /// computed it lately.
    pub fn mac_hex(&self, scope: &[u8], category: &str, value: &[u8]) -> String {
        let key = self.macs.keys.of((scope, category, value));
        let remembered = self.macs.inner.lock().ok().and_then(|mut macs| macs.get(key).copied());
        let bytes = match remembered {
            Some(bytes) => bytes,
            None => {
                // HMAC accepts keys of any length, so `keyed` is always set.
                let Some(mut mac) = self.keyed.clone() else { return String::new() };
                for part in [scope, category.as_bytes(), value] {
                    mac.update(&(part.len() as u64).to_be_bytes());
                    mac.update(part);
                }
                let bytes: [u8; 32] = mac.finalize().into_bytes().into();
                if let Ok(mut macs) = self.macs.inner.lock() {
                    macs.insert(key, bytes);
                }
                bytes
            }
        };
        let mut out = Vec::with_capacity(64);
        for b in bytes {
            for nibble in [b >> 4, b & 0xf] {
                out.push(HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'));
            }
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Formats a token.
pub fn format_token(category: &str, id: &str) -> String {
    let mut token = String::with_capacity(PREFIX.len() + category.len() + 1 + id.len() + CLOSE.len());
    for part in [PREFIX, category, ":", id, CLOSE] {
        token.push_str(part);
    }
    token
}

/// Marks a token's value as a JSON number literal (`NUMBER_MARK` + the literal as the
/// request wrote it): the request carried the number, the vendor a token string in its
/// place, and where the token comes back as a JSON string on its own it is restored as
/// the number. No text value starts with it: a detector never matches a NUL.
pub const NUMBER_MARK: &[u8] = b"\0#";

/// The number literal a value stands for, if it is one ([`NUMBER_MARK`]).
pub fn number_literal(value: &[u8]) -> Option<&[u8]> {
    value.strip_prefix(NUMBER_MARK)
}

/// The tokens issued for one request: token text → original value.
#[derive(Debug, Default, Clone)]
pub struct TokenMap {
    by_token: HashMap<String, Vec<u8>>,
    /// `category NUL value` → token: a repeated value costs a lookup, not an HMAC.
    by_value: HashMap<Vec<u8>, String>,
    /// Scratch buffer for building `by_value` keys without allocating.
    key: Vec<u8>,
}

impl TokenMap {
    pub fn is_empty(&self) -> bool {
        self.by_token.is_empty()
    }

    pub fn len(&self) -> usize {
        self.by_token.len()
    }

    /// Returns the token for `value`, issuing it if new. Uses the shortest id length
    /// (8, 16, 32, 64 hex digits) that does not collide with a different value.
    pub fn issue(&mut self, minter: &TokenMinter, scope: &[u8], category: &str, value: &[u8]) -> String {
        self.issue_checked(minter, scope, category, value, &|_, _| false)
    }

    /// Like [`TokenMap::issue`], with `taken(token, value)` telling whether the token
    /// already stands for a different value elsewhere (the vault): a collision too,
    /// resolved by a longer id.
    pub fn issue_checked(
        &mut self,
        minter: &TokenMinter,
        scope: &[u8],
        category: &str,
        value: &[u8],
        taken: &dyn Fn(&str, &[u8]) -> bool,
    ) -> String {
        self.key.clear();
        self.key.extend_from_slice(category.as_bytes());
        self.key.push(0);
        self.key.extend_from_slice(value);
        if let Some(token) = self.by_value.get(self.key.as_slice()) {
            return token.clone();
        }
        let token = self.new_token(&minter.mac_hex(scope, category, value), minter.id_len, category, value, taken);
        self.by_value.insert(self.key.clone(), token.clone());
        token
    }

    /// The shortest free token for `value` from its MAC, starting at `len` digits.
    fn new_token(
        &mut self,
        mac: &str,
        mut len: usize,
        category: &str,
        value: &[u8],
        taken: &dyn Fn(&str, &[u8]) -> bool,
    ) -> String {
        loop {
            let id = mac.get(..len).unwrap_or(mac);
            let token = format_token(category, id);
            match self.by_token.get(&token) {
                Some(current) if current.as_slice() == value => return token,
                Some(_) => {} // a different value of this request has this id
                None => {
                    let free_elsewhere = !taken(&token, value);
                    if free_elsewhere || len >= MAX_ID_HEX_LEN {
                        self.by_token.insert(token.clone(), value.to_vec());
                        return token;
                    }
                }
            }
            if len >= MAX_ID_HEX_LEN {
                // A full 256-bit MAC collision: cannot happen; keep the first value.
                return token;
            }
            len = (len * 2).min(MAX_ID_HEX_LEN);
        }
    }

    /// Forgets every token whose category `keep` rejects: such a token stays in the
    /// text it replaced but can no longer be restored.
    pub fn retain_categories(&mut self, keep: impl Fn(&str) -> bool) {
        self.by_value.retain(|key, _| {
            let category = key.split(|&b| b == 0).next().unwrap_or_default();
            std::str::from_utf8(category).is_ok_and(&keep)
        });
        self.by_token.retain(|token, _| {
            let category = token.strip_prefix(PREFIX).and_then(|t| t.split(':').next());
            category.is_some_and(&keep)
        });
    }

    pub fn get(&self, token: &str) -> Option<&[u8]> {
        self.by_token.get(token).map(Vec::as_slice)
    }

    /// Every (token, value) issued.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.by_token.iter().map(|(t, v)| (t.as_str(), v.as_slice()))
    }
}

/// Where a restorer finds the value a token stands for.
pub trait Lookup {
    /// The value of a canonical token, if it may be restored here.
    fn lookup(&self, token: &str) -> Option<Cow<'_, [u8]>>;
}

impl Lookup for TokenMap {
    fn lookup(&self, token: &str) -> Option<Cow<'_, [u8]>> {
        self.get(token).map(Cow::Borrowed)
    }
}

/// A token found in text: its byte span and parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenSpan<'a> {
    pub start: usize,
    pub end: usize,
    pub category: &'a str,
    pub id: &'a str,
}

/// Opening and closing marks as they appear inside a JSON string that is itself JSON
/// (tool-call arguments written with `ensure_ascii`): `\u00ab` … `\u00bb`.
const ESCAPED_OPEN: &[u8] = b"\\u00ab";
const ESCAPED_CLOSE: &[u8] = b"\\u00bb";
const MARK: &[u8] = b"token:";

/// Finds every token in `text` (any bytes), left to right, tolerant of how a model
/// may have reproduced it: marks raw, `\u00ab`-escaped (any hex case) or missing,
/// the word `token` and the category in any case, the id in any hex case. A span is
/// only a candidate: callers restore it only if its canonical form was issued, so a
/// look-alike in ordinary text is never touched.
pub fn find_tokens(text: &[u8]) -> Vec<TokenSpan<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(rel) = text.get(from..).and_then(|t| memchr::memchr2(b't', b'T', t)) {
        let mark = from + rel;
        match parse_at(text, mark) {
            Some(span) => {
                from = span.end;
                out.push(span);
            }
            None => from = mark + 1,
        }
    }
    out
}

fn starts_with_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.get(..needle.len()).is_some_and(|h| h.eq_ignore_ascii_case(needle))
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Parses a token whose `token:` mark starts at `mark`.
fn parse_at(text: &[u8], mark: usize) -> Option<TokenSpan<'_>> {
    if !starts_with_ci(text.get(mark..)?, MARK) {
        return None;
    }
    let before = text.get(..mark)?;
    let start = if before.ends_with(OPEN.as_bytes()) {
        mark - OPEN.len()
    } else if before.len() >= ESCAPED_OPEN.len()
        && starts_with_ci(before.get(mark - ESCAPED_OPEN.len()..)?, ESCAPED_OPEN)
    {
        mark - ESCAPED_OPEN.len()
    } else if before.last().is_some_and(|&b| is_word(b)) {
        return None;
    } else {
        mark
    };
    let rest = text.get(mark + MARK.len()..)?;
    let cat_len = rest.iter().take(MAX_CATEGORY_LEN + 1).take_while(|&&b| is_word(b)).count();
    if cat_len == 0 || cat_len > MAX_CATEGORY_LEN || rest.get(cat_len) != Some(&b':') {
        return None;
    }
    let after = rest.get(cat_len + 1..)?;
    let id_len = after.iter().take(MAX_ID_HEX_LEN + 1).take_while(|b| b.is_ascii_hexdigit()).count();
    if !(ID_HEX_LEN..=MAX_ID_HEX_LEN).contains(&id_len) {
        return None;
    }
    let tail = after.get(id_len..)?;
    let close_len = if tail.starts_with(CLOSE.as_bytes()) {
        CLOSE.len()
    } else if starts_with_ci(tail, ESCAPED_CLOSE) {
        ESCAPED_CLOSE.len()
    } else if tail.first().is_some_and(|&b| is_word(b)) {
        return None;
    } else {
        0
    };
    let end = mark + MARK.len() + cat_len + 1 + id_len + close_len;
    Some(TokenSpan {
        start,
        end,
        category: std::str::from_utf8(rest.get(..cat_len)?).ok()?,
        id: std::str::from_utf8(after.get(..id_len)?).ok()?,
    })
}

impl TokenSpan<'_> {
    /// The token in its canonical form, as issued: category upper case, id lower case.
    pub fn canonical(&self) -> String {
        format_token(&self.category.to_ascii_uppercase(), &self.id.to_ascii_lowercase())
    }
}

/// Where a trailing possible token prefix starts in `text`, if there is one: the
/// bytes from there on may become a token once the next piece of the stream
/// arrives, so a streaming restorer holds them back. At most [`MAX_HOLDBACK`] bytes.
pub fn holdback_start(text: &[u8]) -> Option<usize> {
    let from = text.len().saturating_sub(MAX_HOLDBACK);
    (from..text.len()).find(|&p| {
        let Some(&b) = text.get(p) else { return false };
        // A bare `token:` (marks dropped) is only held from "tok" on: holding every
        // trailing "t" or "to" would reshuffle ordinary English text for nothing.
        let bare = (b == b't' || b == b'T')
            && text.len() - p >= 3
            && (p == 0 || !text.get(p - 1).is_some_and(|&c| is_word(c)));
        let candidate = b == 0xc2 || b == b'\\' || bare;
        candidate && is_token_prefix(text.get(p..).unwrap_or_default())
    })
}

/// Longest text a restorer ever holds back: a whole token with escaped marks.
pub const MAX_HOLDBACK: usize = MAX_TOKEN_LEN + 2 * ESCAPED_OPEN.len();

/// Is `s` a proper prefix of some token (so more text could complete it)? A complete
/// token with its closing mark is not; one without a closing mark still is.
fn is_token_prefix(s: &[u8]) -> bool {
    let mut rest = s;
    // Opening mark: raw, escaped, or none.
    if let Some(r) = rest.strip_prefix(OPEN.as_bytes()) {
        rest = r;
    } else if rest.first() == Some(&0xc2) && rest.len() == 1 {
        return true;
    } else if rest.first() == Some(&b'\\') {
        if rest.len() < ESCAPED_OPEN.len() {
            return starts_with_ci(ESCAPED_OPEN, rest);
        }
        if !starts_with_ci(rest, ESCAPED_OPEN) {
            return false;
        }
        rest = rest.get(ESCAPED_OPEN.len()..).unwrap_or_default();
    }
    if rest.len() < MARK.len() {
        return starts_with_ci(MARK, rest);
    }
    if !starts_with_ci(rest, MARK) {
        return false;
    }
    rest = rest.get(MARK.len()..).unwrap_or_default();
    let cat = rest.iter().take_while(|&&b| is_word(b)).count();
    if cat > MAX_CATEGORY_LEN {
        return false;
    }
    rest = rest.get(cat..).unwrap_or_default();
    if rest.is_empty() {
        return true;
    }
    if cat == 0 || rest.first() != Some(&b':') {
        return false;
    }
    rest = rest.get(1..).unwrap_or_default();
    let id = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if id > MAX_ID_HEX_LEN {
        return false;
    }
    rest = rest.get(id..).unwrap_or_default();
    if rest.is_empty() {
        return true;
    }
    // Only a partial closing mark can follow; a complete one ends the token.
    (rest == [0xc2])
        || (rest.first() == Some(&b'\\') && rest.len() < ESCAPED_CLOSE.len() && starts_with_ci(ESCAPED_CLOSE, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minter() -> TokenMinter {
        TokenMinter::new([7u8; 32])
    }

    #[test]
    fn ids_are_deterministic_and_scoped() {
        let m = minter();
        let a = m.mac_hex(b"s1", "EMAIL", b"jane@example.com");
        assert_eq!(a, m.mac_hex(b"s1", "EMAIL", b"jane@example.com"));
        assert_ne!(a, m.mac_hex(b"s2", "EMAIL", b"jane@example.com"));
        assert_ne!(a, m.mac_hex(b"s1", "PHONE", b"jane@example.com"));
        assert_ne!(a, TokenMinter::new([8u8; 32]).mac_hex(b"s1", "EMAIL", b"jane@example.com"));
        // Field boundaries matter: ("ab","C") vs ("a","bC").
        assert_ne!(m.mac_hex(b"ab", "C", b""), m.mac_hex(b"a", "bC", b""));
    }

    #[test]
    fn a_remembered_mac_is_the_mac() {
        let m = minter();
        let values: Vec<String> = (0..MAC_MEMO_ENTRIES + 50).map(|i| format!("user{i}@example.com")).collect();
        let first: Vec<String> = values.iter().map(|v| m.mac_hex(b"s", "EMAIL", v.as_bytes())).collect();
        // A copy starts with no memory, so it computes every MAC afresh.
        let fresh = m.clone();
        for (v, mac) in values.iter().zip(&first).rev() {
            assert_eq!(&m.mac_hex(b"s", "EMAIL", v.as_bytes()), mac);
            assert_eq!(&fresh.mac_hex(b"s", "EMAIL", v.as_bytes()), mac);
        }
        assert!(m.macs.inner.lock().unwrap().len() <= MAC_MEMO_ENTRIES);
        // Neighbouring inputs are not confused with remembered ones.
        assert_ne!(m.mac_hex(b"s", "EMAIL", b"user1@example.co"), first[1]);
        assert_ne!(m.mac_hex(b"s", "EMAI", b"Luser1@example.com"), first[1]);
        assert_ne!(m.mac_hex(b"t", "EMAIL", b"user1@example.com"), first[1]);
    }

    #[test]
    fn issue_reuses_and_formats() {
        let mut map = TokenMap::default();
        let t1 = map.issue(&minter(), b"s", "EMAIL", b"jane@example.com");
        let t2 = map.issue(&minter(), b"s", "EMAIL", b"jane@example.com");
        assert_eq!(t1, t2);
        assert_eq!(map.len(), 1);
        assert!(t1.starts_with("«token:EMAIL:") && t1.ends_with('»'));
        assert_eq!(t1.chars().count(), "«token:EMAIL:".chars().count() + ID_HEX_LEN + 1);
        assert_eq!(map.get(&t1), Some(&b"jane@example.com"[..]));
    }

    #[test]
    fn collision_gets_a_longer_id_not_an_overwrite() {
        let m = minter();
        let mut map = TokenMap::default();
        let real = map.issue(&m, b"s", "EMAIL", b"jane@example.com");
        // Plant a different value under the id the next value would get.
        let planted_mac = m.mac_hex(b"s", "EMAIL", b"joe@example.com");
        let short = format_token("EMAIL", &planted_mac[..ID_HEX_LEN]);
        map.by_token.insert(short.clone(), b"someone-else".to_vec());
        let issued = map.issue(&m, b"s", "EMAIL", b"joe@example.com");
        assert_ne!(issued, short);
        assert!(issued.contains(&planted_mac[..ID_HEX_LEN * 2]));
        assert_eq!(map.get(&issued), Some(&b"joe@example.com"[..]));
        assert_eq!(map.get(&short), Some(&b"someone-else"[..]));
        assert_eq!(map.get(&real), Some(&b"jane@example.com"[..]));
    }

    #[test]
    fn a_collision_with_the_vault_gets_a_longer_id() {
        let m = minter();
        let short = format_token("EMAIL", &m.mac_hex(b"s", "EMAIL", b"jane@example.com")[..ID_HEX_LEN]);
        let mut map = TokenMap::default();
        let vault = |t: &str, v: &[u8]| t == short && v != b"someone-else";
        let issued = map.issue_checked(&m, b"s", "EMAIL", b"jane@example.com", &vault);
        assert_ne!(issued, short);
        assert_eq!(issued.len(), short.len() + ID_HEX_LEN);
        // The same value already in the vault is no collision.
        let same = |t: &str, v: &[u8]| t == short && v != b"jane@example.com";
        assert_eq!(TokenMap::default().issue_checked(&m, b"s", "EMAIL", b"jane@example.com", &same), short);
    }

    #[test]
    fn finds_tokens_and_skips_malformed() {
        let text = "a «token:EMAIL:3f9a1c0d» b «token:SSN:3f9a» «token:SSN:0123456789abcdef» «token:EMAIL»";
        let found = find_tokens(text.as_bytes());
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].category, found[0].id), ("EMAIL", "3f9a1c0d"));
        assert_eq!(&text[found[0].start..found[0].end], "«token:EMAIL:3f9a1c0d»");
        assert_eq!(found[1].id, "0123456789abcdef");
    }

    #[test]
    fn finds_tokens_with_escaped_marks() {
        let text = r#"{"to":"\u00abtoken:EMAIL:3f9a1c0d\u00BB"} \u00abtoken:EMAIL:3f9a1c0d»"#.as_bytes();
        let found = find_tokens(text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].canonical(), "«token:EMAIL:3f9a1c0d»");
        assert_eq!(&text[found[0].start..found[0].end], br"\u00abtoken:EMAIL:3f9a1c0d\u00BB");
        assert_eq!(&text[found[1].start..found[1].end], r"\u00abtoken:EMAIL:3f9a1c0d»".as_bytes());
    }

    #[test]
    fn tolerant_forms_are_candidates() {
        let text = "a token:email:3F9A1C0D, «TOKEN:Email:3f9a1c0d b «token:EMAIL:3f9a1c0d» c mytoken:EMAIL:3f9a1c0d d token:EMAIL:3f9a1c0dzz";
        let found: Vec<String> = find_tokens(text.as_bytes()).iter().map(|t| t.canonical()).collect();
        assert_eq!(found, vec!["«token:EMAIL:3f9a1c0d»"; 3]);
    }

    #[test]
    fn holdback_covers_every_proper_prefix() {
        let token = "«token:EMAIL:3f9a1c0d»";
        for cut in 1..token.len() {
            if !token.is_char_boundary(cut) {
                continue;
            }
            let text = format!("hello {}", &token[..cut]);
            assert_eq!(holdback_start(text.as_bytes()), Some(6), "{:?}", &token[..cut]);
        }
        let escaped = r"\u00abtoken:EMAIL:3f9a1c0d\u00bb";
        for cut in 1..escaped.len() {
            let text = format!("x {}", &escaped[..cut]);
            assert_eq!(holdback_start(text.as_bytes()), Some(2), "{:?}", &escaped[..cut]);
        }
        for text in ["hello", "a whole «token:EMAIL:3f9a1c0d» done", "not «toke n", "I want", "«token:EMAIL:xyz"] {
            assert_eq!(holdback_start(text.as_bytes()), None, "{text}");
        }
        assert_eq!(holdback_start(&[b'a', 0xc2]), Some(1));
        assert_eq!(holdback_start(b"going to"), None);
        assert_eq!(holdback_start(b"going tok"), Some(6));
        assert_eq!(holdback_start(b"see token:EMAIL:3f9a"), Some(4));
    }

    #[test]
    fn id_length_grows_with_the_vault() {
        assert_eq!(id_hex_len_for(1), ID_HEX_LEN);
        assert_eq!(id_hex_len_for(1000), 10);
        assert_eq!(id_hex_len_for(100_000), 14);
        assert_eq!(id_hex_len_for(10_000_000), 17);
        let mut map = TokenMap::default();
        let t = map.issue(&minter().with_id_len(14), b"s", "EMAIL", b"a@example.com");
        assert_eq!(t.len(), format_token("EMAIL", "").len() + 14);
        assert_eq!(find_tokens(t.as_bytes())[0].canonical(), t);
    }

    #[test]
    fn documented_bounds() {
        // README and ARCHITECTURE.md quote these.
        assert_eq!(MAX_TOKEN_LEN, 107);
        assert_eq!(MAX_HOLDBACK, 119);
    }

    #[test]
    fn max_token_len_bounds_every_token() {
        let t = format_token(&"C".repeat(MAX_CATEGORY_LEN), &"a".repeat(MAX_ID_HEX_LEN));
        assert_eq!(t.len(), MAX_TOKEN_LEN);
        assert_eq!(find_tokens(t.as_bytes()).len(), 1);
    }
}
