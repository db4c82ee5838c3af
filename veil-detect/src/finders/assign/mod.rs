//! Secrets assigned to names, in every syntax that code and configuration write them.
//!
//! One hand-written reader finds `name OP value` on one line, whatever the language:
//! `KEY=v`, `key: v`, `"key": "v"`, `key = "v"`, `String apiKey = "v"`, `key := "v"`,
//! `KEY ?= v`, `KEY ::= v`, `'key' => 'v'`, `$env:KEY = "v"`, `export KEY=v`,
//! `set KEY=v`, `-e KEY=v`, `--password=v`, `os.environ["KEY"] = "v"`,
//! `System.setProperty("KEY", "v")`, `<password>v</password>`, `password="v"` (an XML
//! attribute), `<add key="ApiKey" value="v"/>` and a Kubernetes `- name: KEY` /
//! `value: v` pair. The name decides: a password-like name makes a `PASSWORD`, a
//! secret-like one (`token`, `secret`, `apiKey`, `client_secret`, `AUTH`, a key with a
//! qualifier) a `SECRET`; names are split at `_ - . :` and at camelCase humps, so
//! `dbPassword`, `DB_PASSWORD`, `db.password` and `DbPassword` read the same.
//!
//! The value stays on its line: a quoted value ends at its closing quote, a bare one at
//! white space or punctuation; a name with nothing after it never takes the next line.
//! References and placeholders are not secrets: `${X}`, `$X`, `%X%`, `{{ x }}`,
//! `<your-key>`, `var.x`, `os.environ[...]`, `process.env.X`, function calls, `xxxx`,
//! `changeme`, `***`, values that say `example` or `your`.

use crate::engine::wordset::WordMap;

/// What a name says its value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameClass {
    Password,
    Secret,
}

const MAX_NAME: usize = 64;
const MAX_VALUE: usize = 512;

fn is_name_byte(b: u8) -> bool {
    NAME_BYTES.get(usize::from(b)).copied().unwrap_or(false)
}

/// [`is_name_byte`] by byte: one load where the reader walks back over a name.
// Evaluated by the compiler: an index out of range fails the build, not a request.
#[allow(clippy::indexing_slicing)]
const NAME_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.');
        b += 1;
    }
    t
};

/// The leftmost value at or after `from` assigned to a name of `class`: `(start, end)`.
pub fn find(hay: &[u8], from: usize, class: NameClass) -> Option<(usize, usize)> {
    // An operator up to a few bytes before `from` can still start a value at `from`.
    let mut at = from.saturating_sub(12);
    let mut names = Names::default();
    while let Some(op) = next_operator(hay, at) {
        at = op + 1;
        if let Some((c, s, e)) = assignment(hay, op, &mut names) {
            if c == class && s >= from {
                return Some((s, e));
            }
        }
    }
    None
}

/// The next operator at or after `at`: `=`, `:` and `>` by `memchr3`, and a `,` only
/// after a closing quote (the one place a comma assigns).
fn next_operator(hay: &[u8], at: usize) -> Option<usize> {
    let rest = hay.get(at..)?;
    let main = memchr::memchr3(b'=', b':', b'>', rest);
    // Commas are looked for only before the next other operator: each byte is read
    // once over the whole text (a search to the end at every `:` would be quadratic).
    let upto = main.unwrap_or(rest.len());
    let mut from = 0;
    let comma = loop {
        let Some(c) = rest.get(from..upto).and_then(|r| memchr::memchr(b',', r)).map(|c| from + c) else { break None };
        if c > 0 && matches!(rest.get(c - 1), Some(b'"' | b'\'')) {
            break Some(c);
        }
        from = c + 1;
    };
    match (main, comma) {
        (Some(m), Some(c)) => Some(at + m.min(c)),
        (m, c) => m.or(c).map(|p| at + p),
    }
}

/// Windows around every value assigned to a password-like or secret-like name: from
/// its operator to two bytes past its end (a closing quote, `</`). Both assignment
/// rules are gated by them: the engine finds them once per scan, and each rule reads
/// only there, so the text's operators are parsed once, not once per rule.
pub fn windows(t: &crate::engine::text::Text<'_>) -> Vec<(usize, usize)> {
    let hay = t.bytes();
    let mut windows = Vec::new();
    // The operators `next_operator` finds one after the other, from the block mask of
    // their bytes: a `,` only after a closing quote.
    let quote_before = |op: usize| op > 0 && matches!(hay.get(op - 1), Some(b'"' | b'\''));
    let mut names = Names::default();
    for op in t.operators().filter(|&op| hay.get(op) != Some(&b',') || quote_before(op)) {
        if let Some((_, _, end)) = assignment(hay, op, &mut names) {
            crate::rule::push_window(&mut windows, op, (end + 2).min(hay.len()));
        }
    }
    windows
}

/// [`windows`] as a rule's window finder; it finds nothing without an operator byte (`=
/// : > ,`).
pub const WINDOWS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: windows, needs: crate::engine::text::Needs::OPERATOR };

/// The password-like names' values.
pub fn find_password(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    find(hay, from, NameClass::Password)
}

/// The secret-like names' values.
pub fn find_secret(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    find(hay, from, NameClass::Secret)
}

/// Where the last call of [`find_kubernetes_secret`] in this thread stopped: the text
/// (by address and length), the end of the value it returned, the line after it and
/// the block it was in. [`Rule::search`](crate::engine::compiled::Rule) asks again from that end, for
/// the next value: it goes on from there instead of reading the manifest from its
/// first line again (a Secret of thousands of keys was read thousands of times:
/// quadratic). Forgotten at the start of every search ([`forget_resume`]), so a text
/// that later lies at the same address is never read as its predecessor.
#[derive(Clone, Copy)]
struct Resume {
    hay: usize,
    len: usize,
    from: usize,
    line: usize,
    block: Option<usize>,
}

thread_local! {
    static RESUME: std::cell::Cell<Option<Resume>> = const { std::cell::Cell::new(None) };
}

/// Forgets where [`find_kubernetes_secret`] stopped (see [`Resume`]).
pub(crate) fn forget_resume() {
    RESUME.with(|r| r.set(None));
}

/// The leftmost value at or after `from` under `data:` or `stringData:` in a text that
/// declares `kind: Secret` (a Kubernetes Secret manifest): every key's value, whatever
/// the key is called. A value is one line; block scalars (`|`, `>`) are not read.
pub fn find_kubernetes_secret(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    let address = hay.as_ptr() as usize;
    let resume = RESUME
        .with(std::cell::Cell::take)
        .filter(|r| r.hay == address && r.len == hay.len() && r.from == from && r.line <= hay.len());
    let (mut at, mut block) = match resume {
        Some(r) => (r.line, r.block),
        None => {
            let secret = [&b"kind: Secret"[..], b"kind: \"Secret\"", b"kind: 'Secret'"]
                .iter()
                .any(|k| memchr::memmem::find(hay, k).is_some());
            if !secret {
                return None;
            }
            (0, None)
        }
    };
    let indent = |line: &[u8]| line.iter().take_while(|&&b| b == b' ').count();
    for line in hay.get(at..).unwrap_or_default().split(|&b| b == b'\n') {
        let start = at;
        at += line.len() + 1;
        let body = line.trim_ascii();
        if body.is_empty() || body.starts_with(b"#") {
            continue;
        }
        let ind = indent(line);
        if let Some(outer) = block {
            if ind > outer {
                let Some(colon) = body.iter().position(|&b| b == b':') else { continue };
                let value = body.get(colon + 1..).unwrap_or_default();
                let v = value.trim_ascii();
                let plain = !v.is_empty() && !matches!(v.first(), Some(b'|' | b'>' | b'{' | b'[' | b'&' | b'*' | b'!'));
                if plain {
                    let v = v.strip_prefix(b"\"").and_then(|v| v.strip_suffix(b"\"")).unwrap_or(v);
                    let offset = memchr::memmem::find(line, v).unwrap_or(0);
                    let s = start + offset;
                    if s >= from && !v.is_empty() && !reference(v, true) {
                        let end = s + v.len();
                        let line = at.min(hay.len());
                        RESUME.with(|r| r.set(Some(Resume { hay: address, len: hay.len(), from: end, line, block })));
                        return Some((s, end));
                    }
                }
                continue;
            }
            block = None;
        }
        if body == b"data:" || body == b"stringData:" {
            block = Some(ind);
        }
    }
    None
}

/// The classes of the names a text assigns to, by where one of them was (a
/// configuration or a log names the same keys on line after line): a name whose letters
/// may hold a trigger word is split and looked up once per text, not at every
/// assignment (a fifth of the reader's time in configuration, code and logs).
/// Direct-mapped by length and three bytes; a slot holds the last name that fell in it,
/// compared byte for byte, so an answer is always [`classify`]'s.
#[derive(Default)]
struct Names {
    slots: Vec<Option<(usize, usize, Option<NameClass>)>>,
}

impl Names {
    const SLOTS: usize = 64;

    /// [`classify`] of `hay[start..end]`.
    fn class(&mut self, hay: &[u8], start: usize, end: usize) -> Option<NameClass> {
        let name = hay.get(start..end)?;
        let (&first, &last) = (name.first()?, name.last()?);
        let middle = name.get(name.len() / 2).copied().unwrap_or(0);
        let key =
            (name.len() * 31 + usize::from(first) * 7 + usize::from(middle) * 3 + usize::from(last)) % Self::SLOTS;
        if self.slots.is_empty() {
            self.slots.resize(Self::SLOTS, None);
        }
        let slot = self.slots.get_mut(key)?;
        if let Some((s, e, class)) = *slot {
            if hay.get(s..e) == Some(name) {
                return class;
            }
        }
        let class = classify(name);
        *slot = Some((start, end, class));
        class
    }
}

/// Reads an assignment whose operator has its last-but-one or only byte at `op`.
fn assignment(hay: &[u8], op: usize, names: &mut Names) -> Option<(NameClass, usize, usize)> {
    let byte = *hay.get(op)?;
    let next = hay.get(op + 1).copied();
    let prev = op.checked_sub(1).and_then(|p| hay.get(p)).copied();
    // Where the operator begins (the name ends before it) and the value may begin.
    let (op_start, value_from, kind) = match byte {
        b'=' => {
            if matches!(next, Some(b'=')) || matches!(prev, Some(b'=' | b'!' | b'<' | b'>')) {
                return None; // `==`, `!=`, `<=`, `>=`
            }
            let mut s = op;
            while s > 0 && matches!(hay.get(s - 1), Some(b':' | b'?' | b'+')) && op - s < 2 {
                s -= 1; // `:=`, `::=`, `?=`, `+=`
            }
            let after = if next == Some(b'>') { op + 2 } else { op + 1 }; // `=>`
            (s, after, Op::Equals)
        }
        b':' => {
            if matches!(next, Some(b':' | b'=')) || prev == Some(b':') || hay.get(op + 1..op + 3) == Some(b"//") {
                return None; // `::`, `:=` (read at its `=`), a URL
            }
            (op, op + 1, Op::Colon)
        }
        b'>' => {
            if prev == Some(b'=') || prev == Some(b'-') {
                return None; // `=>` (read at its `=`), `->`
            }
            (op, op + 1, Op::Element)
        }
        _ => (op, op + 1, Op::Comma),
    };
    // Most operators of configuration and logs assign a short value (`status=200`,
    // `timeout: 30s`, the `:` of `10:00`), which no class accepts: they are passed
    // before their name is read.
    if kind != Op::Element && !room_for_a_value(hay, value_from) {
        return None;
    }
    let (name_start, name_end, trigger) = name_before(hay, op_start, kind)?;
    let name = hay.get(name_start..name_end)?;
    // Most names hold no trigger's letters: those are turned away before the memo.
    let trigger = trigger.unwrap_or_else(|| may_trigger(name));
    let mut class = if trigger { names.class(hay, name_start, name_end) } else { None };
    // `<add key="ApiKey" value="…"/>`, `{"name": "API_TOKEN", "value": "…"}` and a
    // Kubernetes `- name: API_TOKEN` line above `value: …`: the value's name is the
    // key's.
    if class.is_none() && name.eq_ignore_ascii_case(b"value") {
        class = paired_name(hay, name_start).and_then(classify);
    }
    let class = class?;
    // Code (` = ` with spaces and a lower-case name, `:=`, `=>`), or a JSON or flow
    // collection (`{"k": v,`, `[a, b]`): punctuation ends a bare value.
    let spaced_code = kind == Op::Equals && spaced(hay, op_start, value_from) && code_name(name);
    let in_collection = hay
        .get(line_start(hay, name_start)..name_start)
        .is_some_and(|l| l.iter().any(|b| matches!(b, b'{' | b'[' | b'(' | b',')));
    let walrus = kind == Op::Equals && hay.get(op_start) == Some(&b':'); // Go's `:=`
    let arrow = kind == Op::Equals && value_from.checked_sub(1).and_then(|p| hay.get(p)) == Some(&b'>'); // `=>`
    let code = spaced_code || in_collection || walrus || arrow;
    let (start, end, quoted) = value_after(hay, value_from, kind, code)?;
    let value = hay.get(start..end)?;
    // `Authorization: key=AAAA…`: the value is itself an assignment, read at its own `=`.
    let word = value.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    if !quoted && word > 0 && value.get(word) == Some(&b'=') && value.get(word + 1).is_some_and(|b| *b != b'=') {
        return None;
    }
    // A bare `key` (`cache key=…`, `"key": …`) names too many things: a hex digest
    // after it is an id.
    if value.iter().all(u8::is_ascii_hexdigit) && weak_key(name) {
        return None;
    }
    let bare_code = !quoted && spaced_code;
    accept(class, value, quoted, bare_code).then_some((class, start, end))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Equals,
    Colon,
    Element,
    Comma,
}

/// Whether the value after an operator (`from` is the byte after it) may be long
/// enough for [`accept`]: a quoted one may be, a bare one needs at least
/// [`MIN_BARE_VALUE`] bytes before white space or a quote ([`value_after`] ends it there
/// or earlier).
fn room_for_a_value(hay: &[u8], from: usize) -> bool {
    let Some(rest) = hay.get(skip_blanks(hay, from)..) else { return false };
    match rest.first() {
        None => false,
        Some(b'"' | b'\'' | b'`') => true,
        Some(_) => {
            let stop = |b: &&u8| b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'`');
            rest.iter().take(MIN_BARE_VALUE).take_while(|b| !stop(b)).count() == MIN_BARE_VALUE
        }
    }
}

/// Where the value after an operator begins: past the spaces and tabs at `from`, at
/// most [`MAX_BLANKS`] (aligned columns write many). [`room_for_a_value`] and
/// [`value_after`] skip the same.
fn skip_blanks(hay: &[u8], from: usize) -> usize {
    let mut s = from;
    while hay.get(s).is_some_and(|b| *b == b' ' || *b == b'\t') && s - from < MAX_BLANKS {
        s += 1;
    }
    s
}

/// The most blanks read between an operator and its value.
const MAX_BLANKS: usize = 40;

/// The shortest bare (unquoted) value [`accept`] takes: a password's (a secret's is
/// eight bytes at least).
const MIN_BARE_VALUE: usize = 6;

/// ` = ` with white space on both sides: how code assigns (an `.env` file writes `K=v`).
fn spaced(hay: &[u8], op_start: usize, value_from: usize) -> bool {
    let before = op_start.checked_sub(1).and_then(|p| hay.get(p)).is_some_and(|b| *b == b' ' || *b == b'\t');
    let after = hay.get(value_from).is_some_and(|b| *b == b' ' || *b == b'\t');
    before && after
}

/// A lower-case or camelCase identifier (code), not an `UPPER_CASE` environment name.
fn code_name(name: &[u8]) -> bool {
    name.iter().any(u8::is_ascii_lowercase)
}

/// The name that ends just before `end` (white space, a closing quote or `]` allowed in
/// between): `(start, end)` of its bytes, and for a bare name [`may_trigger`] of it,
/// learnt while walking back over it.
fn name_before(hay: &[u8], end: usize, kind: Op) -> Option<(usize, usize, Option<bool>)> {
    let mut e = end;
    if kind != Op::Element {
        // Aligned columns (`password          = "…"` in HCL) put many spaces here.
        while e > 0 && end - e < MAX_BLANKS && matches!(hay.get(e - 1), Some(b' ' | b'\t')) {
            e -= 1;
        }
    }
    let close = e.checked_sub(1).and_then(|p| hay.get(p)).copied();
    match (kind, close) {
        (Op::Element, _) => {
            // `<password>`, `<ApiKey attr="x">`: the tag's name.
            let line_start = line_start(hay, e);
            let open = hay.get(line_start..e)?.iter().rposition(|&b| b == b'<')? + line_start;
            let s = open + 1;
            let n = hay.get(s..e)?.iter().take_while(|&&b| is_name_byte(b) || b == b':').count();
            (n > 0 && n <= MAX_NAME).then_some((s, s + n, None))
        }
        (Op::Comma, Some(q @ (b'"' | b'\''))) => {
            // `setProperty("KEY", "v")`, `setenv('KEY', 'v')`, PHP's `define( 'KEY',
            // 'v' )`: the first argument.
            let (s, n) = quoted_before(hay, e - 1, q)?;
            let mut p = s.checked_sub(1)?;
            while p > 0 && s - p < 4 && matches!(hay.get(p - 1), Some(b' ' | b'\t')) {
                p -= 1;
            }
            let paren = p.checked_sub(1).and_then(|p| hay.get(p)).copied();
            (paren == Some(b'(')).then_some((s, s + n, None))
        }
        (Op::Comma, _) => None,
        (_, Some(q @ (b'"' | b'\'' | b'`'))) => quoted_before(hay, e - 1, q).map(|(s, n)| (s, s + n, None)),
        (_, Some(b']')) => {
            // `os.environ["KEY"] =`, `ENV['KEY'] =`.
            let q = e.checked_sub(2).and_then(|p| hay.get(p)).copied()?;
            if !matches!(q, b'"' | b'\'') {
                return None;
            }
            quoted_before(hay, e - 2, q).map(|(s, n)| (s, s + n, None))
        }
        _ => {
            let (mut s, trigger) = walk_back(hay, e);
            // A type between the name and `=` (`const API_KEY: &str = "…"`, `let token:
            // string = "…"`, `val key: String = "…"`): the name is before the colon.
            if kind == Op::Equals {
                let mut c = s;
                while c > 0 && matches!(hay.get(c - 1), Some(b' ' | b'\t' | b'&' | b'\'')) && s - c < 8 {
                    c -= 1;
                }
                if c > 0
                    && c < s
                    && hay.get(c - 1) == Some(&b':')
                    && hay.get(c.saturating_sub(2)) != Some(&b':')
                    && s < e
                {
                    if let Some(name) = name_before(hay, c - 1, Op::Colon) {
                        return Some(name);
                    }
                }
            }
            // `--password=`, `-password`: the flag's dashes are not the name.
            while s < e && hay.get(s) == Some(&b'-') {
                s += 1;
            }
            let before = s.checked_sub(1).and_then(|p| hay.get(p)).copied();
            let ok = s < e && e - s <= MAX_NAME && !before.is_some_and(|b| b.is_ascii_alphanumeric() || b >= 0x80);
            ok.then_some((s, e, Some(trigger)))
        }
    }
}

/// Walks back from `end` over the bytes of a name, at most [`MAX_NAME`]: where they
/// begin, and [`may_trigger`] of them, tested on the way (one pass over the name, not
/// two: most operators of a configuration or a log have a name without a trigger).
fn walk_back(hay: &[u8], end: usize) -> (usize, bool) {
    let mut trigger = Trigger::default();
    let mut s = end;
    while s > 0 && end - s < MAX_NAME {
        let Some(&b) = hay.get(s - 1) else { break };
        if !is_name_byte(b) {
            break;
        }
        s -= 1;
        trigger.back(b);
    }
    (s, trigger.found)
}

/// The quoted string whose closing quote `q` is at `close`: its start and length.
fn quoted_before(hay: &[u8], close: usize, q: u8) -> Option<(usize, usize)> {
    let from = close.saturating_sub(MAX_NAME + 1).max(line_start(hay, close));
    let open = hay.get(from..close)?.iter().rposition(|&b| b == q)? + from;
    let name = hay.get(open + 1..close)?;
    (!name.is_empty() && name.iter().all(|&b| is_name_byte(b) || b == b':' || b == b' '))
        .then_some((open + 1, name.len()))
}

/// The start of the line `at` is in, looking back at most 256 bytes (a longer line is
/// read from there: every look-back of the reader stays bounded, so it stays linear).
fn line_start(hay: &[u8], at: usize) -> usize {
    let from = at.saturating_sub(256);
    hay.get(from..at).and_then(|h| memchr::memrchr(b'\n', h)).map_or(from, |p| from + p + 1)
}

/// The name a `value` key is paired with: `key="…"` or `name="…"` earlier on the same
/// line, or `name: …` alone on the line just above (a Kubernetes `env` entry).
fn paired_name(hay: &[u8], value_name: usize) -> Option<&[u8]> {
    let ls = line_start(hay, value_name);
    let line = hay.get(ls..value_name)?;
    for key in [&b"key="[..], b"name=", b"\"key\":", b"\"name\":", b"\"key\" :", b"\"name\" :"] {
        if let Some(p) = memchr::memmem::rfind(line, key).or_else(|| {
            let lower: Vec<u8> = line.to_ascii_lowercase();
            memchr::memmem::rfind(&lower, key)
        }) {
            let rest = line.get(p + key.len()..)?;
            let rest = rest.get(rest.iter().take_while(|b| **b == b' ').count()..)?;
            let q = *rest.first()?;
            if matches!(q, b'"' | b'\'') {
                let body = rest.get(1..)?;
                let n = body.iter().position(|&b| b == q)?;
                return body.get(..n);
            }
        }
    }
    // The line above, if it is `- name: KEY` or `name: KEY` (no other line between).
    let above_end = ls.checked_sub(1)?;
    let above = hay.get(line_start(hay, above_end)..above_end)?;
    let t = above.trim_ascii();
    let t = t.strip_prefix(b"- ").unwrap_or(t).trim_ascii_start();
    let v = t.strip_prefix(b"name:")?.trim_ascii();
    let v = v.strip_prefix(b"\"").and_then(|v| v.strip_suffix(b"\"")).unwrap_or(v);
    (!v.is_empty() && v.iter().all(|&b| is_name_byte(b))).then_some(v)
}

/// The value that begins at or after `from` on the same line: `(start, end, quoted)`.
fn value_after(hay: &[u8], from: usize, kind: Op, code: bool) -> Option<(usize, usize, bool)> {
    let mut s = if kind == Op::Element { from } else { skip_blanks(hay, from) };
    let first = *hay.get(s)?;
    if kind == Op::Element {
        // `<password>v</password>`: up to the closing tag, on the same line.
        let rest = hay.get(s..)?;
        let n = rest.iter().take(MAX_VALUE).position(|&b| b == b'<' || b == b'\n')?;
        let closes = rest.get(n..n + 2) == Some(b"</");
        let v = rest.get(..n)?;
        let (lead, trail) = (v.len() - v.trim_ascii_start().len(), v.len() - v.trim_ascii_end().len());
        return (closes && n > lead + trail).then_some((s + lead, s + n - trail, true));
    }
    if matches!(first, b'"' | b'\'' | b'`') {
        let body = hay.get(s + 1..)?;
        let mut i = 0;
        while let Some(&b) = body.get(i) {
            if b == first {
                return (i > 0).then_some((s + 1, s + 1 + i, true));
            }
            if b == b'\n' || i > MAX_VALUE {
                break;
            }
            i += if b == b'\\' { 2 } else { 1 };
        }
        // No closing quote on the line (a truncated paste): the word after the quote.
        s += 1;
    }
    if kind == Op::Comma {
        return None;
    }
    let rest = hay.get(s..)?;
    // `KEY=v` and `key: v` (environment files, YAML, `.properties`) end at white
    // space: a Django key or a password may hold `(`, `)`, `;` or `,`. In code, and
    // inside JSON or flow collections, punctuation ends the value too.
    let stop = |b: u8| {
        b.is_ascii_whitespace()
            || matches!(b, b'"' | b'\'' | b'`')
            || (code && matches!(b, b',' | b';' | b'<' | b'>' | b')' | b'}' | b']'))
    };
    let mut n = rest.iter().take(MAX_VALUE + 1).position(|&b| stop(b)).unwrap_or(rest.len().min(MAX_VALUE + 1));
    // A trailing `,` or `;` before the end of the line is the syntax's, not the value's.
    while n > 0 && matches!(rest.get(n - 1), Some(b',' | b';')) {
        n -= 1;
    }
    (n > 0 && n <= MAX_VALUE).then_some((s, s + n, false))
}

/// A key name without a word that makes it a secret (`key`, `DATA_KEY`, `cache_key`):
/// a hex digest after it is as likely an id.
fn weak_key(name: &[u8]) -> bool {
    let ends =
        |s: &[u8]| name.len() >= s.len() && name.get(name.len() - s.len()..).is_some_and(|e| e.eq_ignore_ascii_case(s));
    let ends_key = ends(b"key") || ends(b"keys");
    let qualified =
        KEY_QUALIFIERS.iter().any(|q| find_folded(name, q.as_bytes()).is_some_and(|at| at + q.len() + 3 <= name.len()))
            || SECRET_WORDS.iter().any(|w| find_folded(name, w.as_bytes()).is_some());
    ends_key && !qualified
}

/// Where `needle` (lower case) first occurs in `hay`, whatever the case of `hay`. The
/// names and values read here are short: building a `memmem` searcher for each of the
/// few dozen words looked for cost more than this search, and lower-casing a copy an
/// allocation.
fn find_folded(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last = hay.len().checked_sub(needle.len())?;
    // The first byte in either case by `memchr2` (vectors), then the rest compared.
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), hay.get(..=last)?)
        .find(|&i| hay.get(i + 1..i + needle.len()).is_some_and(|r| r.eq_ignore_ascii_case(rest)))
}

/// Whether `hay` begins with `prefix` (lower case), whatever the case of `hay`.
fn starts_folded(hay: &[u8], prefix: &[u8]) -> bool {
    hay.get(..prefix.len()).is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

/// The class of a name, or `None` when it names no secret (or names something about
/// one: `password_length`, `token_url`, `secret_name`, `api_key_id`, `max_tokens`).
pub fn classify(name: &[u8]) -> Option<NameClass> {
    // Most names in code, configuration and logs name no secret (`status`, `timeout`,
    // `request_id`): without one of the words below in them they cannot, and a look at
    // the name's letter triples says so before it is split and compared word by word.
    if !may_trigger(name) {
        return None;
    }
    let mut words: [&[u8]; 12] = [&[]; 12];
    let mut count = 0;
    let mut start = 0;
    let at = |i: usize| name.get(i).copied().unwrap_or(b'_');
    for i in 0..=name.len() {
        let b = at(i);
        let cut_here = !b.is_ascii_alphanumeric()
            // camelCase hump: `dbPassword` → db | Password; `APIKey` → API | Key.
            || (i > start && b.is_ascii_uppercase() && at(i - 1).is_ascii_lowercase())
            || (i > start + 1 && b.is_ascii_uppercase() && at(i - 1).is_ascii_uppercase() && at(i + 1).is_ascii_lowercase() && i + 1 < name.len());
        if cut_here {
            if i > start {
                if let (Some(slot), Some(w)) = (words.get_mut(count), name.get(start..i)) {
                    *slot = w;
                    count += 1;
                }
            }
            start = if b.is_ascii_alphanumeric() { i } else { i + 1 };
        }
    }
    let words = words.get(..count)?;
    // Each word looked up once: the lists it is on.
    let map = word_map();
    let mut lists = [0u8; 12];
    for (l, w) in lists.iter_mut().zip(words) {
        *l = map.get(w).unwrap_or(0);
    }
    let lists = lists.get(..count)?;
    let (first, last) = (*lists.first()?, *lists.last()?);
    let any = lists.iter().fold(0, |a, l| a | l);
    // What the name is about, not the secret itself.
    if last & DESCRIPTOR != 0 || first & QUANTIFIER != 0 || any & NOT_A_SECRET != 0 {
        return None;
    }
    let joined_has = |needle: &&str| find_folded(name, needle.as_bytes()).is_some();
    if any & PASSWORD != 0 || PASSWORD_PARTS.iter().any(joined_has) {
        return Some(NameClass::Password);
    }
    if any & SECRET != 0 || SECRET_PARTS.iter().any(joined_has) {
        return Some(NameClass::Secret);
    }
    // A name that ends in `key` (`access_key`, `signingKey`, `DATA_KEY`, a bare `key`),
    // unless a word before it says it is a lookup key (`cache_key`, `sort_key`); the
    // value must then look random (a hex digest only after a qualifier, `weak_key`).
    (last & KEY != 0 && any & LOOKUP == 0).then_some(NameClass::Secret)
}

// The lists a word is on, as bits.
const DESCRIPTOR: u8 = 1;
const QUANTIFIER: u8 = 2;
const NOT_A_SECRET: u8 = 4;
const PASSWORD: u8 = 8;
const SECRET: u8 = 16;
const LOOKUP: u8 = 32;
const KEY: u8 = 64;

/// Every word of the lists that [`classify`] looks a name's words up in, with the
/// lists it is on: one lookup per word of a name, not a comparison with each of the
/// lists' 250 entries (that was a fifth of the scan of a text of configuration and
/// logs, where a quarter of the names hold a trigger's letters).
fn word_map() -> &'static WordMap<u8> {
    static MAP: std::sync::OnceLock<WordMap<u8>> = std::sync::OnceLock::new();
    MAP.get_or_init(|| {
        let lists: [(&[&str], u8); 7] = [
            (DESCRIPTORS, DESCRIPTOR),
            (QUANTIFIERS, QUANTIFIER),
            (NOT_SECRET, NOT_A_SECRET),
            (PASSWORD_WORDS, PASSWORD),
            (SECRET_WORDS, SECRET),
            (LOOKUP_KEYS, LOOKUP),
            (&["key", "keys"], KEY),
        ];
        WordMap::from_entries(lists.iter().flat_map(|(list, bit)| list.iter().map(|w| (*w, *bit))), |a, b| a | b)
    })
}

/// Whether `name` may hold one of the words that can make a name a password's or a
/// secret's (every word and part below, and `key`; case-insensitive): whether one of
/// their first two or three letters ([`TRIGGERS`]) begin at one of its bytes. A name
/// without any cannot be classified: every test of [`classify`] needs one of those
/// words in it.
fn may_trigger(name: &[u8]) -> bool {
    let mut trigger = Trigger::default();
    name.iter().rev().for_each(|&b| trigger.back(b));
    trigger.found
}

/// [`may_trigger`] read right to left, one byte at a time: one look per letter at the
/// pair it begins (a two-letter word, or the first two letters of a longer one), and at
/// the triple it begins only if that pair begins one.
struct Trigger {
    /// The letters just after the byte read last (0–25), or [`Trigger::NONE`].
    next: usize,
    after_next: usize,
    found: bool,
}

impl Default for Trigger {
    fn default() -> Trigger {
        Trigger { next: Trigger::NONE, after_next: Trigger::NONE, found: false }
    }
}

impl Trigger {
    const NONE: usize = usize::MAX;

    /// Reads the byte before the ones read so far.
    fn back(&mut self, b: u8) {
        // An ASCII letter's index in the alphabet, of either case; 26 and up otherwise.
        let letter = usize::from((b | 0x20).wrapping_sub(b'a'));
        if letter >= 26 {
            (self.next, self.after_next) = (Trigger::NONE, Trigger::NONE);
            return;
        }
        if self.next != Trigger::NONE && !self.found {
            let pair = letter * 26 + self.next;
            self.found = match TRIGGERS.pairs.get(pair).copied().unwrap_or(0) {
                0 => false,
                PAIR_WORD => true,
                _ => {
                    self.after_next != Trigger::NONE && {
                        let triple = pair * 26 + self.after_next;
                        TRIGGERS.triples.get(triple / 64).is_some_and(|w| w >> (triple % 64) & 1 == 1)
                    }
                }
            };
        }
        (self.next, self.after_next) = (letter, self.next);
    }
}

/// The first letters of the trigger words: `pairs` by two letters, [`PAIR_WORD`] for a
/// two-letter word (`pw`) and [`PAIR_HEAD`] for the first two of a longer one;
/// `triples`, as bits, for the first three letters of the longer ones.
struct Triggers {
    pairs: [u8; 26 * 26],
    triples: [u64; 275],
}

const PAIR_WORD: u8 = 1;
const PAIR_HEAD: u8 = 2;

// Evaluated by the compiler: an index out of range fails the build, not a request.
#[allow(clippy::indexing_slicing)]
const TRIGGERS: Triggers = {
    let mut t = Triggers { pairs: [0; 26 * 26], triples: [0; 275] };
    let lists: [&[&str]; 5] = [PASSWORD_WORDS, PASSWORD_PARTS, SECRET_WORDS, SECRET_PARTS, &["key"]];
    let mut l = 0;
    while l < lists.len() {
        let mut w = 0;
        while w < lists[l].len() {
            let b = lists[l][w].as_bytes();
            // Every trigger word is two letters or more, in lower case: any other byte
            // underflows or indexes past the tables, and the build fails.
            let pair = (b[0] - b'a') as usize * 26 + (b[1] - b'a') as usize;
            if b.len() == 2 {
                t.pairs[pair] = PAIR_WORD;
            } else {
                // A pair that is a word already matches: no triple needs it.
                if t.pairs[pair] != PAIR_WORD {
                    t.pairs[pair] = PAIR_HEAD;
                }
                let triple = pair * 26 + (b[2] - b'a') as usize;
                t.triples[triple / 64] |= 1 << (triple % 64);
            }
            w += 1;
        }
        l += 1;
    }
    t
};

const PASSWORD_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "pass",
    "passphrase",
    "passcode",
    "pw",
    "passwort",
    "kennwort",
    "motdepasse",
    "mdp",
    "contrasena",
    "senha",
    "haslo",
    "wachtwoord",
    "losenord",
    "sifre",
    "parola",
    "clave",
];
const PASSWORD_PARTS: &[&str] = &["password", "passwd", "passphrase", "passwort"];
const SECRET_WORDS: &[&str] = &[
    "secret",
    "secrets",
    "token",
    "apikey",
    "auth",
    "authorization",
    "credential",
    "credentials",
    "creds",
    "cred",
    "bearer",
    "jwt",
    "pat",
    "dsn",
    "cookie",
    "salt",
    "privatekey",
    "secretkey",
    "accesskey",
    "authtoken",
    "signature",
    "hmac",
];
const SECRET_PARTS: &[&str] =
    &["apikey", "secretkey", "accesskey", "privatekey", "authtoken", "accesstoken", "clientsecret"];
const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "signing",
    "sign",
    "encryption",
    "encrypt",
    "decryption",
    "master",
    "client",
    "app",
    "application",
    "service",
    "account",
    "storage",
    "shared",
    "webhook",
    "consumer",
    "subscription",
    "admin",
    "root",
    "session",
    "crypto",
    "cipher",
    "aes",
    "hmac",
    "license",
    "licence",
    "auth",
    "server",
    "ssh",
    "gpg",
    "pgp",
    "deploy",
    "sas",
    "primary",
    "secondary",
    "instrumentation",
    "ingest",
    "ingestion",
    "write",
    "read",
    "user",
    "dev",
    "prod",
    "live",
    "test",
    "mapbox",
    "stripe",
    "openai",
    "anthropic",
    "google",
    "azure",
    "aws",
];
/// A name's last word that makes it a name about a secret, not of one.
const DESCRIPTORS: &[&str] = &[
    "id",
    "ids",
    "name",
    "names",
    "path",
    "file",
    "filename",
    "dir",
    "url",
    "uri",
    "endpoint",
    "host",
    "type",
    "kind",
    "length",
    "len",
    "size",
    "count",
    "limit",
    "limits",
    "max",
    "min",
    "ttl",
    "expiry",
    "expires",
    "expiration",
    "timeout",
    "lifetime",
    "header",
    "field",
    "env",
    "var",
    "ref",
    "policy",
    "prefix",
    "suffix",
    "format",
    "version",
    "enabled",
    "disabled",
    "required",
    "hint",
    "label",
    "mode",
    "arn",
    "region",
    "hash",
    "hashed",
    "digest",
    "algorithm",
    "alg",
    "location",
    "store",
    "provider",
    "source",
    "description",
    "help",
    "pattern",
    "regex",
    "rotation",
    "validity",
    "age",
    "created",
    "updated",
    "at",
    "usage",
    "strength",
    "changed",
    "placeholder",
    "text",
    "title",
    "message",
    "error",
    "errors",
    "prompt",
    "input",
    "class",
    "style",
    "template",
    "param",
    "parameter",
    "option",
    "options",
    "flag",
    "reset",
    "manager",
    "service",
    "handler",
    "helper",
    "util",
    "utils",
    "config",
    "settings",
    "schema",
    "spec",
    "model",
    "index",
    "fingerprint",
    "thumbprint",
    "issuer",
    "audience",
    "scope",
    "scopes",
    "public",
    "exists",
    "set",
    "valid",
    "invalid",
    "check",
    "verify",
    "rule",
    "rules",
    "mask",
    "masked",
    "char",
    "chars",
    "characters",
    "words",
    "budget",
    "spent",
    "used",
    "remaining",
];
/// A name's first word that counts or switches: `max_tokens`, `num_tokens`, `use_auth`.
const QUANTIFIERS: &[&str] = &[
    "max",
    "min",
    "num",
    "total",
    "count",
    "is",
    "has",
    "use",
    "enable",
    "enabled",
    "disable",
    "require",
    "required",
    "show",
    "hide",
    "forgot",
    "no",
    "allow",
    "n",
    "input",
    "output",
    "prompt",
    "completion",
    "cached",
    "reasoning",
];
/// Words that make a `*_key` name a lookup key, not a secret one.
const LOOKUP_KEYS: &[&str] = &[
    "primary",
    "sort",
    "partition",
    "cache",
    "routing",
    "idempotency",
    "object",
    "lookup",
    "dedup",
    "dedupe",
    "map",
    "hot",
    "translation",
    "i18n",
    "message",
    "msg",
    "row",
    "hash",
    "range",
    "shard",
    "group",
    "bucket",
    "redis",
    "s3",
    "foreign",
    "unique",
    "composite",
    "natural",
    "dict",
    "field",
    "column",
    "entry",
    "index",
    "sharding",
    "distribution",
    "cluster",
    "order",
    "label",
    "metadata",
    "tag",
    "event",
    "dimension",
    "react",
    "list",
    "item",
    "menu",
    "nav",
];
const NOT_SECRET: &[&str] = &[
    "public",
    "publishable",
    "foreign",
    "primarykey",
    "sort",
    "partition",
    "idempotency",
    "cache",
    "row",
    "lookup",
    "hotkey",
    "shortcut",
    "keyboard",
    "monkey",
    "turkey",
    "donkey",
    "whiskey",
];

/// Whether `value` reads as a secret for a name of `class`.
fn accept(class: NameClass, value: &[u8], quoted: bool, bare_code: bool) -> bool {
    let v = value.trim_ascii();
    if v.len() != value.len() || v.is_empty() || v.len() > MAX_VALUE {
        return false;
    }
    if reference(v, quoted) || placeholder(v) {
        return false;
    }
    let letters = v.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let digits = v.iter().filter(|b| b.is_ascii_digit()).count();
    let others = v.len() - letters - digits;
    match class {
        NameClass::Password => {
            if v.len() < 4 || (!quoted && v.len() < MIN_BARE_VALUE) {
                return false;
            }
            // `password = getpass`, `pwd = os.getcwd` are code: a bare identifier after ` = `
            // (a word, or camelCase with a few humps; `iwFssUmFTkLhxSVs` is not one).
            if bare_code && digits == 0 && others == 0 && identifier_like(v) {
                return false;
            }
            // A bare number is a port, a count or a length more often than a password.
            if letters == 0 && others == 0 && !quoted {
                return false;
            }
            // Prose after a colon ("Password: reset it tomorrow") is not one word.
            !v.contains(&b' ') || (quoted && v.len() <= 64)
        }
        NameClass::Secret => {
            if v.iter().any(|b| b.is_ascii_whitespace()) || v.len() < 8 {
                return false;
            }
            // An SSH key's type (`authorized_keys: ssh-ed25519 AAAA…`, a public key).
            let key_type = [&b"ssh-"[..], b"ecdsa-sha2-", b"sk-ssh-", b"sk-ecdsa-"].iter().any(|p| v.starts_with(p));
            if key_type
                && v.len() <= 40
                && v.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'@' | b'.'))
            {
                return false;
            }
            let hex = v.iter().all(u8::is_ascii_hexdigit);
            if hex {
                // A hex key: 32 to 128 digits (128 to 512 bits: Rails' `secret_key_base`
                // is 128), not one digit repeated.
                return (32..=128).contains(&v.len()) && letters > 0 && digits > 0;
            }
            if v.len() >= 16 {
                return crate::validate::Validator::Entropy.check(v);
            }
            // 8 to 15 characters: letters and digits and a third kind, a secret's shape,
            // not a word (`Read-Host`).
            let lower = v.iter().any(u8::is_ascii_lowercase);
            let upper = v.iter().any(u8::is_ascii_uppercase);
            digits > 0
                && letters > 0
                && u8::from(lower) + u8::from(upper) + u8::from(digits > 0) + u8::from(others > 0) >= 3
                && !bare_code
        }
    }
}

/// A word that reads as a code identifier: letters only, with at most three changes of
/// case (`getpass`, `userInput`, `PasswordField`).
fn identifier_like(v: &[u8]) -> bool {
    let humps =
        v.windows(2).filter(|w| matches!(w, [a, b] if a.is_ascii_lowercase() != b.is_ascii_lowercase())).count();
    v.iter().all(|b| b.is_ascii_alphabetic() || *b == b'_') && humps <= 3
}

/// A value the reader would take as a secret's (a random-looking value, or a 32–64
/// digit hex key; no reference or placeholder), for rules that find one by other means
/// (the credential after an `Authorization` scheme).
pub fn secret_value(v: &[u8]) -> bool {
    accept(NameClass::Secret, v, true, false)
}

/// A password written after a command-line flag or keyword (`mysql -p'…'`,
/// `htpasswd -b … user …`, `ConvertTo-SecureString "…"`, `.netrc`): not a reference,
/// a placeholder or a bare identifier.
pub fn plausible_password(v: &[u8]) -> bool {
    let v = v.trim_ascii();
    v.len() >= 4 && !reference(v, true) && !placeholder(v) && !v.iter().all(|b| b.is_ascii_uppercase() || *b == b'_')
}

/// A value that prose says is a password (`my password is Summer2024!`, `mot de passe
/// est …`): one token of 6 to 64 bytes (the rules' patterns leave a sentence's `.`, `,`,
/// `;` or `:` after it out), at least 6 without a final `!` or `?`, no reference,
/// placeholder or URL, and no word (`required`, `incorrect!`, `case-sensitive`): it has
/// a digit, or small and capital letters and a symbol, or is six digits or more.
pub fn prose_password(v: &[u8]) -> bool {
    let v = v.trim_ascii();
    let bare = v.strip_suffix(b"!").or_else(|| v.strip_suffix(b"?")).unwrap_or(v);
    if bare.len() < 6 || v.len() > 64 || reference(v, false) || placeholder(v) || find_folded(v, b"://").is_some() {
        return false;
    }
    let letters = bare.iter().filter(|b| b.is_ascii_alphabetic() || **b >= 0x80).count();
    let digits = bare.iter().filter(|b| b.is_ascii_digit()).count();
    let others = bare.len() - letters - digits;
    let mixed = bare.iter().any(u8::is_ascii_lowercase) && bare.iter().any(u8::is_ascii_uppercase);
    match (letters, digits) {
        (0, _) => others == 0 && digits >= 6,
        (_, 0) => others > 0 && mixed,
        _ => true,
    }
}

/// A reference to a value held elsewhere: an environment variable, a template, a
/// configuration path, a function call.
fn reference(v: &[u8], quoted: bool) -> bool {
    let first = v.first().copied().unwrap_or(b'$');
    if matches!(first, b'$' | b'%' | b'{' | b'<' | b'[' | b'(' | b'@' | b'!' | b'&' | b'*' | b'#' | b'|' | b'>') {
        return true;
    }
    if template(v) || starts_folded(v, b"env.") || starts_folded(v, b"var.") {
        return true;
    }
    const SCHEMES: &[&[u8]] = &[
        b"op://",
        b"vault:",
        b"arn:aws:",
        b"ref+",
        b"secret://",
        b"sm://",
        b"awssm:",
        b"azurekv:",
        b"keyvault:",
        b"gcpsm:",
        b"projects/",
    ];
    // A prefix is compared only if it begins with the value's first letter.
    let head = first.to_ascii_lowercase();
    let begins = |p: &&[u8]| p.first() == Some(&head) && starts_folded(v, p);
    if SCHEMES.iter().any(begins) {
        return true;
    }
    if quoted {
        return false;
    }
    // Unquoted code: `os.environ["X"]`, `process.env.X!`, `config.get(...)`, `var.db`,
    // `settings.SECRET_KEY`, `data.vault_generic_secret.x.data`.
    const OBJECTS: &[&[u8]] = &[
        b"process.env",
        b"os.environ",
        b"os.getenv",
        b"system.getenv",
        b"env[",
        b"env.fetch",
        b"deno.env",
        b"import.meta.env",
        b"config.",
        b"settings.",
        b"secrets.",
        b"vars.",
        b"local.",
        b"data.",
        b"module.",
        b"environment.",
        b"context.",
        b"props.",
        b"this.",
        b"self.",
        b"params.",
        b"args.",
        b"options.",
        b"opts.",
        b"credentials.",
        b"creds.",
        b"request.",
        b"req.",
        b"cfg.",
        b"conf.",
        b"app.config",
        b"viper.",
    ];
    if OBJECTS.iter().any(begins) {
        return true;
    }
    let literal =
        [&b"true"[..], b"false", b"null", b"none", b"nil", b"undefined"].iter().any(|w| v.eq_ignore_ascii_case(w));
    let v = v.strip_suffix(b"!").unwrap_or(v); // TypeScript's non-null assertion
                                               // A call or an index: an identifier path right before the first `(` or `[`
                                               // (`getpass()`, `ENV['X']`); a Django key holds `(` after other punctuation.
    let call = v.iter().position(|&b| b == b'(' || b == b'[').is_some_and(|p| {
        p > 0
            && v.get(..p)
                .is_some_and(|head| head.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':')))
    });
    let path = v.contains(&b'.')
        && v.split(|&b| b == b'.').all(|p| {
            p.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
                && p.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        })
        && !v.iter().any(u8::is_ascii_digit);
    call || path || literal
}

/// A template's or a shell's expansion in a value: `${`, `$(`, `{{` or `}}`. One
/// `memchr3` over the value finds the bytes they begin with (most values have none).
fn template(v: &[u8]) -> bool {
    let mut at = 0;
    while let Some(p) = v.get(at..).and_then(|rest| memchr::memchr3(b'$', b'{', b'}', rest)) {
        let i = at + p;
        if matches!(v.get(i..i + 2), Some([b'$', b'{' | b'('] | [b'{', b'{'] | [b'}', b'}'])) {
            return true;
        }
        at = i + 1;
    }
    false
}

/// A value that stands in for one: `changeme`, `xxxx`, `***`, `your-token-here`,
/// `<redacted>`, `example`, a run of one character.
fn placeholder(v: &[u8]) -> bool {
    const WORDS: &[&[u8]] = &[
        b"example",
        b"your",
        b"xxxx",
        b"changeme",
        b"change_me",
        b"change-me",
        b"placeholder",
        b"dummy",
        b"redacted",
        b"sample",
        b"replace",
        b"insert",
        b"todo",
        b"fixme",
        b"...",
        b"***",
        b"<",
        b"here",
        b"secret_value",
        b"notreal",
        b"not_real",
        b"not-a-real",
        b"fake",
        b"foobar",
        b"lorem",
        b"mysecret",
        b"my_secret",
        b"my-secret",
    ];
    if WORDS.iter().any(|w| find_folded(v, w).is_some()) {
        return true;
    }
    const EXACT: &[&[u8]] = &[
        b"password",
        b"passwd",
        b"secret",
        b"token",
        b"pass",
        b"test",
        b"testing",
        b"default",
        b"empty",
        b"string",
        b"value",
        b"admin",
        b"root",
        b"user",
        b"guest",
        b"demo",
        b"required",
        b"optional",
        b"none",
        b"null",
        b"false",
        b"true",
        b"apikey",
        b"api_key",
        b"api-key",
        b"key",
        b"str",
        b"bool",
        b"int",
        b"text",
        b"hidden",
        b"masked",
    ];
    if EXACT.iter().any(|e| v.eq_ignore_ascii_case(e)) {
        return true;
    }
    let first = v.first().map_or(0, u8::to_ascii_lowercase);
    v.iter().all(|b| b.to_ascii_lowercase() == first)
        || v.iter().all(|b| matches!(b.to_ascii_lowercase(), b'x' | b'*' | b'-' | b'_' | b'.' | b'0'))
}

#[cfg(test)]
mod tests;
