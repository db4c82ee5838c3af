//! Window finders and gate tests of the core catalog's credential and CJK rules: where a
//! `.pgpass` line, a URL's credentials, a password after its label, a birth date after
//! its CJK label may be, found cheaply so that the rule's regex runs only there.

use crate::engine::text::{block_bits, chains, shifted, Mark, Needs, Text};
use crate::rule::{keyword_windows, push_window, WindowFinder};

/// MAC gate: six hex pairs joined by one separator kind, anywhere (`hh:hh:hh:hh:hh:hh`).
pub fn mac_like(t: &Text<'_>) -> bool {
    let text = t.bytes();
    let hex = |i: usize| text.get(i).is_some_and(u8::is_ascii_hexdigit);
    // Cisco's `hhhh.hhhh.hhhh`: two dots five bytes apart (found by the dots' masks,
    // a block at a time), then the hex digits around them.
    let quad = |i: usize| (i..i + 4).all(hex);
    let dotted = chains(t.mark_masks(Mark::Dot), 5, 2)
        .any(|at| text.get(at + 5) == Some(&b'.') && at >= 4 && quad(at - 4) && quad(at + 1) && quad(at + 6));
    if dotted {
        return true;
    }
    // Five separators three bytes apart, by their masks: a log's `10:00:00` and a
    // UUID's dashes have hex digits around them but not five in a row.
    let full = |at: usize| {
        let sep = text.get(at).copied();
        (1..5).all(|k| text.get(at + 3 * k).copied() == sep)
            && at >= 2
            && hex(at - 2)
            && hex(at - 1)
            && (0..5).all(|k| hex(at + 3 * k + 1) && hex(at + 3 * k + 2))
    };
    chains(t.mark_masks(Mark::Colon), 3, 5).any(full)
        || chains(t.dash_masks(), 3, 5).filter(|&at| text.get(at) == Some(&b'-')).any(full)
}

/// Connection-string windows: around each `://`, from the longest scheme before it to
/// the end of the run of non-space bytes after it (a match never crosses a space).
pub fn scheme_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let text = t.bytes();
    /// The longest scheme the rule reads.
    const LONGEST_SCHEME: usize = 20;
    let mut windows: Vec<(usize, usize)> = Vec::new();
    // By the masks: a `:` with `/` at the next two bytes.
    let (colons, slashes) = (t.mark_masks(Mark::Colon), t.mark_masks(Mark::Slash));
    let schemes = block_bits(colons, |b, colon| colon & shifted(slashes, b, 1) & shifted(slashes, b, 2));
    for at in schemes {
        if windows.last().is_some_and(|last| at < last.1) {
            continue; // inside the previous window: already searched
        }
        let s = at.saturating_sub(LONGEST_SCHEME);
        let rest = text.get(at..).unwrap_or_default();
        let e = at + rest.iter().position(u8::is_ascii_whitespace).unwrap_or(rest.len());
        push_window(&mut windows, s, e);
    }
    windows
}

/// [`scheme_windows`] as a rule's window finder; it finds nothing without a `://`.
pub const SCHEME_WINDOWS: WindowFinder = WindowFinder { find: scheme_windows, needs: Needs::OPERATOR.and(Needs::MARK) };

/// PostgreSQL password-file lines (`hostname:port:database:username:password`, the
/// libpq manual's "The Password File"): at each `:` followed by a port or `*` and
/// another `:`, the line if the host name before it begins the line or a quoted string
/// (`echo 'db:5432:…' >> ~/.pgpass`). A log's `10:00:00` has a word before its host.
/// The colons come from the masks: only those with a digit after them (a port) or a
/// `:` two bytes on (`*:`) are read.
pub fn pgpass_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let mut windows: Vec<(usize, usize)> = Vec::new();
    let (colons, digits) = (t.mark_masks(Mark::Colon), t.digit_masks());
    for at in block_bits(colons, |b, colon| colon & (shifted(digits, b, 1) | shifted(colons, b, 2))) {
        if windows.last().is_some_and(|last| at < last.1) {
            continue; // on a line already taken
        }
        if let Some((start, end)) = pgpass_line(t.bytes(), at) {
            push_window(&mut windows, start, end);
        }
    }
    windows
}

/// The `.pgpass` line whose port field begins after the `:` at `at`, or `None`: a port
/// (1 to 5 digits) or `*`, then a `:`, and a host name before `at` that begins the line
/// or a quoted string.
fn pgpass_line(text: &[u8], at: usize) -> Option<(usize, usize)> {
    let port = text.get(at + 1..).unwrap_or_default();
    let digits = port.iter().take(6).take_while(|b| b.is_ascii_digit()).count();
    let port_ok = ((1..=5).contains(&digits) && port.get(digits) == Some(&b':')) || port.starts_with(b"*:");
    if !port_ok {
        return None;
    }
    // The host: back from the colon to a blank, a quote or the line's start.
    let mut host = at;
    while host > 0 && !matches!(text.get(host - 1), Some(b' ' | b'\t' | b'\'' | b'"' | b'\n')) {
        host -= 1;
    }
    let mut blank = host;
    while blank > 0 && matches!(text.get(blank - 1), Some(b' ' | b'\t')) {
        blank -= 1;
    }
    let begins_line = blank == 0 || text.get(blank - 1) == Some(&b'\n');
    let quoted = host > 0 && matches!(text.get(host - 1), Some(b'\'' | b'"'));
    if host >= at || !(begins_line || quoted) {
        return None;
    }
    let start = memchr::memrchr(b'\n', text.get(..host).unwrap_or_default()).map_or(0, |n| n + 1);
    let rest = text.get(at..).unwrap_or_default();
    Some((start, at + memchr::memchr(b'\n', rest).unwrap_or(rest.len())))
}

/// [`pgpass_windows`] as a rule's window finder; it finds nothing without a `:` (an
/// operator's byte).
pub const PGPASS_WINDOWS: WindowFinder = WindowFinder { find: pgpass_windows, needs: Needs::OPERATOR };

/// The password of a `.pgpass` line: a plausible password
/// ([`crate::finders::assign::plausible_password`]) that is not only digits (`12:30:45:10:2024`).
pub(crate) fn pgpass_password(v: &[u8]) -> bool {
    crate::finders::assign::plausible_password(v) && !v.iter().all(u8::is_ascii_digit)
}

/// `(at)` or `[at]` (or German `ät`) somewhere in the text, any case, blanks inside
/// the brackets allowed: what `pii.email.obfuscated.bracketed.v1` puts between a name and its
/// domain.
pub fn bracketed_at(t: &Text<'_>) -> bool {
    let text = t.bytes();
    let blanks = |from: usize| {
        from + text.get(from..).unwrap_or_default().iter().take_while(|&&b| b == b' ' || b == b'\t').count()
    };
    // `at`, or German `ät` (`Ä` too).
    let at_then = |open: usize, close: u8| {
        let word = blanks(open + 1);
        let len = match text.get(word..word + 3) {
            Some([0xC3, 0xA4 | 0x84, b't' | b'T']) => 3,
            _ if text.get(word..word + 2).is_some_and(|w| w.eq_ignore_ascii_case(b"at")) => 2,
            _ => return false,
        };
        text.get(blanks(word + len)) == Some(&close)
    };
    t.positions(Mark::Paren).any(|open| at_then(open, b')'))
        || t.positions(Mark::Bracket).any(|open| at_then(open, b']'))
}

/// `-u` or `--user` as a command-line flag somewhere in the text.
pub fn user_flag(t: &Text<'_>) -> bool {
    // `--user` and `--proxy-user` contain `-u` too. By the masks first: a `-` or `_`
    // with a letter after it.
    let (dashes, alnum, digits) = (t.dash_masks(), t.alnum_masks(), t.digit_masks());
    block_bits(dashes, |b, dash| dash & shifted(alnum, b, 1) & !shifted(digits, b, 1))
        .any(|at| t.bytes().get(at..at + 2) == Some(b"-u"))
}

/// Windows after the words for "password" in Japanese, Chinese and Korean: the next
/// 96 bytes.
pub fn password_cjk_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    const WORDS: &[&[u8]] = &[
        "パスワード".as_bytes(),
        "暗証番号".as_bytes(),
        "密码".as_bytes(),
        "密碼".as_bytes(),
        "口令".as_bytes(),
        "비밀번호".as_bytes(),
        "암호".as_bytes(),
    ];
    keyword_windows(t, WORDS, |at, _| (at, at + 96))
}

/// [`password_cjk_windows`] as a rule's window finder; it finds nothing without a
/// non-ASCII byte (its keywords are CJK).
pub const PASSWORD_CJK_WINDOWS: WindowFinder = WindowFinder { find: password_cjk_windows, needs: Needs::NON_ASCII };

/// Windows after the birth-date labels of Chinese, Japanese and Korean (`生年月日`,
/// `出生日期`, `出生年月日`, `生日`, `생년월일`, `생일`): the next 40 bytes.
pub fn cjk_birth_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    const LABELS: &[&[u8]] = &[
        "生年月日".as_bytes(),
        "出生日期".as_bytes(),
        "出生年月".as_bytes(),
        "生日".as_bytes(),
        "생년월일".as_bytes(),
        "생일".as_bytes(),
    ];
    keyword_windows(t, LABELS, |at, len| (at + len, at + len + 40))
}

/// [`cjk_birth_windows`] as a rule's window finder; it finds nothing without a
/// non-ASCII byte (its labels are CJK).
pub const CJK_BIRTH_WINDOWS: WindowFinder = WindowFinder { find: cjk_birth_windows, needs: Needs::NON_ASCII };

/// Windows after the Russian and Turkish words for a password (`пароль`, `Пароль`,
/// `şifre`, `Şifre`), which no ASCII byte begins: by `memmem` of a part of them (run
/// only in texts with a byte of 0x80 and up: [`PASSWORD_LABEL_WINDOWS`]).
fn password_label_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let text = t.bytes();
    // `ароль` is in every form the pattern reads (`пароль`, `пароля`, `Пароль`); `ifre`
    // after `ş` or `Ş`. A window begins at the word's first letter.
    let mut starts: Vec<usize> =
        memchr::memmem::find_iter(text, "арол".as_bytes()).map(|at| at.saturating_sub(2)).collect();
    starts.extend(
        memchr::memmem::find_iter(text, b"ifre")
            .filter(|&at| at >= 2 && matches!(text.get(at - 2..at), Some([0xC5, 0x9E | 0x9F])))
            .map(|at| at - 2),
    );
    starts.sort_unstable();
    let mut windows = Vec::new();
    for start in starts {
        push_window(&mut windows, start, (start + 200).min(text.len()));
    }
    windows
}

/// [`password_label_windows`] as a rule's window finder; it finds nothing without a
/// non-ASCII byte (its words are Cyrillic or Turkish).
pub(crate) const PASSWORD_LABEL_WINDOWS: WindowFinder =
    WindowFinder { find: password_label_windows, needs: Needs::NON_ASCII };

#[cfg(test)]
mod tests {
    use super::*;

    /// The `.pgpass` windows from the masks' candidates are those of a walk over every
    /// `:` (the masks drop no colon where a line begins), on
    /// texts dense in colons, digits, `*`, blanks, quotes and line breaks, across blocks.
    #[test]
    fn pgpass_windows_agree_with_a_walk_over_every_colon() {
        // Every colon, not only the masks' candidates.
        let walk = |text: &[u8]| {
            let mut windows: Vec<(usize, usize)> = Vec::new();
            for at in memchr::memchr_iter(b':', text) {
                if windows.last().is_some_and(|last| at < last.1) {
                    continue;
                }
                if let Some((start, end)) = pgpass_line(text, at) {
                    push_window(&mut windows, start, end);
                }
            }
            windows
        };
        let (mut seed, mut found) = (9u64, 0);
        for len in [0, 1, 5, 63, 64, 65, 130, 700, 3000] {
            for _ in 0..20 {
                let text = crate::engine::text::sample(&mut seed, len, b"h:5432*:\n db'\"1:x");
                let windows = pgpass_windows(&Text::new(&text));
                assert_eq!(windows, walk(&text), "{}", String::from_utf8_lossy(&text));
                found += windows.len();
            }
        }
        assert!(found > 100, "{found}");
    }
}
