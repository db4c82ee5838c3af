//! National numbering plans (a plan per country: lengths, leading digits, trunk prefix, how numbers are grouped), and the finder that reads a phone number by them: international, national, after a label, or with a slash.

use crate::engine::text::{Mark, Text};
use crate::engine::wordset::WordSet;
use crate::rule::{push_window, Context};

/// `token_pattern!(r"[ .\-]")` without a regex: the span of its group (the number),
/// from the leftmost match at or after `from`. See [`token_at`].
pub fn find_token(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    token_at(hay, from, |b| matches!(b, b' ' | b'.' | b'-'))
}

/// `token_pattern!(r"[ ./\-]")` without a regex (the slash is a connector too).
pub fn find_token_slash(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    token_at(hay, from, |b| matches!(b, b' ' | b'.' | b'/' | b'-'))
}

/// The group of [`token_pattern!`] with these connectors, as the regex finds it: the
/// leftmost whole match at or after `from` (its guard, spaces, then the number), in
/// the regex's order of preference. Every part of the number is decided by the bytes:
/// a run of digits is taken whole (a shorter one leaves a digit where a connector, a
/// `)` or the final `\b` must be), the optional `(area) ` is taken when it is there,
/// and the connectors' three forms begin with different bytes; only the number of
/// groups is backtracked, to the last one after which a word boundary follows. The
/// regex's captures search of every numeric run cost more than anything else the
/// phone rules did (BENCHMARKS.md §2); a test compares the two on generated text.
pub(crate) fn token_at(hay: &[u8], from: usize, connector: impl Fn(u8) -> bool) -> Option<(usize, usize)> {
    let byte = |i: usize| hay.get(i).copied();
    let digit = |i: usize| byte(i).is_some_and(|b| b.is_ascii_digit());
    // The end of the run of 1 to `max` digits at `at`, taken whole.
    let digits = |at: usize, max: usize| {
        let n = hay.get(at..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count();
        (1..=max).contains(&n).then_some(at + n)
    };
    let word = |i: usize| byte(i).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
    // Past the `)` at `close` and the space after it when a digit follows (`\) ?`).
    let past_paren = |close: usize| close + 1 + usize::from(byte(close + 1) == Some(b' ') && digit(close + 2));
    // The number from `p`, or None.
    let number = |p: usize| -> Option<usize> {
        // `(?:\(\d{1,5}\) ?)?`
        let mut at = p;
        if byte(p) == Some(b'(') {
            if let Some(end) = digits(p + 1, 5).filter(|&e| byte(e) == Some(b')')) {
                at = past_paren(end);
            }
        }
        // `\d{1,20}`, then up to seven `(?:C|\) ?| ?\()\d{1,20}`.
        let first = digits(at, 20)?;
        let mut ends = [first; 8];
        let (mut count, mut end) = (1, first);
        while count < 8 {
            let next = match byte(end) {
                Some(b) if connector(b) && digit(end + 1) => end + 1,
                Some(b')') => past_paren(end),
                Some(b'(') => end + 1,
                Some(b' ') if byte(end + 1) == Some(b'(') => end + 2,
                _ => break,
            };
            let Some(after) = digits(next, 20) else { break };
            if let Some(e) = ends.get_mut(count) {
                *e = after;
            }
            count += 1;
            end = after;
        }
        // `\b`: the last digit is a word byte, so the next byte must not be one.
        ends.get(..count)?.iter().rev().copied().find(|&e| !word(e))
    };
    let mut s = from;
    while let Some(&b) = hay.get(s) {
        // The guard's three forms in the regex's order: a line start, one other byte, a
        // letter (or `.` `/` `-`) and a space; then up to three spaces. Most bytes of a
        // number (digits, connectors) are none of them, found before anything else.
        let class = guard_class(b);
        let line_start = s == 0 || byte(s - 1) == Some(b'\n') || (byte(s - 1) == Some(b'\r') && b != b'\n');
        let other = class & OTHER != 0;
        let before_space = class & BEFORE_SPACE != 0 && byte(s + 1) == Some(b' ');
        // A number begins with a digit or `(`, at most five bytes after the match's
        // start (a guard of two bytes and three spaces).
        if !(line_start || other || before_space)
            || !hay.get(s..(s + 6).min(hay.len())).unwrap_or_default().iter().any(|&b| b.is_ascii_digit() || b == b'(')
        {
            s += 1;
            continue;
        }
        for (ok, after_guard) in [(line_start, s), (other, s + 1), (before_space, s + 2)] {
            if !ok {
                continue;
            }
            let spaces = hay.get(after_guard..).unwrap_or_default().iter().take(4).take_while(|&&b| b == b' ').count();
            if spaces > 3 {
                continue;
            }
            let p = after_guard + spaces;
            if let Some(end) = number(p) {
                return Some((p, end));
            }
        }
        s += 1;
    }
    None
}

/// [`guard_class`]: a byte that is a guard by itself (`[^0-9A-Za-z_.+\-)/#$%@&~^`\\ \r\n]`)…
pub(crate) const OTHER: u8 = 1;
/// …and one that is a guard before a space (`[A-Za-z./\-]`).
pub(crate) const BEFORE_SPACE: u8 = 2;

/// The guard classes of a byte, for [`token_at`].
#[inline]
pub(crate) fn guard_class(byte: u8) -> u8 {
    let excluded = byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'_' | b'.'
                | b'+'
                | b'-'
                | b')'
                | b'/'
                | b'#'
                | b'$'
                | b'%'
                | b'@'
                | b'&'
                | b'~'
                | b'^'
                | b'`'
                | b'\\'
                | b' '
                | b'\r'
                | b'\n'
        );
    let lead = byte.is_ascii_alphabetic() || matches!(byte, b'.' | b'/' | b'-');
    (if excluded { 0 } else { OTHER }) | if lead { BEFORE_SPACE } else { 0 }
}

/// Context that moves every rule here: phone words in the ten languages (and other
/// scripts) raise the confidence, and order, invoice and tracking words lower it.
/// Only the words count, so the rule with the labels also gets the boost.
pub(crate) const CONTEXT: Context = Context {
    window: 40,
    words: &[
        "phone",
        "telephone",
        "tel",
        "mobile",
        "mob",
        "cell",
        "cellphone",
        "call",
        "whatsapp",
        "fax",
        "sms",
        "contact",
        "telefon",
        "telefonnummer",
        "handy",
        "handynummer",
        "mobil",
        "mobilnummer",
        "rufnummer",
        "festnetz",
        "téléphone",
        "portable",
        "tél",
        "numéro",
        "teléfono",
        "móvil",
        "movil",
        "celular",
        "número",
        "telefono",
        "cellulare",
        "numero",
        "telefoon",
        "telefoonnummer",
        "mobiel",
        "telefone",
        "contato",
        "komórka",
        "komorka",
        "numer",
        "numara",
        "cep",
        "gsm",
        "tlf",
        "电话",
        "手机",
        "電話",
        "携帯",
        "전화",
        "휴대폰",
        "телефон",
        "тел",
    ],
    boost: 0.1,
    against: &[
        "order",
        "orders",
        "invoice",
        "ref",
        "reference",
        "tracking",
        "ticket",
        "sku",
        "isbn",
        "serial",
        "build",
        "version",
        "iban",
        "account",
        "receipt",
        "transaction",
        "zip",
        "postcode",
        "plz",
        "pin",
        "bestellnummer",
        "bestellung",
        "bestell",
        "rechnung",
        "rechnungsnummer",
        "rechnungs",
        "auftrag",
        "auftragsnummer",
        "auftrags",
        "sendungsnummer",
        "kundennummer",
        "artikel",
        "konto",
        "commande",
        "facture",
        "référence",
        "suivi",
        "pedido",
        "factura",
        "ordine",
        "fattura",
        "bestelling",
        "factuur",
        "zamówienie",
        "zamówienia",
        "zamowienie",
        "zamowienia",
        "faktura",
        "faktury",
        "konta",
        "sipariş",
        "siparis",
        "fatura",
        "kimlik",
        "pesel",
        "nip",
        "regon",
        "dni",
        "nie",
        "nif",
        "cpf",
        "cnpj",
        "aadhaar",
        "bsn",
        "siret",
        "siren",
        "fiscale",
        "steuernummer",
        "kontonummer",
        "ssn",
        "passport",
        "bic",
        "swift",
        "订单",
        "注文",
        "주문",
        "заказ",
    ],
    penalty: 0.3,
};

/// Phone labels in Latin-script languages: whole words, ASCII case ignored.
pub(crate) const LABELS: &[&str] = &[
    "phone",
    "telephone",
    "tel",
    "mobile",
    "mob",
    "cell",
    "cellphone",
    "call",
    "whatsapp",
    "fax",
    "sms",
    "contact",
    "telefon",
    "telefonnummer",
    "handy",
    "handynummer",
    "mobil",
    "mobilnummer",
    "rufnummer",
    "festnetz",
    "téléphone",
    "portable",
    "tél",
    "numéro",
    "teléfono",
    "telefono",
    "móvil",
    "movil",
    "celular",
    "número",
    "cellulare",
    "numero",
    "telefoon",
    "telefoonnummer",
    "mobiel",
    "telefone",
    "contato",
    "komórka",
    "komorka",
    "numer",
    "numara",
    "cep",
    "gsm",
    "tlf",
    "tfn",
];

/// Labels written as abbreviations, whose dot ends no sentence.
pub(crate) const ABBREVIATIONS: &[&str] = &["tel", "tél", "mob", "tlf", "fax", "gsm", "tfn"];

/// Phone labels in other scripts, matched as substrings: CJK text has no spaces
/// between words ("我的手机号是…").
pub(crate) const SCRIPT_LABELS: &[&str] = &[
    "电话",
    "手机",
    "手機",
    "電話",
    "携帯",
    "連絡先",
    "联系方式",
    "전화",
    "휴대폰",
    "핸드폰",
    "연락처",
    "телефон",
    "тел.",
    "טלפון",
    "נייד",
];

/// One block of a national plan: numbers whose national significant number begins
/// with one of `lead`, written in one of the templates.
pub(crate) struct Block {
    /// Leading digits of the national significant number. Digits and `[…]` classes
    /// (`7[1-4]`).
    pub(crate) lead: &'static [&'static str],
    /// Groupings distinctive enough to stand alone.
    pub(crate) alone: &'static [&'static str],
    /// Groupings and runs that count only after a phone label. A run without
    /// separators is listed only for mobile blocks, and for fixed lines whose national
    /// form begins with the trunk prefix.
    pub(crate) near: &'static [&'static str],
    /// A direct-dial extension may follow (`030 1234567-89`, DIN 5008): a dash and one
    /// to four digits.
    pub(crate) extension: bool,
}

/// The defaults of a [`Block`] (`..BLOCK`).
pub(crate) const BLOCK: Block = Block { lead: &[], alone: &[], near: &[], extension: false };

/// A national numbering plan.
pub(crate) struct Plan {
    /// ISO 3166-1 alpha-2 code, for the reader and the tests.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) country: &'static str,
    /// The E.164 country code.
    pub(crate) cc: &'static str,
    /// The trunk prefix (`t` in a template), or 0 if the country has none.
    pub(crate) trunk: u8,
    /// The bytes a template's space may be: one of these, the same all through a number.
    pub(crate) seps: &'static [u8],
    pub(crate) blocks: &'static [Block],
}

/// The national plans. The lengths are those of the templates.
pub(crate) const PLANS: &[Plan] = &[
    Plan {
        // ARCEP: 0 + 9 digits; 06/07 mobile, 01–05 geographic, 09 VoIP; written in pairs.
        country: "FR",
        cc: "33",
        trunk: b'0',
        seps: b" .-",
        blocks: &[Block { lead: &["[1-7]", "9"], alone: &["t# ## ## ## ##"], near: &["t#########"], ..BLOCK }],
    },
    Plan {
        // MIC: mobile and IP telephony 070/080/090/050 + 8 digits; geographic 0 + 9 digits,
        // area code of 1–4 digits after the trunk.
        country: "JP",
        cc: "81",
        trunk: b'0',
        seps: b" -",
        blocks: &[
            Block { lead: &["[5789]0"], alone: &["t## #### ####"], near: &["t##########"], ..BLOCK },
            Block { lead: &["3", "6"], alone: &["t# #### ####", "(t#) #### ####"], near: &["t#########"], ..BLOCK },
            Block {
                lead: &["1", "2[1-9]", "4", "5[1-9]", "7[1-9]", "8[1-9]", "9[1-9]"],
                alone: &["t## ### ####", "t### ## ####", "t#### # ####", "(t##) ### ####"],
                near: &["t#########"],
                ..BLOCK
            },
        ],
    },
    Plan {
        // MIIT: mobile 1[3-9] + 9 digits, no trunk; fixed 0 + area code (10, 2x: two digits;
        // others three) + 7–8 digits.
        country: "CN",
        cc: "86",
        trunk: b'0',
        seps: b" -",
        blocks: &[
            Block { lead: &["1[3-9]"], alone: &["### #### ####"], near: &["###########"], ..BLOCK },
            Block { lead: &["10", "2"], alone: &["t## ########", "(t##) ########"], near: &["t##########"], ..BLOCK },
            Block {
                lead: &["[3-9]"],
                alone: &["t### #######", "t### ########", "(t###) #######", "(t###) ########"],
                near: &["t##########", "t#########"],
                ..BLOCK
            },
        ],
    },
    Plan {
        // Israel (Ministry of Communications): mobile 05x and VoIP 07x + 7 digits; geographic
        // 02/03/04/08/09 + 7 digits.
        country: "IL",
        cc: "972",
        trunk: b'0',
        seps: b" -",
        blocks: &[
            Block { lead: &["5", "7"], alone: &["t##-#######", "t## ### ####"], near: &["t#########"], ..BLOCK },
            Block { lead: &["[23489]"], alone: &["t#-#######", "t# ### ####"], near: &["t########"], ..BLOCK },
        ],
    },
    Plan {
        // NTC: mobile 09xx + 7 digits; Metro Manila (02) + 8 digits; provinces 0 + 2 + 7.
        country: "PH",
        cc: "63",
        trunk: b'0',
        seps: b" -",
        blocks: &[
            Block { lead: &["9"], alone: &["t### ### ####", "(t###) ### ####"], near: &["t##########"], ..BLOCK },
            Block { lead: &["2"], alone: &["(t#) #### ####", "t# #### ####"], near: &["t#########"], ..BLOCK },
            Block { lead: &["[3-8]"], alone: &["(t##) ### ####", "t## ### ####"], near: &["t#########"], ..BLOCK },
        ],
    },
    Plan {
        // BTK: 0 + 10 digits; mobile 5xx, geographic 2xx–4xx; written 3-3-2-2 after the trunk.
        country: "TR",
        cc: "90",
        trunk: b'0',
        seps: b" -",
        blocks: &[Block {
            lead: &["[2-5]"],
            alone: &["t### ### ## ##", "t (###) ### ## ##", "t(###) ### ## ##", "(t###) ### ## ##", "t### ### ####"],
            near: &["t##########"],
            ..BLOCK
        }],
    },
    Plan {
        // BNetzA: mobile 015x–017x + 7–8 digits; geographic area codes of 2–5 digits after
        // the trunk (30 Berlin, 40, 69, 89; 221, 711, …), national number up to 11 digits.
        country: "DE",
        cc: "49",
        trunk: b'0',
        seps: b" -",
        blocks: &[
            Block {
                lead: &["1[5-7]"],
                alone: &[
                    "t### ########",
                    "t### #######",
                    "t### #### ####",
                    "t### ### ####",
                    "t#### #######",
                    "t###/########",
                    "t###/#######",
                ],
                near: &["t##########", "t###########"],
                ..BLOCK
            },
            Block {
                lead: &["30", "40", "69", "89"],
                alone: &[
                    "t## ########",
                    "t## #######",
                    "(t##) ########",
                    "(t##) #######",
                    "t## #### ####",
                    "t##/########",
                    "t##/#######",
                ],
                near: &["t#########", "t##########"],
                extension: true,
            },
            Block {
                lead: &["[2-9]"],
                alone: &[
                    "t### #######",
                    "t### ########",
                    "t### ######",
                    "(t###) #######",
                    "(t###) ######",
                    "t#### ######",
                    "t#### #######",
                    "t#### #####",
                    "(t####) ######",
                    "t###/#######",
                    "t###/######",
                    "t####/######",
                    "t####/#####",
                ],
                near: &["t#########", "t##########"],
                extension: true,
            },
        ],
    },
    Plan {
        // Ofcom: 0 + 10 digits (some 9); mobile 071–075, 077–079; London 020, 02x; 011x/01x1
        // written 3-3-4 after the trunk, other 01 areas 4-6.
        country: "GB",
        cc: "44",
        trunk: b'0',
        seps: b" ",
        blocks: &[
            Block {
                lead: &["7[1-57-9]"],
                alone: &["t#### ######", "t#### ### ###", "t### ### ####"],
                near: &["t##########"],
                ..BLOCK
            },
            Block { lead: &["2"], alone: &["t## #### ####", "(t##) #### ####"], near: &["t##########"], ..BLOCK },
            Block {
                lead: &["1[1-9]1", "11[1-9]", "3"],
                alone: &["t### ### ####", "(t###) ### ####"],
                near: &["t##########"],
                ..BLOCK
            },
            Block {
                lead: &["1"],
                alone: &["t#### ######", "(t####) ######", "t#### #####"],
                near: &["t##########", "t#########"],
                ..BLOCK
            },
        ],
    },
    Plan {
        // CNMC: 9 digits, no trunk; mobile 6xx and 71–74, geographic 8x/9x.
        country: "ES",
        cc: "34",
        trunk: 0,
        seps: b" -",
        blocks: &[
            Block { lead: &["6", "7[1-4]"], alone: &["### ## ## ##", "### ### ###"], near: &["#########"], ..BLOCK },
            Block { lead: &["[89][1-8]"], alone: &["## ### ## ##", "### ## ## ##"], near: &["### ### ###"], ..BLOCK },
        ],
    },
    Plan {
        // AGCOM: no trunk; mobile 3xx + 6–7 digits; geographic numbers begin with 0 (06 Rome,
        // 02 Milan, 011, 0471, …), 6–11 digits.
        country: "IT",
        cc: "39",
        trunk: 0,
        seps: b" .-",
        blocks: &[
            Block { lead: &["3[1-9]"], alone: &["### ### ####", "### #######"], near: &["##########"], ..BLOCK },
            Block {
                lead: &["0[1-9]"],
                alone: &["## #### ####", "## ########", "### ### ####", "### #######", "#### ######", "#### ### ###"],
                near: &["##########", "#########", "###########"],
                ..BLOCK
            },
        ],
    },
    Plan {
        // ACM: 0 + 9 digits; mobile 06, geographic area codes of two or three digits.
        country: "NL",
        cc: "31",
        trunk: b'0',
        seps: b" -",
        blocks: &[
            Block {
                lead: &["6[1-58]"],
                alone: &["t# ########", "t# #### ####", "t# ## ## ## ##", "(t#) ########"],
                near: &["t#########"],
                ..BLOCK
            },
            Block {
                lead: &["[1-57]"],
                alone: &["t## #######", "t### ######", "(t##) #######", "(t###) ######"],
                near: &["t#########"],
                ..BLOCK
            },
        ],
    },
    Plan {
        // Anatel: two-digit area code (DDD, digits 1–9) + 9 + 8 digits for mobiles, + [2-5]
        // and 7 digits for fixed lines; the trunk 0 (and carrier code) is rarely written.
        country: "BR",
        cc: "55",
        trunk: b'0',
        seps: b" ",
        blocks: &[
            Block {
                lead: &[
                    "1[1-9]9",
                    "2[12478]9",
                    "3[1-578]9",
                    "4[1-9]9",
                    "5[1345]9",
                    "6[1-9]9",
                    "7[1345789]9",
                    "8[1-9]9",
                    "9[1-9]9",
                ],
                alone: &["(##) #####-####", "(##)#####-####", "## #####-####", "(##) # ####-####", "(t##) #####-####"],
                near: &["###########", "(##) #########", "(##) ##### ####", "t###########"],
                ..BLOCK
            },
            Block {
                lead: &[
                    "1[1-9][2-5]",
                    "2[12478][2-5]",
                    "3[1-578][2-5]",
                    "4[1-9][2-5]",
                    "5[1345][2-5]",
                    "6[1-9][2-5]",
                    "7[1345789][2-5]",
                    "8[1-9][2-5]",
                    "9[1-9][2-5]",
                ],
                alone: &["(##) ####-####", "(##)####-####", "## ####-####", "(t##) ####-####"],
                near: &["(##) ########"],
                ..BLOCK
            },
        ],
    },
    Plan {
        // IFT: 10 digits since 2019, no trunk; two-digit areas 55/56 (Mexico City), 33, 81.
        // Three-digit areas are written like North American numbers, which NANP finds.
        country: "MX",
        cc: "52",
        trunk: 0,
        seps: b" .-",
        blocks: &[Block {
            lead: &["5[56]", "33", "81"],
            alone: &["## #### ####", "(##) #### ####"],
            near: &["##########"],
            ..BLOCK
        }],
    },
    Plan {
        // TRAI / DoT: mobile [6-9] + 9 digits, written 5-5; fixed 0 + STD code + number,
        // 10 digits after the trunk.
        country: "IN",
        cc: "91",
        trunk: b'0',
        seps: b" -",
        blocks: &[
            Block {
                lead: &["[6-9]"],
                alone: &["##### #####", "t##### #####"],
                near: &["##########", "t##########"],
                ..BLOCK
            },
            Block {
                lead: &["11", "2[02]", "33", "4[04]", "80"],
                alone: &["t## #### ####", "t##-#### ####", "t##-########"],
                near: &["t##########"],
                ..BLOCK
            },
            Block { lead: &["[1-8]"], alone: &["t###-#######", "t####-######"], near: &["t##########"], ..BLOCK },
        ],
    },
    Plan {
        // ACMA: 0 + 9 digits; mobile 04, geographic (02) (03) (07) (08).
        country: "AU",
        cc: "61",
        trunk: b'0',
        seps: b" ",
        blocks: &[
            Block { lead: &["4"], alone: &["t### ### ###"], near: &["t#########"], ..BLOCK },
            Block { lead: &["[2378]"], alone: &["(t#) #### ####", "t# #### ####"], near: &["t#########"], ..BLOCK },
        ],
    },
    Plan {
        // MSIT / KCC: mobile 010 + 8 digits (older 011, 016–019); Seoul 02; other areas 0xx.
        country: "KR",
        cc: "82",
        trunk: b'0',
        seps: b" -.",
        blocks: &[
            Block {
                lead: &["1[016-9]", "70"],
                alone: &["t## #### ####", "t## ### ####"],
                near: &["t##########"],
                ..BLOCK
            },
            Block {
                lead: &["2"],
                alone: &["t# ### ####", "t# #### ####"],
                near: &["t#########", "t########"],
                ..BLOCK
            },
            Block {
                lead: &["3[1-3]", "4[1-4]", "5[1-5]", "6[1-4]"],
                alone: &["t## ### ####", "t## #### ####"],
                near: &["t#########", "t##########"],
                ..BLOCK
            },
        ],
    },
    Plan {
        // IMDA: 8 digits, no trunk; 8/9 mobile, 6 fixed, 3 VoIP. `#### ####` is far too
        // common to stand alone.
        country: "SG",
        cc: "65",
        trunk: 0,
        seps: b" -",
        blocks: &[
            Block { lead: &["[89]"], near: &["#### ####", "########"], ..BLOCK },
            Block { lead: &["[36]"], near: &["#### ####"], ..BLOCK },
        ],
    },
    Plan {
        // PTS: 0 + 7–9 digits; mobile 070/072/073/076/079; the area code is set off by a dash.
        country: "SE",
        cc: "46",
        trunk: b'0',
        seps: b" ",
        blocks: &[
            Block {
                lead: &["7[02369]"],
                alone: &["t##-### ## ##", "t## ### ## ##"],
                near: &["t#########", "t##-#######"],
                ..BLOCK
            },
            Block { lead: &["8"], alone: &["t#-### ### ##", "t#-### ## ##"], near: &["t########"], ..BLOCK },
            Block {
                lead: &["[1-69]"],
                alone: &["t##-### ## ##", "t##-## ## ##", "t###-## ## ##", "t###-### ##"],
                near: &["t#########", "t########"],
                ..BLOCK
            },
        ],
    },
    Plan {
        // UKE: 9 digits, no trunk; mobile ranges, geographic two-digit areas written 2-3-2-2.
        country: "PL",
        cc: "48",
        trunk: 0,
        seps: b" -",
        blocks: &[
            Block {
                lead: &["45", "5[0137]", "6[069]", "7[2389]", "88"],
                alone: &["### ### ###"],
                near: &["#########"],
                ..BLOCK
            },
            Block { lead: &["[1-9][1-9]"], alone: &["## ### ## ##"], ..BLOCK },
        ],
    },
    Plan {
        // Russia: trunk 8 + 10 digits; mobile 9xx, geographic 3xx/4xx/8xx; 3-3-2-2.
        country: "RU",
        cc: "7",
        trunk: b'8',
        seps: b" -",
        blocks: &[Block {
            lead: &["9", "[348]"],
            alone: &[
                "t (###) ###-##-##",
                "t(###)###-##-##",
                "t(###) ###-##-##",
                "t (###) ### ## ##",
                "t ### ###-##-##",
                "t ### ### ## ##",
                "(###) ###-##-##",
            ],
            near: &["t##########"],
            ..BLOCK
        }],
    },
    Plan {
        // BIPT: 0 + 8–9 digits; mobile 04xx written 4-2-2-2, Brussels 02 2-3-2-2.
        country: "BE",
        cc: "32",
        trunk: b'0',
        seps: b" .",
        blocks: &[
            Block { lead: &["4[5-9]"], alone: &["t### ## ## ##"], near: &["t#########"], ..BLOCK },
            Block { lead: &["[2349]"], alone: &["t# ### ## ##"], near: &["t########"], ..BLOCK },
            Block { lead: &["[1-8]"], alone: &["t## ## ## ##"], near: &["t########"], ..BLOCK },
        ],
    },
    Plan {
        // BAKOM: 0 + 9 digits, 3-3-2-2 after the trunk; mobile 075–079.
        country: "CH",
        cc: "41",
        trunk: b'0',
        seps: b" ",
        blocks: &[Block { lead: &["[2-9]"], alone: &["t## ### ## ##"], near: &["t#########"], ..BLOCK }],
    },
    Plan {
        // RTR: mobile 0650–0699 + 4–10 digits (commonly 7); Vienna 01.
        country: "AT",
        cc: "43",
        trunk: b'0',
        seps: b" ",
        blocks: &[
            Block {
                lead: &["6[5-9]"],
                alone: &["t### #######", "t### ### ####", "t###/#######"],
                near: &["t##########"],
                ..BLOCK
            },
            Block { lead: &["1"], alone: &["t# ### ## ##", "t# #######"], near: &["t########"], extension: true },
        ],
    },
    Plan {
        // ANACOM: 9 digits, no trunk; mobile 91/92/93/96, geographic 2x.
        country: "PT",
        cc: "351",
        trunk: 0,
        seps: b" ",
        blocks: &[
            Block { lead: &["9[1236]"], alone: &["### ### ###"], near: &["#########"], ..BLOCK },
            Block { lead: &["2"], alone: &["## ### ####"], ..BLOCK },
        ],
    },
    Plan {
        // ComReg: mobile 08x + 7 digits; Dublin (01).
        country: "IE",
        cc: "353",
        trunk: b'0',
        seps: b" -",
        blocks: &[
            Block { lead: &["8[35-9]"], alone: &["t## ### ####"], near: &["t#########"], ..BLOCK },
            Block { lead: &["1"], alone: &["t# ### ####", "(t#) ### ####"], near: &["t########"], ..BLOCK },
        ],
    },
    Plan {
        // ICASA: 0 + 9 digits, 3-3-4; mobile 06x–08x, geographic 01x–05x.
        country: "ZA",
        cc: "27",
        trunk: b'0',
        seps: b" -",
        blocks: &[Block { lead: &["[1-8]"], alone: &["t## ### ####"], near: &["t#########"], ..BLOCK }],
    },
    Plan {
        // Kominfo: mobile 08xx + 7–9 digits, written 4-4-4 or 4-4-3.
        country: "ID",
        cc: "62",
        trunk: b'0',
        seps: b" -",
        blocks: &[Block {
            lead: &["8[1-35-9]"],
            alone: &["t### #### ####", "t### #### ###", "t###-####-####"],
            near: &["t##########", "t###########"],
            ..BLOCK
        }],
    },
    Plan {
        // NCC Taiwan: mobile 09xx + 6 digits, written 4-3-3.
        country: "TW",
        cc: "886",
        trunk: b'0',
        seps: b" -",
        blocks: &[Block { lead: &["9"], alone: &["t### ### ###", "t###-######"], near: &["t#########"], ..BLOCK }],
    },
];

/// Assigned geographic E.164 country codes (ITU-T E.164 list, annex to OB 1125). They
/// are prefix-free: at most one of them begins a number.
pub(crate) const COUNTRY_CODES: &[&str] = &[
    "1", "7", "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48",
    "49", "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81", "82", "84",
    "86", "90", "91", "92", "93", "94", "95", "98", "211", "212", "213", "216", "218", "220", "221", "222", "223",
    "224", "225", "226", "227", "228", "229", "230", "231", "232", "233", "234", "235", "236", "237", "238", "239",
    "240", "241", "242", "243", "244", "245", "246", "247", "248", "249", "250", "251", "252", "253", "254", "255",
    "256", "257", "258", "260", "261", "262", "263", "264", "265", "266", "267", "268", "269", "290", "291", "297",
    "298", "299", "350", "351", "352", "353", "354", "355", "356", "357", "358", "359", "370", "371", "372", "373",
    "374", "375", "376", "377", "378", "380", "381", "382", "383", "385", "386", "387", "389", "420", "421", "423",
    "500", "501", "502", "503", "504", "505", "506", "507", "508", "509", "590", "591", "592", "593", "594", "595",
    "596", "597", "598", "599", "670", "672", "673", "674", "675", "676", "677", "678", "679", "680", "681", "682",
    "683", "685", "686", "687", "688", "689", "690", "691", "692", "850", "852", "853", "855", "856", "880", "886",
    "960", "961", "962", "963", "964", "965", "966", "967", "968", "970", "971", "972", "973", "974", "975", "976",
    "977", "992", "993", "994", "995", "996", "998",
];

/// Does `class` (the inside of `[…]`: digits and `a-b` ranges) contain `x`?
pub(crate) fn in_class(class: &[u8], x: u8) -> bool {
    let mut i = 0;
    while let Some(&a) = class.get(i) {
        if class.get(i + 1) == Some(&b'-') {
            if let Some(&b) = class.get(i + 2) {
                if (a..=b).contains(&x) {
                    return true;
                }
                i += 3;
                continue;
            }
        }
        if a == x {
            return true;
        }
        i += 1;
    }
    false
}

/// Do `digits` begin with the leading-digit pattern `lead` (digits and `[…]` classes)?
pub(crate) fn leads(lead: &[u8], digits: &[u8]) -> bool {
    let (mut p, mut d) = (0, 0);
    while let Some(&c) = lead.get(p) {
        let Some(&x) = digits.get(d) else { return false };
        if c == b'[' {
            let Some(len) = lead.get(p..).and_then(|r| r.iter().position(|&b| b == b']')) else {
                return false;
            };
            if !in_class(lead.get(p + 1..p + len).unwrap_or_default(), x) {
                return false;
            }
            p += len + 1;
        } else {
            if c != x {
                return false;
            }
            p += 1;
        }
        d += 1;
    }
    true
}

/// Does `token` have exactly the shape of `template` under `plan`, with a national
/// significant number that begins with one of `lead`?
pub(crate) fn fits(template: &[u8], token: &[u8], plan: &Plan, lead: &[&str]) -> bool {
    if template.len() != token.len() {
        return false;
    }
    let mut nsn = [0u8; 16];
    let mut n = 0;
    let mut sep = None;
    for (&t, &b) in template.iter().zip(token) {
        let ok = match t {
            b'#' => {
                if let Some(slot) = nsn.get_mut(n) {
                    *slot = b;
                }
                n += 1;
                b.is_ascii_digit()
            }
            b't' => plan.trunk != 0 && b == plan.trunk,
            b' ' => plan.seps.contains(&b) && *sep.get_or_insert(b) == b,
            other => b == other,
        };
        if !ok {
            return false;
        }
    }
    let nsn = nsn.get(..n).unwrap_or_default();
    lead.iter().any(|l| leads(l.as_bytes(), nsn))
}

/// A template of [`PLANS`] with its plan and block, for the index by length.
pub(crate) struct Entry {
    pub(crate) plan: &'static Plan,
    pub(crate) block: &'static Block,
    pub(crate) template: &'static [u8],
    pub(crate) alone: bool,
    /// The template's digit positions (`#` and `t`), as [`digit_bits`] gives them.
    pub(crate) digits: u64,
}

/// Bit `i` set where byte `i` is a digit (a template's `#` or `t`, a token's digit):
/// a token can fit a template only if both have their digits in the same places. The
/// first 64 bytes; no template is longer (`templates_have_their_digits_in_one_word`).
pub(crate) fn digit_bits(bytes: &[u8], digit: impl Fn(u8) -> bool) -> u64 {
    bytes.iter().take(64).enumerate().fold(0, |bits, (i, &b)| bits | u64::from(digit(b)) << i)
}

/// The templates of every plan by their length in bytes: a token is compared with the
/// few of its own length only (a dozen of some 190). Built once.
pub(crate) fn by_length() -> &'static [Vec<Entry>] {
    static INDEX: std::sync::OnceLock<Vec<Vec<Entry>>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index: Vec<Vec<Entry>> = Vec::new();
        for plan in PLANS {
            for block in plan.blocks {
                let templates = block.alone.iter().map(|t| (t, true)).chain(block.near.iter().map(|t| (t, false)));
                for (template, alone) in templates {
                    if index.len() <= template.len() {
                        index.resize_with(template.len() + 1, Vec::new);
                    }
                    if let Some(bucket) = index.get_mut(template.len()) {
                        let digits = digit_bits(template.as_bytes(), |b| matches!(b, b'#' | b't'));
                        bucket.push(Entry { plan, block, template: template.as_bytes(), alone, digits });
                    }
                }
            }
        }
        index
    })
}

/// Does any plan accept `token` in a template that stands alone (`alone`) or in one
/// that needs a label? A block that allows extensions also takes the token without
/// a trailing `-` and one to four digits.
pub(crate) fn any_plan(token: &[u8], alone: bool) -> bool {
    let index = by_length();
    let fits_any = |token: &[u8], extension: bool| {
        index.get(token.len()).is_some_and(|bucket| {
            // Most templates of the token's length have their digits elsewhere: one
            // compare, before any byte.
            let digits = digit_bits(token, |b| b.is_ascii_digit());
            bucket.iter().any(|e| {
                e.digits == digits
                    && e.alone == alone
                    && (!extension || e.block.extension)
                    && fits(e.template, token, e.plan, e.block.lead)
            })
        })
    };
    if fits_any(token, false) {
        return true;
    }
    // The number before a trailing extension (`-0`, `-89`, `-1234`), if there is one.
    let base = token.iter().rposition(|&b| b == b'-').and_then(|dash| {
        let ext = token.get(dash + 1..)?;
        ((1..=4).contains(&ext.len()) && ext.iter().all(u8::is_ascii_digit)).then(|| token.get(..dash))?
    });
    base.is_some_and(|base| fits_any(base, true))
}

/// A grouping that stands alone: `pii.phone.national.v1`.
pub(crate) fn national(token: &[u8]) -> bool {
    any_plan(token, true)
}

/// A grouping or run that needs a phone label, or a `00` number written any way: the
/// rules with labels. (What stands alone is the national rule's, on the same span.)
pub(crate) fn labeled(token: &[u8]) -> bool {
    any_plan(token, false) || international(token, false)
}

/// A standalone grouping with a slash after the area code (`0151/23456789`, DE, AT).
pub(crate) fn slashed(token: &[u8]) -> bool {
    token.contains(&b'/') && national(token)
}

/// Windows around each `/` between two digits: the run of number bytes around it,
/// with one byte more on each side (the pattern's guard and `\b`).
pub(crate) fn slash_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let text = t.bytes();
    let mut windows: Vec<(usize, usize)> = Vec::new();
    let numeric = |b: &u8| b.is_ascii_digit() || b" .-()/".contains(b);
    let digit = |i: usize| text.get(i).is_some_and(u8::is_ascii_digit);
    for at in t.positions(Mark::Slash) {
        if at == 0 || !digit(at - 1) || !digit(at + 1) || windows.last().is_some_and(|w| at < w.1) {
            continue;
        }
        let before = text.get(..at).unwrap_or_default().iter().rev().take_while(|b| numeric(b)).count();
        let after = text.get(at..).unwrap_or_default().iter().take_while(|b| numeric(b)).count();
        let (start, end) = ((at - before).saturating_sub(1), (at + after + 1).min(text.len()));
        push_window(&mut windows, start, end);
    }
    windows
}

/// [`slash_windows`] as a rule's window finder; it finds nothing without a `/` between
/// digits.
pub(crate) const SLASH_WINDOWS: crate::rule::WindowFinder = crate::rule::WindowFinder {
    find: slash_windows,
    needs: crate::engine::text::Needs::DIGIT.and(crate::engine::text::Needs::MARK),
};

/// `pii.phone.intl_prefix.v1`: `00`, then an assigned country code that ends a digit
/// group, then the national number.
pub(crate) fn intl_grouped(token: &[u8]) -> bool {
    international(token, true)
}

/// A number after the `00` international prefix. With `grouped`, the token must have a
/// separator and the country code must end a digit group (`0041 44 …`, `00 33 6 …`).
/// When the table has the country's plan, the national number (after a `(0)` or a
/// written trunk) must begin with a block's leading digits and have one of its lengths.
/// Otherwise it must be 6 to 12 digits, and 15 at most with the country code.
pub(crate) fn international(token: &[u8], grouped: bool) -> bool {
    let Some(rest) = token.strip_prefix(b"00") else { return false };
    let mut digits = [0u8; 20];
    let mut n = 0;
    // Digit counts at which a group ends, as bits.
    let mut ends = 0u32;
    let mut separated = false;
    let mut trunk_written = false;
    let mut i = 0;
    while let Some(&b) = rest.get(i) {
        if rest.get(i..i + 3) == Some(b"(0)") {
            trunk_written = true;
            ends |= 1 << n.min(31);
            separated = true;
            i += 3;
            continue;
        }
        if b.is_ascii_digit() {
            if n >= digits.len() {
                return false;
            }
            if let Some(slot) = digits.get_mut(n) {
                *slot = b;
            }
            n += 1;
        } else {
            ends |= 1 << n.min(31);
            separated = true;
        }
        i += 1;
    }
    let digits = digits.get(..n).unwrap_or_default();
    let Some(cc) = COUNTRY_CODES.iter().find(|cc| digits.starts_with(cc.as_bytes())) else {
        return false;
    };
    let cc_len = cc.len();
    if grouped && (!separated || ends & (1 << cc_len) == 0) {
        return false;
    }
    significant(cc, digits.get(cc_len..).unwrap_or_default(), trunk_written)
}

/// Is `nsn` a national significant number of country code `cc`? When the table has the
/// country's plan, it must begin with a block's leading digits and have one of its
/// lengths; otherwise it must be 6 to 12 digits, and 15 at most with the country code.
/// A trunk written after the country code (`0049 030 …`) is a common slip and is
/// skipped, unless a `(0)` was written too.
pub(crate) fn significant(cc: &str, nsn: &[u8], trunk_written: bool) -> bool {
    if !(6..=12).contains(&nsn.len()) || cc.len() + nsn.len() > 15 {
        return false;
    }
    let Some(plan) = PLANS.iter().find(|p| p.cc == cc) else {
        return true;
    };
    let nsn = match nsn.split_first() {
        Some((&t, tail)) if plan.trunk != 0 && t == plan.trunk && !trunk_written => tail,
        _ => nsn,
    };
    plan.blocks.iter().any(|block| {
        let long = |t: &&str| t.bytes().filter(|&b| b == b'#').count() == nsn.len();
        let length = block.alone.iter().chain(block.near).any(long);
        length && block.lead.iter().any(|l| leads(l.as_bytes(), nsn))
    })
}

/// `pii.phone.intl_trunk.v1`: `+CC (0)…`, the national trunk prefix kept in
/// parentheses after the country code. The national number's first group may be a
/// single digit (`+33 (0)6 12 34 56 78`), which `pii.phone.e164.v1` does not take.
pub(crate) fn intl_trunk(m: &[u8]) -> bool {
    let Some(rest) = m.strip_prefix(b"+") else { return false };
    let Some(open) = rest.iter().position(|&b| b == b'(') else { return false };
    let cc = rest.get(..open).unwrap_or_default();
    let cc = cc.strip_suffix(b" ").unwrap_or(cc);
    let Some(cc) = COUNTRY_CODES.iter().find(|c| c.as_bytes() == cc) else { return false };
    let mut nsn = [0u8; 20];
    let mut n = 0;
    for &b in rest.get(open + 3..).unwrap_or_default().iter().filter(|b| b.is_ascii_digit()) {
        let Some(slot) = nsn.get_mut(n) else { return false };
        *slot = b;
        n += 1;
    }
    significant(cc, nsn.get(..n).unwrap_or_default(), true)
}

/// How far before a number its label may be.
pub(crate) const LABEL_REACH: usize = 48;

pub(crate) struct LabelSets {
    pub(crate) labels: WordSet,
    pub(crate) abbreviations: WordSet,
}

/// [`LABELS`] and [`ABBREVIATIONS`] as sets, built once.
pub(crate) fn label_sets() -> &'static LabelSets {
    static SETS: std::sync::OnceLock<LabelSets> = std::sync::OnceLock::new();
    SETS.get_or_init(|| LabelSets { labels: WordSet::new(LABELS), abbreviations: WordSet::new(ABBREVIATIONS) })
}

/// Is there a phone label in `text[from..to]` (the bytes just before a number), on the
/// number's line? A Latin label is a whole word, with nothing between it and the number
/// but spaces, punctuation other than a sentence end, and at most three short words
/// ("Tel. (mobil):", "call me on", "WhatsApp me at"). A label in another script may be
/// inside a run of CJK characters.
pub(crate) fn labelled(t: &Text<'_>, from: usize, to: usize) -> bool {
    let before = t.bytes().get(from..to).unwrap_or_default();
    // Labels in other scripts are all non-ASCII; most texts have no such byte before a
    // number (the masks say so without reading the bytes).
    if t.any_non_ascii(from, to) {
        let line = before.iter().rposition(|&b| b == b'\n').map_or(before, |n| before.get(n + 1..).unwrap_or_default());
        if SCRIPT_LABELS.iter().any(|l| line.windows(l.len()).any(|w| w == l.as_bytes())) {
            return true;
        }
    }
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b >= 0x80;
    let sets = label_sets();
    let mut end = before.len();
    let mut words = 0;
    while words < 4 {
        // The last word before `end`, and what lies between it and the number.
        let Some(last) = before.get(..end).and_then(|l| l.iter().rposition(word)) else { return false };
        let start = before.get(..last).and_then(|l| l.iter().rposition(|b| !word(b))).map_or(0, |p| p + 1);
        let gap = before.get(last + 1..end).unwrap_or_default();
        // A word on an earlier line is no label (no word holds a line break).
        if gap.contains(&b'\n') {
            return false;
        }
        let candidate = before.get(start..=last).unwrap_or_default();
        // A sentence ends in the gap: "… by phone. 13812345678" is not a label; the dot
        // of an abbreviation is no sentence end ("Tel. 13812345678").
        let abbreviation = gap.first() == Some(&b'.') && sets.abbreviations.contains(candidate);
        if gap.iter().skip(usize::from(abbreviation)).any(|b| b".!?".contains(b)) {
            return false;
        }
        if sets.labels.contains(candidate) {
            return true;
        }
        end = start;
        words += 1;
    }
    false
}

/// Windows for `pii.phone.national.labeled.v1`: each run of number bytes with at least
/// eight digits that has a phone label before it (see [`labelled`]), with one byte more
/// on each side (the pattern's guard and `\b`). A run is what the pattern can match:
/// digits, `( ) - .`, space and `/` (and `+`, which the guard refuses).
pub(crate) fn label_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let text = t.bytes();
    let mut windows: Vec<(usize, usize)> = Vec::new();
    // The scan's numeric runs (found once for every rule that reads them), joined
    // where a `/` alone separates two: the bytes a phone number is written with.
    let runs = t.numeric_runs();
    let mut i = 0;
    while let Some(first) = runs.get(i) {
        let (start, mut end, mut digits) = (first.start, first.end, first.digits);
        i += 1;
        while let Some(next) = runs.get(i).filter(|n| n.start == end + 1 && text.get(end) == Some(&b'/')) {
            (end, digits) = (next.end, digits + next.digits);
            i += 1;
        }
        // The label is looked for before the run's first digit (the run may begin with
        // the `. ` after "Tel").
        let digit = (start..end).find(|&at| text.get(at).is_some_and(u8::is_ascii_digit)).unwrap_or(start);
        if digits < 8 || !labelled(t, digit.saturating_sub(LABEL_REACH), digit) {
            continue;
        }
        let (s, e) = (start.saturating_sub(1), (end + 1).min(text.len()));
        push_window(&mut windows, s, e);
    }
    windows
}

/// [`label_windows`] as a rule's window finder; it finds nothing without a digit (a
/// numeric run) and a letter (its label).
pub(crate) const LABEL_WINDOWS: crate::rule::WindowFinder = crate::rule::WindowFinder {
    find: label_windows,
    needs: crate::engine::text::Needs::DIGIT.and(crate::engine::text::Needs::LETTER),
};
