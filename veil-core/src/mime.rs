//! MIME multipart bodies read the way a MIME reader reads them, every piece of text
//! handed to the scanner, and the body rebuilt with its replacements.
//!
//! A vendor that receives `multipart/form-data` (RFC 7578) does not read the bytes as
//! text: it splits the body at its delimiters (RFC 2046 § 5.1), undoes each part's
//! `Content-Transfer-Encoding` (base64 and quoted-printable, RFC 2045 § 6), reads a
//! nested `multipart/*` part as a multipart of its own, and decodes parameter values
//! written in the extended form of RFC 2231 / RFC 5987 (`filename*=UTF-8''…`, split
//! into continuations `filename*0*=…; filename*1*=…`) or as RFC 2047 encoded-words
//! (`filename="=?UTF-8?B?…?="`). A scanner that searched the raw bytes would pass a
//! value that arrives base64-encoded, soft-broken across quoted-printable lines,
//! percent-encoded or split across continuations. So [`rewrite`] hands every piece —
//! preamble, each part's header block, each decoded parameter, each part's decoded
//! content, epilogue — to a visitor and writes back what the visitor replaces, encoded
//! again the way it came; every other byte reaches the vendor as it was, and a body in
//! which nothing changed is not rebuilt at all.
//!
//! The reader is strict where leniency would let bytes go unread: a body with no
//! boundary, no delimiter line or no close delimiter (a truncated body) is an error,
//! never a shorter multipart, and a transfer encoding it cannot undo is handed over as
//! [`Piece::Undecodable`] with the raw bytes. Errors carry offsets, never body text.

use memchr::memmem::Finder;

use crate::base64;
use crate::edit::{splice, Edit};

/// Multiparts nested deeper than this (the body itself is level 1) are an error rather
/// than read without bound (the reader is recursive).
pub const MAX_DEPTH: usize = 16;

/// The longest boundary accepted: RFC 2046 allows 70 characters, senders in the wild
/// write longer ones.
const MAX_BOUNDARY: usize = 200;

/// The longest line a rewritten quoted-printable body has, and a rewritten base64 body
/// whose original line length is unknown (RFC 2045 § 6.7, § 6.8).
const LINE: usize = 76;

const CRLF: &[u8] = b"\r\n";
const LF: &[u8] = b"\n";
const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// What a piece handed to the visitor is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    /// The bytes before the first delimiter line (readers discard them; they are
    /// scanned so that nothing unread reaches the vendor). Not visited when empty.
    Preamble,
    /// The bytes after the close delimiter's line. Not visited when empty.
    Epilogue,
    /// A part's whole raw header block: every header line with its line break, not the
    /// empty line that ends it. Not visited when the part has no headers. When one of
    /// the part's [`Piece::Param`]s was replaced, the block is handed over with that
    /// replacement already written in (see [`rewrite`]).
    Header,
    /// A `Content-Type` or `Content-Disposition` parameter's value as a reader decodes
    /// it: the RFC 2231 / RFC 5987 extended form (`filename*=UTF-8''jane%40example.com`,
    /// continuations joined, ISO-8859-1 and US-ASCII converted to UTF-8, other charsets'
    /// bytes as they are) or RFC 2047 encoded-words in a plain value. Only visited when
    /// the decoded value differs from the raw text, which [`Piece::Header`] covers.
    /// `name` is the parameter's name in lower case without `*` or section number.
    Param { name: &'a str },
    /// A leaf part's content, its transfer encoding undone. `media_type` is the part's
    /// `Content-Type` in lower case without parameters ("" when it has none), `charset`
    /// its `charset` parameter in lower case.
    Body { media_type: &'a str, charset: Option<&'a str>, transfer: Transfer },
    /// A leaf part whose transfer encoding could not be undone (an unknown encoding such
    /// as `x-uuencode`, or invalid base64): its raw bytes. The caller counts it as
    /// unscannable; a replacement is written as given.
    Undecodable,
}

/// A part's `Content-Transfer-Encoding` (RFC 2045 § 6.1), as it was undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transfer {
    /// `7bit`, `8bit`, `binary`, or no header: the bytes are the content.
    Identity,
    Base64,
    QuotedPrintable,
}

/// Why a body is not the multipart it says it is. Carries a byte offset into the body,
/// never its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid multipart at byte {offset}: {kind}")]
pub struct MimeError {
    pub offset: usize,
    pub kind: MimeErrorKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MimeErrorKind {
    /// The content type (the request's, or a nested part's) has no boundary, or an
    /// empty one.
    #[error("no boundary parameter")]
    NoBoundary,
    /// A boundary longer than 200 bytes or with a line break in it.
    #[error("boundary too long or with a line break")]
    BadBoundary,
    /// No delimiter line at all.
    #[error("no delimiter line")]
    NoDelimiter,
    /// A part with no delimiter after it: the close delimiter is missing.
    #[error("no close delimiter")]
    Unterminated,
    #[error("multipart nested deeper than {MAX_DEPTH}")]
    TooDeep,
}

/// The visitor [`rewrite`] calls: a piece and its (decoded) bytes in, `Some`
/// replacement bytes or `None` out.
pub type Visit<'a> = dyn FnMut(Piece<'_>, &[u8]) -> Option<Vec<u8>> + 'a;

/// Reads `body` as the multipart its `content_type` (the whole header value, with its
/// `boundary` parameter, quoted or not) says, and calls `visit(piece, bytes)` for every
/// [`Piece`] in document order — except that a part's [`Piece::Param`]s come before
/// its [`Piece::Header`], so that the header block is handed over with the parameter
/// replacements written in and a value is never replaced twice. Nested `multipart/*`
/// parts (with `7bit`/`8bit`/`binary` or no transfer encoding, as RFC 2045 § 6.4
/// requires) are read as multiparts by their own boundary, their preamble and epilogue
/// visited too, down to [`MAX_DEPTH`]; any other part, `message/rfc822` included, is a
/// leaf.
///
/// `visit` returns `Some(bytes)` to replace the piece's (decoded) bytes, `None` to keep
/// them; a replacement equal to the bytes is no replacement. The result is `Ok(None)`
/// when nothing was replaced (forward the body as it is), else the body with each
/// replacement written in and every other byte unchanged:
/// - a base64 part re-encoded, padded, with the original's line length (that of its
///   first line; 76 for a single line that fits in 76, unwrapped for a longer one), line
///   break and final line break;
/// - a quoted-printable part re-encoded with the original's line break as the hard line
///   break, soft breaks keeping every line within 76 characters;
/// - a parameter written back as `name*=UTF-8''<percent-encoded>` in place of the
///   original (its continuations removed);
/// - an identity part, a header block, a preamble, an epilogue or an undecodable part
///   written as given (the caller keeps a delimiter out of what it writes).
pub fn rewrite(body: &[u8], content_type: &str, visit: &mut Visit<'_>) -> Result<Option<Vec<u8>>, MimeError> {
    let ct = content_type.as_bytes();
    let (_, params) = parse_params(ct, 0, ct.len());
    let boundary = boundary(ct, &params).map_err(|kind| MimeError { offset: 0, kind })?;
    let mut walker = Walker { body, visit, edits: Vec::new() };
    walker.multipart(0, body.len(), &boundary, 1)?;
    if walker.edits.is_empty() {
        Ok(None)
    } else {
        Ok(Some(splice(body, walker.edits)))
    }
}

struct Walker<'b, 'v> {
    body: &'b [u8],
    visit: &'v mut Visit<'v>,
    /// Non-overlapping, in document order.
    edits: Vec<Edit>,
}

/// A delimiter line (RFC 2046 § 5.1.1): the line break before it belongs to it, then
/// `--boundary`, `--` if it closes, transport padding, a line break (or the end).
struct Delimiter {
    /// Where `--boundary` starts.
    line: usize,
    /// Where the line break before it starts: the end of what precedes it.
    cut: usize,
    close: bool,
    /// Just after its line break.
    next: usize,
    /// Its line break.
    eol: &'static [u8],
}

impl Walker<'_, '_> {
    fn call(&mut self, piece: Piece<'_>, bytes: &[u8]) -> Option<Vec<u8>> {
        (self.visit)(piece, bytes).filter(|new| new.as_slice() != bytes)
    }

    fn replace(&mut self, start: usize, end: usize, replacement: Vec<u8>) {
        self.edits.push(Edit { start, end, replacement });
    }

    /// The multipart `body[from..to]`, `depth` levels deep.
    fn multipart(&mut self, from: usize, to: usize, boundary: &[u8], depth: usize) -> Result<(), MimeError> {
        if depth > MAX_DEPTH {
            return Err(MimeError { offset: from, kind: MimeErrorKind::TooDeep });
        }
        let mut dash = Vec::with_capacity(boundary.len() + 2);
        dash.extend_from_slice(b"--");
        dash.extend_from_slice(boundary);
        let finder = Finder::new(&dash);
        let body = self.body;
        let Some(mut delimiter) = find_delimiter(body, from, to, &finder) else {
            return Err(MimeError { offset: from, kind: MimeErrorKind::NoDelimiter });
        };
        self.text(Piece::Preamble, from, delimiter.cut);
        while !delimiter.close {
            let start = delimiter.next;
            let Some(next) = find_delimiter(body, start, to, &finder) else {
                return Err(MimeError { offset: delimiter.line, kind: MimeErrorKind::Unterminated });
            };
            self.part(start, next.cut.max(start), delimiter.eol, depth)?;
            delimiter = next;
        }
        self.text(Piece::Epilogue, delimiter.next, to);
        Ok(())
    }

    /// A preamble or an epilogue.
    fn text(&mut self, piece: Piece<'_>, start: usize, end: usize) {
        let body = self.body;
        let raw = body.get(start..end).unwrap_or_default();
        if raw.is_empty() {
            return;
        }
        if let Some(new) = self.call(piece, raw) {
            self.replace(start, end, new);
        }
    }

    /// The body part `body[start..end]`, opened by a delimiter line ending in `eol`.
    fn part(&mut self, start: usize, end: usize, eol: &'static [u8], depth: usize) -> Result<(), MimeError> {
        let body = self.body;
        let (head_end, content) = header_block(body, start, end);
        let fields = fields(body, start, head_end);
        let first = |name: &str| fields.iter().find(|f| f.name == name);
        let (media, ct_params) = match first("content-type") {
            Some(f) => {
                let (main, params) = parse_params(body, f.start, f.end);
                (lower(main), params)
            }
            None => (String::new(), Vec::new()),
        };
        let cte = first("content-transfer-encoding").map(|f| {
            let value = body.get(f.start..f.end).unwrap_or_default();
            // A comment may follow the mechanism (RFC 2045 § 6.1 allows CFWS).
            lower(value.split(|&b| b == b'(').next().unwrap_or_default())
        });

        // The parameters, each of every Content-Type and Content-Disposition (a reader
        // may take any of duplicates), before the block that holds them.
        let mut head_edits = Vec::new();
        for field in fields.iter().filter(|f| f.name == "content-type" || f.name == "content-disposition") {
            let (_, params) = parse_params(body, field.start, field.end);
            for logical in logical_params(body, &params) {
                if !logical.emit {
                    continue;
                }
                if let Some(new) = self.call(Piece::Param { name: &logical.name }, &logical.decoded) {
                    param_edits(&params, &logical, &new, start, &mut head_edits);
                }
            }
        }
        if head_end > start {
            let raw = body.get(start..head_end).unwrap_or_default();
            let edited = (!head_edits.is_empty()).then(|| splice(raw, head_edits));
            let shown = edited.as_deref().unwrap_or(raw);
            let replaced = self.call(Piece::Header, shown);
            if let Some(new) = replaced.or(edited) {
                self.replace(start, head_end, new);
            }
        }

        let transfer = match cte.as_deref() {
            None | Some("" | "7bit" | "8bit" | "binary") => Some(Transfer::Identity),
            Some("base64") => Some(Transfer::Base64),
            Some("quoted-printable") => Some(Transfer::QuotedPrintable),
            Some(_) => None,
        };
        if media.starts_with("multipart/") && transfer == Some(Transfer::Identity) {
            let boundary = boundary(body, &ct_params).map_err(|kind| MimeError { offset: start, kind })?;
            return self.multipart(content, end, &boundary, depth + 1);
        }
        let raw = body.get(content..end).unwrap_or_default();
        let eol = eol_of(raw, eol);
        let charset = ct_params.iter().find(|p| p.name == "charset").map(|p| lower(&p.value));
        let piece = |transfer| Piece::Body { media_type: &media, charset: charset.as_deref(), transfer };
        let new = match transfer {
            None => self.call(Piece::Undecodable, raw),
            Some(Transfer::Identity) => self.call(piece(Transfer::Identity), raw),
            Some(Transfer::Base64) => match base64::decode(raw) {
                None => self.call(Piece::Undecodable, raw),
                Some((data, style)) => {
                    self.call(piece(Transfer::Base64), &data).map(|new| encode_base64(&new, style, raw, eol))
                }
            },
            Some(Transfer::QuotedPrintable) => {
                let data = qp::decode(raw);
                self.call(piece(Transfer::QuotedPrintable), &data).map(|new| qp::encode(&new, eol))
            }
        };
        if let Some(new) = new {
            self.replace(content, end, new);
        }
        Ok(())
    }
}

/// The first delimiter line in `body[from..to]`: `--boundary` at the start of a line,
/// then `--` or not, spaces and tabs, and a line break or the end. A line that merely
/// starts with the boundary (`--boundaryX`) is content, as RFC 2046 readers take it.
fn find_delimiter(body: &[u8], from: usize, to: usize, finder: &Finder<'_>) -> Option<Delimiter> {
    let hay = body.get(from..to)?;
    let dash = finder.needle().len();
    for at in finder.find_iter(hay) {
        if at > 0 && hay.get(at - 1) != Some(&b'\n') {
            continue;
        }
        let mut q = at + dash;
        let close = hay.get(q..q + 2) == Some(b"--");
        if close {
            q += 2;
        }
        while matches!(hay.get(q), Some(b' ' | b'\t')) {
            q += 1;
        }
        let (next, eol) = match hay.get(q) {
            None => (q, CRLF),
            Some(b'\n') => (q + 1, LF),
            Some(b'\r') if hay.get(q + 1) == Some(&b'\n') => (q + 2, CRLF),
            Some(_) => continue,
        };
        let cut = if at == 0 {
            0
        } else if at >= 2 && hay.get(at - 2) == Some(&b'\r') {
            at - 2
        } else {
            at - 1
        };
        return Some(Delimiter { line: from + at, cut: from + cut, close, next: from + next, eol });
    }
    None
}

/// Where the header block of the part `body[start..end]` ends and its content starts:
/// the first empty line ends the headers (RFC 2045 § 3, RFC 5322 § 2.1; an empty line
/// first: no headers). A part without an empty line is all headers, with no content.
fn header_block(body: &[u8], start: usize, end: usize) -> (usize, usize) {
    let mut at = start;
    while let Some(rest) = body.get(at..end).filter(|rest| !rest.is_empty()) {
        if rest.starts_with(CRLF) {
            return (at, at + 2);
        }
        if rest.starts_with(LF) {
            return (at, at + 1);
        }
        match memchr::memchr(b'\n', rest) {
            Some(i) => at += i + 1,
            None => break,
        }
    }
    (end, end)
}

/// A header field: its name in lower case and its value's range, folded lines included.
struct Field {
    name: String,
    start: usize,
    end: usize,
}

/// The fields of the header block `body[start..end]`. A line that starts with a space
/// or a tab continues the field before it (folding, RFC 5322 § 2.2.3); a line without a
/// colon is not a field.
fn fields(body: &[u8], start: usize, end: usize) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    let mut open = false;
    let mut at = start;
    while at < end {
        let line_end = body.get(at..end).and_then(|rest| memchr::memchr(b'\n', rest)).map_or(end, |i| at + i);
        let line = body.get(at..line_end).unwrap_or_default();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let content_end = at + line.len();
        if matches!(line.first(), Some(b' ' | b'\t')) {
            if let Some(field) = out.last_mut().filter(|_| open) {
                field.end = content_end;
            }
        } else if let Some(colon) = memchr::memchr(b':', line) {
            let name = lower(line.get(..colon).unwrap_or_default());
            out.push(Field { name, start: at + colon + 1, end: content_end });
            open = true;
        } else {
            open = false;
        }
        at = line_end + 1;
    }
    out
}

/// One `name=value` parameter of a structured header value, as written.
struct Param {
    /// In lower case, as written (`filename*0*`).
    name: String,
    /// Where the `;` before it is.
    sep: usize,
    /// Where its name starts and its value (closing quote included) ends.
    start: usize,
    end: usize,
    /// The value: a quoted string's escapes undone, folding line breaks dropped.
    value: Vec<u8>,
    /// The value's bytes as written (inside the quotes).
    raw: (usize, usize),
}

/// The main value (`type/subtype`, `form-data`) and the parameters of the structured
/// header value `src[from..to]` (RFC 2045 § 5.1): `;`-separated `name=value`, a value
/// a token or a quoted string (where `;` is text and `\` escapes the next byte). Line
/// breaks are folding white space. Positions are `src`'s.
fn parse_params(src: &[u8], from: usize, to: usize) -> (&[u8], Vec<Param>) {
    let field = src.get(from..to).unwrap_or_default();
    let semicolon =
        |at: usize| field.get(at..).and_then(|rest| memchr::memchr(b';', rest)).map_or(field.len(), |i| at + i);
    let main_end = semicolon(0);
    let main = field.get(..main_end).unwrap_or_default().trim_ascii();
    let mut params = Vec::new();
    let mut at = main_end;
    while at < field.len() {
        let sep = at;
        at = skip_space(field, at + 1);
        let start = at;
        let Some(eq) = field.get(at..).and_then(|rest| rest.iter().position(|&b| b == b'=' || b == b';')) else {
            break;
        };
        let eq = at + eq;
        if field.get(eq) == Some(&b';') {
            at = eq; // a parameter without a value
            continue;
        }
        let name = lower(field.get(start..eq).unwrap_or_default());
        at = skip_space(field, eq + 1);
        let mut value = Vec::new();
        let (raw, end);
        if field.get(at) == Some(&b'"') {
            at += 1;
            let raw_start = at;
            loop {
                match field.get(at) {
                    None => {
                        raw = (raw_start, at);
                        break;
                    }
                    Some(b'"') => {
                        raw = (raw_start, at);
                        at += 1;
                        break;
                    }
                    Some(b'\\') => {
                        if let Some(&b) = field.get(at + 1).filter(|&&b| b != b'\r' && b != b'\n') {
                            value.push(b);
                        }
                        at = (at + 2).min(field.len());
                    }
                    Some(b'\r' | b'\n') => at += 1,
                    Some(&b) => {
                        value.push(b);
                        at += 1;
                    }
                }
            }
            end = at;
            at = semicolon(at);
        } else {
            let stop = semicolon(at);
            let written = field.get(at..stop).unwrap_or_default().trim_ascii_end();
            raw = (at, at + written.len());
            value.extend(written.iter().filter(|&&b| b != b'\r' && b != b'\n'));
            end = raw.1;
            at = stop;
        }
        params.push(Param {
            name,
            sep: from + sep,
            start: from + start,
            end: from + end,
            value,
            raw: (from + raw.0, from + raw.1),
        });
    }
    (main, params)
}

fn skip_space(field: &[u8], mut at: usize) -> usize {
    while field.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// A parameter as a reader sees it: one plain parameter, one extended one, or the
/// sections of a continued one joined.
struct Logical {
    /// Without `*` and section number.
    name: String,
    /// Indices of the [`Param`]s it was written as.
    members: Vec<usize>,
    decoded: Vec<u8>,
    /// The decoded value is not the raw text (extended and continued values always).
    emit: bool,
}

/// The parameters of `params` as readers decode them (RFC 2231 § 3, § 4; RFC 5987;
/// RFC 2047 encoded-words in plain values, which RFC 2047 § 5 forbids in a quoted
/// string but browsers and mail programs write and readers decode), in the order of
/// their first section.
fn logical_params(src: &[u8], params: &[Param]) -> Vec<Logical> {
    let mut out = Vec::new();
    // Per name: (section number, index into `params`, extended).
    type Sections<'p> = Vec<(&'p str, Vec<(u32, usize, bool)>)>;
    let mut sections: Sections<'_> = Vec::new();
    let plain = |i: usize, p: &Param| {
        let raw = src.get(p.raw.0..p.raw.1).unwrap_or_default();
        let decoded = decode_words(&p.value).unwrap_or_else(|| p.value.clone());
        Logical { name: p.name.clone(), members: vec![i], emit: decoded != raw, decoded }
    };
    for (i, p) in params.iter().enumerate() {
        match p.name.split_once('*') {
            Some((base, "")) => out.push(Logical {
                name: base.to_string(),
                members: vec![i],
                decoded: decode_extended(&p.value),
                emit: true,
            }),
            Some((base, rest)) => {
                let (digits, extended) = rest.strip_suffix('*').map_or((rest, false), |d| (d, true));
                match digits.parse::<u32>() {
                    Ok(n) if digits.bytes().all(|b| b.is_ascii_digit()) => {
                        match sections.iter_mut().find(|(b, _)| *b == base) {
                            Some((_, list)) => list.push((n, i, extended)),
                            None => sections.push((base, vec![(n, i, extended)])),
                        }
                    }
                    _ => out.push(plain(i, p)),
                }
            }
            None => out.push(plain(i, p)),
        }
    }
    for (base, mut list) in sections {
        list.sort_by_key(|s| s.0);
        list.dedup_by_key(|s| s.0);
        let mut bytes = Vec::new();
        let mut charset: &[u8] = b"";
        for &(n, i, extended) in &list {
            let Some(p) = params.get(i) else { continue };
            if extended {
                let mut value = p.value.as_slice();
                if n == 0 {
                    if let Some((cs, rest)) = split_charset(value) {
                        charset = cs;
                        value = rest;
                    }
                }
                percent_decode_into(value, &mut bytes);
            } else {
                bytes.extend_from_slice(&p.value);
            }
        }
        let members = list.iter().map(|s| s.1).collect();
        out.push(Logical { name: base.to_string(), members, decoded: to_utf8(bytes, charset), emit: true });
    }
    out.sort_by_key(|l| l.members.iter().min().copied().unwrap_or(0));
    out
}

/// The edits (relative to the header block at `block`) that write `new` as the value of
/// `logical`: its first section becomes `name*=UTF-8''…`, its other sections go.
fn param_edits(params: &[Param], logical: &Logical, new: &[u8], block: usize, edits: &mut Vec<Edit>) {
    let mut members: Vec<&Param> = logical.members.iter().filter_map(|&i| params.get(i)).collect();
    members.sort_by_key(|p| p.start);
    for (k, p) in members.into_iter().enumerate() {
        if k == 0 {
            let mut text = Vec::with_capacity(logical.name.len() + 9 + new.len() * 3);
            text.extend_from_slice(logical.name.as_bytes());
            text.extend_from_slice(b"*=UTF-8''");
            percent_encode_into(new, &mut text);
            edits.push(Edit {
                start: p.start.saturating_sub(block),
                end: p.end.saturating_sub(block),
                replacement: text,
            });
        } else {
            let (start, end) = (p.sep.saturating_sub(block), p.end.saturating_sub(block));
            edits.push(Edit { start, end, replacement: Vec::new() });
        }
    }
}

/// The boundary of a multipart content type's parameters (plain, or RFC 2231 extended).
fn boundary(src: &[u8], params: &[Param]) -> Result<Vec<u8>, MimeErrorKind> {
    let value = match params.iter().find(|p| p.name == "boundary") {
        Some(p) => p.value.clone(),
        None => logical_params(src, params)
            .into_iter()
            .find(|l| l.name == "boundary")
            .map(|l| l.decoded)
            .unwrap_or_default(),
    };
    if value.is_empty() {
        Err(MimeErrorKind::NoBoundary)
    } else if value.len() > MAX_BOUNDARY || value.iter().any(|&b| b == b'\r' || b == b'\n') {
        Err(MimeErrorKind::BadBoundary)
    } else {
        Ok(value)
    }
}

/// `charset'language'rest` (RFC 2231 § 4) split into charset and rest.
fn split_charset(value: &[u8]) -> Option<(&[u8], &[u8])> {
    let first = memchr::memchr(b'\'', value)?;
    let rest = value.get(first + 1..)?;
    let second = memchr::memchr(b'\'', rest)?;
    Some((value.get(..first)?, rest.get(second + 1..)?))
}

/// An extended value (`charset'language'%XX…`); without the two quotes, just its
/// percent escapes undone.
fn decode_extended(value: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(value.len());
    match split_charset(value) {
        Some((charset, rest)) => {
            percent_decode_into(rest, &mut bytes);
            to_utf8(bytes, charset)
        }
        None => {
            percent_decode_into(value, &mut bytes);
            bytes
        }
    }
}

fn percent_decode_into(value: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while let Some(&b) = value.get(i) {
        if b == b'%' {
            if let Some(byte) = hex_pair(value, i + 1) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
}

/// RFC 5987 § 3.2.1 `value-chars`: `attr-char`s as they are, every other byte `%XX`.
fn percent_encode_into(data: &[u8], out: &mut Vec<u8>) {
    for &b in data {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            out.push(b);
        } else {
            push_escape(out, b'%', b);
        }
    }
}

fn push_escape(out: &mut Vec<u8>, mark: u8, b: u8) {
    out.push(mark);
    out.push(HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0'));
    out.push(HEX.get(usize::from(b & 15)).copied().unwrap_or(b'0'));
}

fn hex_digit(b: u8) -> Option<u8> {
    char::from(b).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// The byte two hex digits (either case) at `data[at..at + 2]` spell.
fn hex_pair(data: &[u8], at: usize) -> Option<u8> {
    let high = hex_digit(*data.get(at)?)?;
    let low = hex_digit(*data.get(at + 1)?)?;
    Some(high << 4 | low)
}

/// `value` with its RFC 2047 encoded-words decoded (white space between two of them
/// dropped, § 6.2), or `None` if it has none.
fn decode_words(value: &[u8]) -> Option<Vec<u8>> {
    memchr::memmem::find(value, b"=?")?;
    let mut out = Vec::with_capacity(value.len());
    let (mut i, mut after_word, mut mark, mut any) = (0, false, 0, false);
    while let Some(&b) = value.get(i) {
        if let Some((decoded, len)) = value.get(i..).and_then(encoded_word) {
            if after_word {
                out.truncate(mark);
            }
            out.extend_from_slice(&decoded);
            i += len;
            (after_word, mark, any) = (true, out.len(), true);
            continue;
        }
        out.push(b);
        i += 1;
        after_word &= b == b' ' || b == b'\t';
    }
    any.then_some(out)
}

/// The encoded-word `=?charset?B|Q?text?=` at the start of `s` (RFC 2047 § 2, § 4; a
/// `*language` after the charset per RFC 2231 § 5), decoded, and its length.
fn encoded_word(s: &[u8]) -> Option<(Vec<u8>, usize)> {
    let rest = s.strip_prefix(b"=?")?;
    let q1 = memchr::memchr(b'?', rest)?;
    let charset = rest.get(..q1)?;
    if charset.is_empty() || charset.iter().any(u8::is_ascii_whitespace) {
        return None;
    }
    let encoding = *rest.get(q1 + 1)?;
    if rest.get(q1 + 2) != Some(&b'?') {
        return None;
    }
    let text_start = q1 + 3;
    let text_len = memchr::memmem::find(rest.get(text_start..)?, b"?=")?;
    let text = rest.get(text_start..text_start + text_len)?;
    if text.iter().any(u8::is_ascii_whitespace) {
        return None;
    }
    let bytes = match encoding {
        b'B' | b'b' => base64::decode(text)?.0,
        b'Q' | b'q' => {
            let mut out = Vec::with_capacity(text.len());
            let mut i = 0;
            while let Some(&b) = text.get(i) {
                match (b, hex_pair(text, i + 1)) {
                    (b'=', Some(byte)) => {
                        out.push(byte);
                        i += 3;
                        continue;
                    }
                    (b'_', _) => out.push(b' '),
                    _ => out.push(b),
                }
                i += 1;
            }
            out
        }
        _ => return None,
    };
    let charset = charset.split(|&b| b == b'*').next().unwrap_or_default();
    Some((to_utf8(bytes, charset), 2 + text_start + text_len + 2))
}

/// `bytes` in `charset` as UTF-8: ISO-8859-1 and US-ASCII converted; UTF-8 and any
/// other charset left as they are (their ASCII is still ASCII to the scanner).
fn to_utf8(bytes: Vec<u8>, charset: &[u8]) -> Vec<u8> {
    let latin = ["iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii"]
        .iter()
        .any(|name| charset.eq_ignore_ascii_case(name.as_bytes()));
    if latin && !bytes.is_ascii() {
        bytes.iter().map(|&b| char::from(b)).collect::<String>().into_bytes()
    } else {
        bytes
    }
}

fn lower(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes.trim_ascii()).to_ascii_lowercase()
}

/// The line break `raw` uses, else `default`.
fn eol_of(raw: &[u8], default: &'static [u8]) -> &'static [u8] {
    if memchr::memmem::find(raw, CRLF).is_some() {
        CRLF
    } else if memchr::memchr(b'\n', raw).is_some() {
        LF
    } else {
        default
    }
}

/// `data` in base64 written like `raw` was: its alphabet, padded (MIME readers require
/// padding), its first line's length, `eol` between lines, and a final line break if it
/// had one.
fn encode_base64(data: &[u8], style: base64::Style, raw: &[u8], eol: &[u8]) -> Vec<u8> {
    let text = base64::encode(data, base64::Style { padded: true, ..style });
    let trimmed = raw.trim_ascii_end();
    let width = match trimmed.iter().position(|&b| b == b'\r' || b == b'\n') {
        Some(n) if n > 0 => n,
        Some(_) => LINE,
        // One line: wrapped at 76 once it is longer, unless it already was.
        None if trimmed.len() > LINE => usize::MAX,
        None => LINE,
    };
    let mut out = Vec::with_capacity(text.len() + (text.len() / width.max(1) + 1) * eol.len());
    for (i, line) in text.chunks(width.max(1)).enumerate() {
        if i > 0 {
            out.extend_from_slice(eol);
        }
        out.extend_from_slice(line);
    }
    if raw.ends_with(LF) {
        out.extend_from_slice(eol);
    }
    out
}

/// Quoted-printable (RFC 2045 § 6.7).
mod qp {
    use super::{hex_pair, push_escape, LINE};

    /// `raw` decoded as lenient readers do: `=XX` in either case is the byte, `=` at the
    /// end of a line (trailing white space allowed) is a soft line break, trailing white
    /// space on a line is dropped (rule 3), and any other `=` is kept as it is. Hard
    /// line breaks are kept as written.
    pub(super) fn decode(raw: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(raw.len());
        for line in raw.split_inclusive(|&b| b == b'\n') {
            let (content, eol) = if let Some(c) = line.strip_suffix(b"\r\n") {
                (c, &b"\r\n"[..])
            } else if let Some(c) = line.strip_suffix(b"\n") {
                (c, &b"\n"[..])
            } else {
                (line, &b""[..])
            };
            let content = if eol.is_empty() { content } else { content.trim_ascii_end() };
            let mut soft = false;
            let mut i = 0;
            while let Some(&b) = content.get(i) {
                if b == b'=' {
                    if let Some(byte) = hex_pair(content, i + 1) {
                        out.push(byte);
                        i += 3;
                        continue;
                    }
                    if i + 1 == content.trim_ascii_end().len() {
                        soft = true;
                        break;
                    }
                }
                out.push(b);
                i += 1;
            }
            if !soft {
                out.extend_from_slice(eol);
            }
        }
        out
    }

    /// `data` in quoted-printable: printable ASCII but `=` as it is, space and tab as
    /// they are unless they end a line, every other byte `=XX`; `eol` in `data` is a hard
    /// line break (any other CR or LF is escaped, so the bytes come back exactly), and
    /// soft line breaks keep each line within 76 characters, `=` included.
    pub(super) fn encode(data: &[u8], eol: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(data.len() + data.len() / 8 + 8);
        let mut column = 0;
        let mut i = 0;
        while let Some(&b) = data.get(i) {
            let rest = data.get(i..).unwrap_or_default();
            if !eol.is_empty() && rest.starts_with(eol) {
                out.extend_from_slice(eol);
                column = 0;
                i += eol.len();
                continue;
            }
            let after = data.get(i + 1..).unwrap_or_default();
            let ends_line = after.is_empty() || (!eol.is_empty() && after.starts_with(eol));
            let literal = (b.is_ascii_graphic() && b != b'=') || (matches!(b, b' ' | b'\t') && !ends_line);
            let width = if literal { 1 } else { 3 };
            if column + width > LINE - 1 {
                out.push(b'=');
                out.extend_from_slice(eol);
                column = 0;
            }
            if literal {
                out.push(b);
            } else {
                push_escape(&mut out, b'=', b);
            }
            column += width;
            i += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CT: &str = "multipart/form-data; boundary=XyZ";

    fn describe(piece: Piece<'_>) -> String {
        match piece {
            Piece::Preamble => "preamble".into(),
            Piece::Epilogue => "epilogue".into(),
            Piece::Header => "header".into(),
            Piece::Param { name } => format!("param {name}"),
            Piece::Body { media_type, charset, transfer } => {
                format!("body {media_type} {} {transfer:?}", charset.unwrap_or("-"))
            }
            Piece::Undecodable => "undecodable".into(),
        }
    }

    /// Every piece of `body`, described, with its bytes as text.
    fn pieces(body: &[u8], content_type: &str) -> Result<Vec<(String, String)>, MimeError> {
        let mut seen = Vec::new();
        let out = rewrite(body, content_type, &mut |piece, bytes| {
            seen.push((describe(piece), String::from_utf8_lossy(bytes).into_owned()));
            None
        })?;
        assert_eq!(out, None);
        Ok(seen)
    }

    fn replace_all(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = 0;
        for i in memchr::memmem::find_iter(hay, from) {
            if i >= at {
                out.extend_from_slice(&hay[at..i]);
                out.extend_from_slice(to);
                at = i + from.len();
            }
        }
        out.extend_from_slice(&hay[at..]);
        out
    }

    /// The body with `from` replaced by `to` in every piece.
    fn replacing(body: &[u8], content_type: &str, from: &str, to: &str) -> Option<Vec<u8>> {
        rewrite(body, content_type, &mut |_, bytes| Some(replace_all(bytes, from.as_bytes(), to.as_bytes()))).unwrap()
    }

    fn lf(body: &[u8]) -> Vec<u8> {
        replace_all(body, b"\r\n", b"\n")
    }

    fn wrap(text: &[u8], width: usize, eol: &str) -> String {
        text.chunks(width).map(|c| String::from_utf8_lossy(c).into_owned()).collect::<Vec<_>>().join(eol)
    }

    fn b64(data: &[u8]) -> Vec<u8> {
        base64::encode(data, base64::Style { url_safe: false, padded: true })
    }

    const FORM: &[u8] =
        b"--XyZ\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\nmail jane.doe@example.com\r\n\
        --XyZ\r\nContent-Disposition: form-data; name=\"n\"\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n\
        ssn 123-45-6789\r\n--XyZ--\r\n";

    #[test]
    fn form_data_pieces_in_order_with_crlf_and_lf() {
        for (body, eol) in [(FORM.to_vec(), "\r\n"), (lf(FORM), "\n")] {
            let got = pieces(&body, CT).unwrap();
            let want = [
                ("header", format!("Content-Disposition: form-data; name=\"prompt\"{eol}")),
                ("body  - Identity", "mail jane.doe@example.com".to_string()),
                (
                    "header",
                    format!(
                        "Content-Disposition: form-data; name=\"n\"{eol}Content-Type: text/plain; charset=UTF-8{eol}"
                    ),
                ),
                ("body text/plain utf-8 Identity", "ssn 123-45-6789".to_string()),
            ];
            let want: Vec<(String, String)> = want.iter().map(|(d, t)| (d.to_string(), t.clone())).collect();
            assert_eq!(got, want, "{eol:?}");
            let out = replacing(&body, CT, "jane.doe@example.com", "[EMAIL]").unwrap();
            assert_eq!(out, replace_all(&body, b"jane.doe@example.com", b"[EMAIL]"));
        }
    }

    #[test]
    fn nothing_replaced_is_none() {
        let bodies: Vec<(Vec<u8>, &str)> = vec![
            (FORM.to_vec(), CT),
            (lf(FORM), CT),
            (base64_body(76, "\r\n").0, CT),
            (QP_BODY.to_vec(), CT),
            (NESTED.to_vec(), CT),
            (PARAMS.to_vec(), CT),
            (b"preamble\r\n--XyZ\r\n\r\nx\r\n--XyZ--\r\nepilogue".to_vec(), CT),
        ];
        for (body, ct) in bodies {
            assert_eq!(rewrite(&body, ct, &mut |_, _| None).unwrap(), None);
            // A replacement equal to the bytes is no replacement either.
            assert_eq!(rewrite(&body, ct, &mut |_, bytes| Some(bytes.to_vec())).unwrap(), None);
        }
    }

    const TEXT: &str = "Dear team, please file the claim for Jane Doe (jane.doe@example.com, SSN 123-45-6789) \
        before Friday; her phone is 555-0100 and she prefers mail over calls.";

    /// A form with a base64 text file, lines of `width` ended by `eol`, and the base64.
    fn base64_body(width: usize, eol: &str) -> (Vec<u8>, String) {
        let encoded = wrap(&b64(TEXT.as_bytes()), width, eol);
        let body = format!(
            "--XyZ{eol}Content-Disposition: form-data; name=\"file\"; filename=\"a.txt\"{eol}\
             Content-Type: text/plain; charset=utf-8{eol}Content-Transfer-Encoding: Base64{eol}{eol}\
             {encoded}{eol}--XyZ--{eol}"
        );
        (body.into_bytes(), encoded)
    }

    #[test]
    fn base64_parts_are_decoded_and_re_encoded_alike() {
        for (width, eol) in [(76, "\r\n"), (64, "\n"), (40, "\r\n")] {
            let (body, encoded) = base64_body(width, eol);
            let got = pieces(&body, CT).unwrap();
            assert_eq!(got.last().unwrap(), &("body text/plain utf-8 Base64".to_string(), TEXT.to_string()));
            let out = replacing(&body, CT, "jane.doe@example.com", "\u{ab}token:EMAIL:1\u{bb}").unwrap();
            let replaced = TEXT.replace("jane.doe@example.com", "\u{ab}token:EMAIL:1\u{bb}");
            let want_b64 = wrap(&b64(replaced.as_bytes()), width, eol);
            let want = String::from_utf8(body.clone()).unwrap().replace(&encoded, &want_b64);
            assert_eq!(String::from_utf8(out.clone()).unwrap(), want, "{width} {eol:?}");
            let again = pieces(&out, CT).unwrap();
            assert_eq!(again.last().unwrap().1, replaced);
        }
        // One unwrapped line stays one line when longer than 76; a short one wraps at 76.
        let long = b64(TEXT.as_bytes());
        let encoded =
            encode_base64(b"x".repeat(200).as_slice(), base64::Style { url_safe: false, padded: true }, &long, CRLF);
        assert!(!encoded.contains(&b'\n'));
        let wrapped = encode_base64(&[b'x'; 199], base64::Style { url_safe: false, padded: false }, b"eHh4\r\n", CRLF);
        let lines: Vec<&[u8]> = wrapped.split(|&b| b == b'\n').collect();
        assert_eq!(lines.iter().map(|l| l.len()).collect::<Vec<_>>(), [77, 77, 77, 41, 0]);
        assert!(wrapped.ends_with(b"==\r\n"), "always padded");
    }

    const QP_BODY: &[u8] =
        b"--XyZ\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
        Mail jane.doe@exa=\r\nmple.com, a =3D sign, caf=C3=a9 =ZZ  \r\n\
        ssn 123-45-=   \r\n6789 end\r\n--XyZ--\r\n";

    #[test]
    fn quoted_printable_parts_with_soft_breaks() {
        let decoded = "Mail jane.doe@example.com, a = sign, caf\u{e9} =ZZ\r\nssn 123-45-6789 end";
        for (body, eol) in [(QP_BODY.to_vec(), "\r\n"), (lf(QP_BODY), "\n")] {
            let got = pieces(&body, CT).unwrap();
            let want = decoded.replace("\r\n", eol);
            assert_eq!(got.last().unwrap(), &("body text/plain utf-8 QuotedPrintable".to_string(), want.clone()));
            let long = format!("{} {}", "x".repeat(100), "\u{ab}token:EMAIL:1\u{bb}");
            let out = replacing(&body, CT, "jane.doe@example.com", &long).unwrap();
            let again = pieces(&out, CT).unwrap();
            assert_eq!(again.last().unwrap().1, want.replace("jane.doe@example.com", &long));
            let text = String::from_utf8(out).unwrap();
            assert!(text.split(eol).all(|line| line.len() <= 76), "{text}");
            if eol == "\n" {
                assert!(!text.contains('\r'));
            }
        }
    }

    #[test]
    fn quoted_printable_vectors() {
        for (raw, decoded) in [
            (&b"a=3Db=3db"[..], &b"a=b=b"[..]),
            (b"soft=\r\nbreak", b"softbreak"),
            (b"soft= \t\nbreak", b"softbreak"),
            (b"trailing  \r\nspace\t\n", b"trailing\r\nspace\n"),
            (b"bad =G1 =4", b"bad =G1 =4"),
            (b"end=", b"end"),
            (b"=E2=82=AC", "\u{20ac}".as_bytes()),
        ] {
            assert_eq!(qp::decode(raw), decoded, "{}", String::from_utf8_lossy(raw));
        }
        for (data, eol, encoded) in [
            (&b"a=b \xc3\xa9"[..], CRLF, &b"a=3Db =C3=A9"[..]),
            (b"line \r\nnext\t", CRLF, b"line=20\r\nnext=09"),
            (b"lone\nlf", CRLF, b"lone=0Alf"),
            (b"lone\nlf", LF, b"lone\nlf"),
        ] {
            assert_eq!(qp::encode(data, eol), encoded, "{}", String::from_utf8_lossy(data));
        }
        for data in [
            "x".repeat(300),
            format!("{}=", "y".repeat(74)),
            format!("{}\u{e9}\u{e9}\u{e9}", "z".repeat(73)),
            format!("{} \r\n{}", "a".repeat(75), "b ".repeat(60)),
        ] {
            for eol in [CRLF, LF] {
                let encoded = qp::encode(data.as_bytes(), eol);
                let data = data.replace("\r\n", std::str::from_utf8(eol).unwrap());
                let encoded2 = qp::encode(data.as_bytes(), eol);
                for e in [&encoded, &encoded2] {
                    assert!(e.split(|&b| b == b'\n').all(|l| l.strip_suffix(b"\r").unwrap_or(l).len() <= 76));
                }
                assert_eq!(qp::decode(&encoded2), data.as_bytes());
            }
        }
    }

    const NESTED: &[u8] = b"--XyZ\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\nhi\r\n\
        --XyZ\r\nContent-Disposition: form-data; name=\"files\"\r\nContent-Type: multipart/mixed; boundary=\"in ner\"\r\n\r\n\
        inner preamble\r\n--in ner\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n\
        bWFpbCBqYW5lLmRvZUBleGFtcGxlLmNvbQ==\r\n\
        --in ner\r\nContent-Type: multipart/alternative; boundary=deep\r\n\r\n\
        --deep\r\nContent-Type: text/plain\r\n\r\nssn 123-45-6789\r\n--deep--\r\n\
        --in ner--\r\ninner epilogue\r\n--XyZ--\r\n";

    #[test]
    fn nested_multiparts_are_read_as_multiparts() {
        let got = pieces(NESTED, CT).unwrap();
        let descriptions: Vec<&str> = got.iter().map(|(d, _)| d.as_str()).collect();
        assert_eq!(
            descriptions,
            [
                "header",
                "body  - Identity",
                "header",
                "preamble",
                "header",
                "body text/plain - Base64",
                "header",
                "header",
                "body text/plain - Identity",
                "epilogue",
            ]
        );
        assert_eq!(got[3].1, "inner preamble");
        assert_eq!(got[5].1, "mail jane.doe@example.com");
        assert_eq!(got[8].1, "ssn 123-45-6789");
        assert_eq!(got[9].1, "inner epilogue");
        let out = replacing(NESTED, CT, "jane.doe@example.com", "[EMAIL]").unwrap();
        let out = rewrite(&out, CT, &mut |_, b| Some(replace_all(b, b"123-45-6789", b"[SSN]"))).unwrap().unwrap();
        let again = pieces(&out, CT).unwrap();
        assert_eq!(again[5].1, "mail [EMAIL]");
        assert_eq!(again[8].1, "ssn [SSN]");
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\r\nbWFpbCBbRU1BSUxd\r\n--in ner\r\n"), "{text}");
    }

    const PARAMS: &[u8] = b"--XyZ\r\nContent-Disposition: form-data; name=\"f1\"; filename*=UTF-8''jane.doe%40example.com\r\n\r\n\
        a\r\n--XyZ\r\nContent-Disposition: form-data; name=\"f2\";\r\n filename*0*=UTF-8''jane.doe; filename*1*=%40exa;\r\n\
        \tfilename*2=\"mple.com\"\r\nContent-Type: text/plain\r\n\r\nb\r\n\
        --XyZ\r\nContent-Disposition: form-data; name=\"f3\"; filename=\"=?UTF-8?B?amFuZS5kb2VAZXhhbXBsZS5jb20=?=\"\r\n\r\nc\r\n\
        --XyZ\r\ncontent-disposition: FORM-DATA; NAME=\"f4\"; filename=\"=?iso-8859-1?q?caf=E9_jane?= =?utf-8?Q?=2Edoe?=.txt\"\r\n\r\nd\r\n\
        --XyZ\r\nContent-Disposition: form-data; name=\"f5\"; filename*=iso-8859-1'en'caf%E9.txt; x=\"a;\\\"b\"\r\n\r\ne\r\n\
        --XyZ--\r\n";

    #[test]
    fn parameters_are_decoded_as_readers_decode_them() {
        let got = pieces(PARAMS, CT).unwrap();
        let params: Vec<(&str, &str)> =
            got.iter().filter(|(d, _)| d.starts_with("param")).map(|(d, t)| (d.as_str(), t.as_str())).collect();
        assert_eq!(
            params,
            [
                ("param filename", "jane.doe@example.com"),
                ("param filename", "jane.doe@example.com"),
                ("param filename", "jane.doe@example.com"),
                ("param filename", "caf\u{e9} jane.doe.txt"),
                ("param filename", "caf\u{e9}.txt"),
                ("param x", "a;\"b"),
            ]
        );
        // Params come before their header block; plain values (name="f1") are not params.
        assert_eq!(got[0].0, "param filename");
        assert_eq!(got[1].0, "header");
    }

    #[test]
    fn a_replaced_parameter_is_written_in_extended_form() {
        let mut headers = Vec::new();
        let out = rewrite(PARAMS, CT, &mut |piece, bytes| {
            if piece == Piece::Header {
                headers.push(String::from_utf8_lossy(bytes).into_owned());
            }
            match piece {
                Piece::Param { .. } => Some(replace_all(bytes, b"jane.doe@example.com", "\u{ab}E\u{bb}".as_bytes())),
                _ => None,
            }
        })
        .unwrap()
        .unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.contains("name=\"f1\"; filename*=UTF-8''%C2%ABE%C2%BB\r\n"), "{text}");
        assert!(text.contains("name=\"f2\";\r\n filename*=UTF-8''%C2%ABE%C2%BB\r\nContent-Type"), "{text}");
        assert!(text.contains("name=\"f3\"; filename*=UTF-8''%C2%ABE%C2%BB\r\n"), "{text}");
        // Untouched parameters stay as written.
        assert!(text.contains("filename=\"=?iso-8859-1?q?caf=E9_jane?= =?utf-8?Q?=2Edoe?=.txt\""));
        // The header block is handed over with the replacement written in.
        assert!(headers[0].contains("filename*=UTF-8''%C2%ABE%C2%BB"));
        let again = pieces(&out, CT).unwrap();
        let firsts: Vec<&str> =
            again.iter().filter(|(d, _)| d == "param filename").map(|(_, t)| t.as_str()).take(3).collect();
        assert_eq!(firsts, ["\u{ab}E\u{bb}"; 3]);
    }

    #[test]
    fn preamble_and_epilogue_are_visited_and_replaced() {
        let body =
            b"This is a preamble: jane.doe@example.com\r\n--XyZ\r\n\r\nx\r\n--XyZ--  \r\nepilogue 123-45-6789\r\n";
        let got = pieces(body, CT).unwrap();
        assert_eq!(
            got,
            [
                ("preamble".to_string(), "This is a preamble: jane.doe@example.com".to_string()),
                ("body  - Identity".to_string(), "x".to_string()),
                ("epilogue".to_string(), "epilogue 123-45-6789\r\n".to_string()),
            ]
        );
        let out = rewrite(body, CT, &mut |piece, _| match piece {
            Piece::Preamble => Some(b"P".to_vec()),
            Piece::Epilogue => Some(b"E".to_vec()),
            _ => None,
        })
        .unwrap();
        assert_eq!(out.unwrap(), b"P\r\n--XyZ\r\n\r\nx\r\n--XyZ--  \r\nE");
    }

    #[test]
    fn delimiter_lines() {
        type Case<'a> = (&'a [u8], &'a str, &'a [(&'a str, &'a str)]);
        let table: &[Case<'_>] = &[
            // Transport padding; a line that only starts with the boundary is content.
            (b"--XyZ \t\r\n\r\na\r\n--XyZabc\r\nb\r\n--XyZ--", CT, &[("body  - Identity", "a\r\n--XyZabc\r\nb")]),
            // An empty part, a part with headers and no empty line, a part with no headers.
            (
                b"--XyZ\r\n\r\n\r\n--XyZ\r\nX-A: 1\r\n--XyZ\r\n\r\nc\r\n--XyZ--\r\n",
                "multipart/mixed; boundary=\"XyZ\"",
                &[("body  - Identity", ""), ("header", "X-A: 1"), ("body  - Identity", ""), ("body  - Identity", "c")],
            ),
            // A quoted boundary with `;` in it, and a folded content type.
            (
                b"--a;b\n\nx\n--a;b--",
                "multipart/form-data;\r\n\tboundary=\"a;b\"; charset=x",
                &[("body  - Identity", "x")],
            ),
            // No parts at all: only a close delimiter.
            (b"pre\r\n--XyZ--\r\n", CT, &[("preamble", "pre")]),
        ];
        for (body, ct, want) in table {
            let want: Vec<(String, String)> = want.iter().map(|(d, t)| (d.to_string(), t.to_string())).collect();
            assert_eq!(pieces(body, ct).unwrap(), want, "{}", String::from_utf8_lossy(body));
        }
    }

    #[test]
    fn malformed_multiparts_are_errors() {
        fn nest(levels: usize) -> Vec<u8> {
            let mut inner = b"--b0\r\n\r\nx\r\n--b0--".to_vec();
            for level in 1..levels {
                let mut outer = format!("--b{level}\r\nContent-Type: multipart/mixed; boundary=b{}\r\n\r\n", level - 1)
                    .into_bytes();
                outer.extend_from_slice(&inner);
                outer.extend_from_slice(format!("\r\n--b{level}--").as_bytes());
                inner = outer;
            }
            inner
        }
        let long = format!("multipart/form-data; boundary={}", "b".repeat(201));
        let deep = nest(MAX_DEPTH + 1);
        let deepest_ok = nest(MAX_DEPTH);
        let table: Vec<(&[u8], String, MimeErrorKind)> = vec![
            (b"--XyZ\r\n\r\nx\r\n--XyZ--", "multipart/form-data".into(), MimeErrorKind::NoBoundary),
            (b"--XyZ\r\n\r\nx\r\n--XyZ--", "multipart/form-data; boundary=\"\"".into(), MimeErrorKind::NoBoundary),
            (b"--XyZ\r\n\r\nx\r\n--XyZ--", long, MimeErrorKind::BadBoundary),
            (b"no delimiter here", CT.into(), MimeErrorKind::NoDelimiter),
            (b"--XyZabc\r\n\r\nx", CT.into(), MimeErrorKind::NoDelimiter),
            (b"--XyZ\r\n\r\nx\r\n--XyZ\r\n\r\ntruncated mid-pa", CT.into(), MimeErrorKind::Unterminated),
            (b"--XyZ\r\n\r\nx\r\n--XyZ", CT.into(), MimeErrorKind::Unterminated),
            (b"--XyZ\r\n\r\nx\r\n--XyZ--x", CT.into(), MimeErrorKind::Unterminated),
            (b"--XyZ\r\nContent-Type: multipart/mixed\r\n\r\nx\r\n--XyZ--", CT.into(), MimeErrorKind::NoBoundary),
            (
                b"--XyZ\r\nContent-Type: multipart/mixed; boundary=in\r\n\r\n--in\r\n\r\nx\r\n--XyZ--",
                CT.into(),
                MimeErrorKind::Unterminated,
            ),
            (&deep, format!("multipart/mixed; boundary=b{MAX_DEPTH}"), MimeErrorKind::TooDeep),
        ];
        for (body, ct, kind) in table {
            let err = rewrite(body, &ct, &mut |_, _| None).unwrap_err();
            assert_eq!(err.kind, kind, "{}", String::from_utf8_lossy(body));
            assert!(err.to_string().starts_with("invalid multipart at byte "));
        }
        let ct = format!("multipart/mixed; boundary=b{}", MAX_DEPTH - 1);
        assert_eq!(pieces(&deepest_ok, &ct).unwrap().last().unwrap().1, "x");
        let err = rewrite(b"--XyZ\r\n\r\nx\r\n--XyZ\r\n\r\ny", CT, &mut |_, _| None).unwrap_err();
        assert_eq!(err, MimeError { offset: 12, kind: MimeErrorKind::Unterminated });
    }

    #[test]
    fn undecodable_and_binary_parts() {
        let body = b"--XyZ\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nbegin 644 a\r\n\
            --XyZ\r\nContent-Transfer-Encoding: base64\r\n\r\nnot base64!\r\n\
            --XyZ\r\nContent-Type: image/png\r\n\r\n\x89PNG\x00jane.doe@example.com\r\n\
            --XyZ\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: BASE64\r\n\r\nAAEC\r\n--XyZ--";
        let got = pieces(body, CT).unwrap();
        let descriptions: Vec<&str> = got.iter().map(|(d, _)| d.as_str()).filter(|d| *d != "header").collect();
        assert_eq!(
            descriptions,
            ["undecodable", "undecodable", "body image/png - Identity", "body application/octet-stream - Base64"]
        );
        let out = rewrite(body, CT, &mut |piece, bytes| match piece {
            Piece::Undecodable => Some(b"U".to_vec()),
            Piece::Body { transfer: Transfer::Identity, .. } => Some(replace_all(bytes, b"jane.doe@example.com", b"E")),
            Piece::Body { transfer: Transfer::Base64, .. } => {
                assert_eq!(bytes, [0, 1, 2]);
                Some(vec![0xff, 0, 0xfe, 1])
            }
            _ => None,
        })
        .unwrap()
        .unwrap();
        let want = b"--XyZ\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nU\r\n\
            --XyZ\r\nContent-Transfer-Encoding: base64\r\n\r\nU\r\n\
            --XyZ\r\nContent-Type: image/png\r\n\r\n\x89PNG\x00E\r\n\
            --XyZ\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: BASE64\r\n\r\n/wD+AQ==\r\n--XyZ--";
        assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(want));
    }

    #[test]
    fn header_blocks_and_folded_fields() {
        let body = b"--XyZ\r\ncontent-type: text/plain;\r\n  charset=\"ISO-8859-1\"\r\nCONTENT-TRANSFER-ENCODING: Quoted-Printable (a comment)\r\n\
            X-Note: jane.doe@example.com\r\n\r\ncaf=E9\r\n--XyZ--";
        let got = pieces(body, CT).unwrap();
        assert_eq!(got[1], ("body text/plain iso-8859-1 QuotedPrintable".to_string(), "caf\u{fffd}".to_string()));
        let out = replacing(body, CT, "jane.doe@example.com", "[EMAIL]").unwrap();
        assert_eq!(out, replace_all(body, b"jane.doe@example.com", b"[EMAIL]"));
        // A header block replacement is written as given.
        let out = rewrite(body, CT, &mut |piece, _| (piece == Piece::Header).then(|| b"X: y\r\n".to_vec())).unwrap();
        assert_eq!(out.unwrap(), b"--XyZ\r\nX: y\r\n\r\ncaf=E9\r\n--XyZ--");
    }

    #[test]
    fn parameter_parsing() {
        let src = b"form-data; name=\"a;b\\\"c\"; filename = plain.txt ;x; y=\"unterminated";
        let (main, params) = parse_params(src, 0, src.len());
        assert_eq!(main, b"form-data");
        let got: Vec<(&str, &[u8])> = params.iter().map(|p| (p.name.as_str(), p.value.as_slice())).collect();
        assert_eq!(got, [("name", &b"a;b\"c"[..]), ("filename", b"plain.txt"), ("y", b"unterminated")]);
        assert_eq!(&src[params[1].start..params[1].end], b"filename = plain.txt");
        assert_eq!(decode_words(b"no words"), None);
        assert_eq!(decode_words(b"=?bad"), None);
        assert_eq!(decode_words(b"a =?UTF-8?Q?b?=  =?UTF-8?B?Yw==?= d").unwrap(), b"a bc d");
        let mut out = Vec::new();
        percent_encode_into("a b@\u{e9}.txt".as_bytes(), &mut out);
        assert_eq!(out, b"a%20b%40%C3%A9.txt");
    }
}
