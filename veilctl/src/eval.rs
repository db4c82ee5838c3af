//! The detection quality benchmark: a labeled, synthetic evaluation set generated
//! reproducibly from a seed, and the scoring of an engine against it.
//!
//! Every value is made up here (random digits with valid checksums, random keys,
//! names from small multi-locale lists that are independent of the engine's own
//! dictionary); nothing comes from a real person. Hard negatives — UUIDs, git hashes,
//! timestamps, order numbers that fail Luhn, invalid SSNs, version strings, code,
//! prices, ISBNs and DOIs — fill the PII-free documents and pad the others.
#![allow(clippy::indexing_slicing)] // the generator indexes its tables by numbers drawn below their lengths

use std::collections::BTreeMap;

use serde_json::{json, Value};
use veil_detect::Engine;

/// Categories whose recall must reach [`STRUCTURED_RECALL`].
pub const STRUCTURED: &[&str] = &[
    "EMAIL",
    "PHONE",
    "SSN",
    "CREDIT_CARD",
    "IBAN",
    "ITIN",
    "PASSPORT",
    "DRIVERS_LICENSE",
    "DATE_OF_BIRTH",
    "IP_ADDRESS",
    "PRIVATE_IP",
    "MAC_ADDRESS",
    "AWS_ACCESS_KEY",
    "AWS_SECRET_KEY",
    "API_KEY",
    "GITHUB_TOKEN",
    "GITLAB_TOKEN",
    "SLACK_TOKEN",
    "STRIPE_KEY",
    "GOOGLE_API_KEY",
    "JWT",
    "PRIVATE_KEY",
    "CONNECTION_STRING",
    "PASSWORD",
    "BEARER_TOKEN",
    "SECRET",
    "INTERNAL_URL",
    "INTERNAL_HOST",
    "NPM_TOKEN",
    "HUGGINGFACE_TOKEN",
    "CODE_NAME",
    "CUSTOMER_NAME",
    "WEBHOOK_URL",
];
pub const STRUCTURED_RECALL: f64 = 0.97;
pub const PERSON_RECALL: f64 = 0.85;
pub const PRECISION: f64 = 0.97;

/// Code names and customers the evaluation policy lists (`detectors.code_names`, …).
pub const CODE_NAMES: &[&str] = &["Bluefin", "Project Nightjar", "Kestrel", "Orchid Falls"];
pub const CUSTOMERS: &[&str] = &["Globex", "Initech", "Umbrella Health", "Vandelay Industries"];

/// A labeled span, by byte offsets into the document's text.
#[derive(Debug, Clone)]
pub struct Label {
    pub category: &'static str,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone)]
pub struct Doc {
    pub text: String,
    pub labels: Vec<Label>,
}

/// SplitMix64: small, seedable, and the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo + 1) as usize) as u32
    }
    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
    fn chars(&mut self, alphabet: &[u8], n: usize) -> String {
        (0..n).map(|_| alphabet[self.below(alphabet.len())] as char).collect()
    }
    fn digits(&mut self, n: usize) -> String {
        self.chars(b"0123456789", n)
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const HEX: &[u8] = b"0123456789abcdef";

/// Names by locale, chosen for the evaluation (not taken from the engine's dictionary;
/// some are in it, many are not).
const GIVEN: &[&str] = &[
    "Emily",
    "Jacob",
    "Olivia",
    "Marcus",
    "Hannah",
    "Trevor",
    "Sofía",
    "Mateo",
    "Valeria",
    "Ignacio",
    "Lucía",
    "Thiago",
    "Chloé",
    "Mathis",
    "Élodie",
    "Bastien",
    "Jürgen",
    "Anneliese",
    "Henrik",
    "Maren",
    "Giulia",
    "Lorenzo",
    "Beatrice",
    "Piotr",
    "Zofia",
    "Aarav",
    "Priya",
    "Ishaan",
    "Lakshmi",
    "Wei",
    "Mei",
    "Haruto",
    "Yuki",
    "Minjun",
    "Seoyeon",
    "Chinedu",
    "Ngozi",
    "Kwame",
    "Amara",
    "Omar",
    "Layla",
    "Tariq",
    "Noor",
    "Dmitri",
    "Svetlana",
    "Ingrid",
    "Astrid",
    "Rafael",
    "Camila",
    "Duc",
    "Thu",
];
const SURNAME: &[&str] = &[
    "Whitfield",
    "Garcia",
    "Hernández",
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Schäfer",
    "Kowalczyk",
    "Ricci",
    "Bianchi",
    "Patel",
    "Iyer",
    "Chen",
    "Zhang",
    "Tanaka",
    "Nakamura",
    "Park",
    "Adeyemi",
    "Mensah",
    "Haddad",
    "Nasser",
    "Petrova",
    "Sokolov",
    "Johansson",
    "Castillo",
    "Ferreira",
    "Nguyen",
    "Rahimi",
    "Dubois",
    "Brennan",
    "Thornton",
    "Van der Berg",
    "O'Sullivan",
    "Abernathy",
    "Kaur",
    "Mwangi",
    "Yilmaz",
];
const STREETS: &[&str] = &[
    "Maple",
    "Oak",
    "Cedar",
    "Pine",
    "Elm",
    "Lakeview",
    "Sunset",
    "Washington",
    "Highland",
    "Riverside",
    "Franklin",
    "Willow Creek",
    "Mill",
    "Park Hill",
];
const SUFFIXES: &[&str] =
    &["Street", "St", "Avenue", "Ave", "Road", "Rd", "Boulevard", "Blvd", "Lane", "Drive", "Court", "Way", "Place"];
const CITIES: &[(&str, &str)] = &[
    ("Springfield", "IL"),
    ("Austin", "TX"),
    ("Portland", "OR"),
    ("Columbus", "OH"),
    ("San Jose", "CA"),
    ("Raleigh", "NC"),
    ("Denver", "CO"),
];
const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A document under construction: text and the labels of what was placed in it.
struct Builder {
    text: String,
    labels: Vec<Label>,
}

impl Builder {
    fn new() -> Builder {
        Builder { text: String::new(), labels: Vec::new() }
    }
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
    }
    fn value(&mut self, category: &'static str, v: &str) {
        let start = self.text.len();
        self.text.push_str(v);
        self.labels.push(Label { category, start, end: self.text.len() });
    }
}

fn luhn_complete(prefix: &str, len: usize, rng: &mut Rng) -> String {
    let mut d: Vec<u8> = prefix.bytes().map(|b| b - b'0').collect();
    while d.len() < len - 1 {
        d.push(rng.below(10) as u8);
    }
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &x)| {
            let v = u32::from(x) * if i % 2 == 0 { 2 } else { 1 };
            if v > 9 {
                v - 9
            } else {
                v
            }
        })
        .sum();
    d.push(((10 - sum % 10) % 10) as u8);
    d.into_iter().map(|x| (x + b'0') as char).collect()
}

fn card(rng: &mut Rng) -> String {
    let (prefix, len): (String, usize) = match rng.below(7) {
        0 => ("4".into(), 16),
        1 => (format!("5{}", rng.range(1, 5)), 16),
        2 => (format!("{}", rng.range(2221, 2720)), 16),
        3 => (if rng.chance(50) { "34" } else { "37" }.into(), 15),
        4 => ("6011".into(), 16),
        5 => (format!("{}", rng.range(3528, 3589)), 16),
        _ => ("36".into(), 14),
    };
    let n = luhn_complete(&prefix, len, rng);
    let sep = match rng.below(3) {
        0 => "",
        1 => " ",
        _ => "-",
    };
    if sep.is_empty() {
        return n;
    }
    let groups: &[usize] = match len {
        15 => &[4, 6, 5],
        14 => &[4, 6, 4],
        _ => &[4, 4, 4, 4],
    };
    let mut out = Vec::new();
    let mut at = 0;
    for g in groups {
        out.push(&n[at..at + g]);
        at += g;
    }
    out.join(sep)
}

fn iban(rng: &mut Rng) -> String {
    let (cc, bban) = match rng.below(6) {
        0 => ("DE", rng.digits(18)),
        1 => ("GB", format!("{}{}", rng.chars(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", 4), rng.digits(14))),
        2 => ("FR", rng.digits(23)),
        3 => ("ES", rng.digits(20)),
        4 => ("NL", format!("{}{}", rng.chars(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", 4), rng.digits(10))),
        _ => ("IT", format!("{}{}", rng.chars(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1), rng.digits(22))),
    };
    let rearranged = format!("{bban}{cc}00");
    let mut rem = 0u32;
    for c in rearranged.bytes() {
        let v = if c.is_ascii_digit() { u32::from(c - b'0') } else { u32::from(c - b'A') + 10 };
        rem = if v >= 10 { (rem * 100 + v) % 97 } else { (rem * 10 + v) % 97 };
    }
    let check = 98 - rem;
    let compact = format!("{cc}{check:02}{bban}");
    if rng.chance(50) {
        compact.as_bytes().chunks(4).map(|c| String::from_utf8_lossy(c).into_owned()).collect::<Vec<_>>().join(" ")
    } else {
        compact
    }
}

fn ssn(rng: &mut Rng) -> String {
    let mut area = rng.range(1, 899);
    if area == 666 {
        area = 667;
    }
    format!("{area:03}-{:02}-{:04}", rng.range(1, 99), rng.range(1, 9999))
}

fn phone(rng: &mut Rng) -> String {
    let nanp = || ();
    let _ = nanp;
    let a = rng.range(201, 989);
    let e = rng.range(200, 999);
    let l = rng.digits(4);
    match rng.below(9) {
        0 => format!("({a}) {e}-{l}"),
        1 => format!("{a}-{e}-{l}"),
        2 => format!("{a}.{e}.{l}"),
        3 => format!("+1 {a} {e} {l}"),
        4 => format!("+44 20 {} {}", rng.digits(4), rng.digits(4)),
        5 => format!("+49 30 {} {}", rng.digits(4), rng.digits(4)),
        6 => format!("+33 1 {} {} {} {}", rng.digits(2), rng.digits(2), rng.digits(2), rng.digits(2)),
        7 => format!("+91 {} {}", rng.range(70000, 99999), rng.digits(5)),
        _ => format!("+81 3-{}-{}", rng.digits(4), rng.digits(4)),
    }
}

fn public_ipv4(rng: &mut Rng) -> String {
    loop {
        let a = rng.range(1, 223);
        if matches!(a, 10 | 127 | 100 | 169 | 172 | 192) {
            continue;
        }
        return format!("{a}.{}.{}.{}", rng.range(0, 255), rng.range(0, 255), rng.range(1, 254));
    }
}

fn private_ip(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => format!("10.{}.{}.{}", rng.range(0, 255), rng.range(0, 255), rng.range(1, 254)),
        1 => format!("192.168.{}.{}", rng.range(0, 255), rng.range(1, 254)),
        _ => format!("172.{}.{}.{}", rng.range(16, 31), rng.range(0, 255), rng.range(1, 254)),
    }
}

fn date(rng: &mut Rng) -> String {
    let (y, m, d) = (rng.range(1940, 2005), rng.range(1, 12), rng.range(1, 28));
    match rng.below(5) {
        0 => format!("{y}-{m:02}-{d:02}"),
        1 => format!("{m:02}/{d:02}/{y}"),
        2 => format!("{d:02}.{m:02}.{y}"),
        3 => format!("{} {d}, {y}", MONTHS[m as usize - 1]),
        _ => format!("{d} {} {y}", MONTHS[m as usize - 1]),
    }
}

fn base64url(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(B64URL[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn person(rng: &mut Rng) -> String {
    let g = rng.pick(GIVEN);
    let s = rng.pick(SURNAME);
    if rng.chance(10) {
        format!("{g} {}. {s}", rng.chars(b"ABCDEFGHJKLMNPRSTW", 1))
    } else {
        format!("{g} {s}")
    }
}

/// Sentences without sensitive data, hard negatives included.
fn filler(rng: &mut Rng) -> String {
    let uuid = format!(
        "{}-{}-4{}-a{}-{}",
        rng.chars(HEX, 8),
        rng.chars(HEX, 4),
        rng.chars(HEX, 3),
        rng.chars(HEX, 3),
        rng.chars(HEX, 12)
    );
    let order = {
        // 16 digits that fail Luhn.
        let ok = luhn_complete("4", 16, rng);
        let last = (ok.as_bytes()[15] - b'0' + 1 + rng.below(8) as u8) % 10;
        format!("{}{}", &ok[..15], last)
    };
    let bad_ssn = match rng.below(5) {
        0 => format!("000-{:02}-{:04}", rng.range(1, 99), rng.range(1, 9999)),
        1 => format!("666-{:02}-{:04}", rng.range(1, 99), rng.range(1, 9999)),
        2 => format!("9{:02}-{:02}-{:04}", rng.range(0, 99), rng.range(10, 49), rng.range(1, 9999)),
        3 => format!("{:03}-00-{:04}", rng.range(1, 899), rng.range(1, 9999)),
        _ => format!("{:03}-{:02}-0000", rng.range(1, 665), rng.range(1, 99)),
    };
    let templates = [
        format!("The build {} passed after commit {}.", uuid, rng.chars(HEX, 40)),
        format!(
            "Deployed v{}.{}.{} to staging at 2024-0{}-1{}T12:{}:05Z.",
            rng.range(1, 9),
            rng.range(0, 30),
            rng.range(0, 9),
            rng.range(1, 9),
            rng.range(0, 9),
            rng.range(10, 59)
        ),
        format!("Order {} shipped; the total was ${}.{:02}.", order, rng.range(10, 2999), rng.range(0, 99)),
        format!("The form rejected {} as an SSN, which is correct.", bad_ssn),
        format!(
            "See ISBN 978-0-{}-{}-{} and doi 10.{}/{}.",
            rng.digits(3),
            rng.digits(5),
            rng.digits(1),
            rng.range(1000, 9999),
            rng.chars(b"abcdefghijklmnop0123456789", 8)
        ),
        format!(
            "Upgrade from version {}.{}.{}.{} fixed the memory leak.",
            rng.range(1, 20),
            rng.range(0, 20),
            rng.range(0, 20),
            rng.range(0, 99)
        ),
        format!(
            "let total: f64 = items.iter().map(|x| x.price * {}.0).sum(); // {} ms",
            rng.range(1, 9),
            rng.range(1, 500)
        ),
        format!(
            "The meeting moved to {} at {}:{:02}; bring the Q{} roadmap.",
            MONTHS[rng.below(12)],
            rng.range(9, 17),
            rng.range(0, 59),
            rng.range(1, 4)
        ),
        format!(
            "Pod api-{}-{} restarted {} times; sha256 {}.",
            rng.chars(HEX, 9),
            rng.chars(b"abcdefghijklmnopqrstuvwxyz0123456789", 5),
            rng.range(2, 40),
            rng.chars(HEX, 64)
        ),
        "We use Visual Studio Code, Apache Kafka and Google Cloud for the New York office.".to_string(),
        format!("Ticket #{} was closed by the Platform Team on Monday.", rng.range(1000, 99999)),
        format!("Color #{} matches the brand guide; font size {}px.", rng.chars(HEX, 6), rng.range(10, 32)),
        format!("Please summarize the attached report in {} bullet points for the Board.", rng.range(3, 7)),
        format!(
            "Run `docker run -p {}:80 nginx:1.{}` and open the docs at https://example.com/guide.",
            rng.range(3000, 9000),
            rng.range(19, 27)
        ),
        format!(
            "Latency p99 was {}.{} ms over {} requests; error rate {}.{}%.",
            rng.range(1, 900),
            rng.range(0, 9),
            rng.range(1000, 99999),
            rng.range(0, 5),
            rng.range(0, 99)
        ),
        format!(
            "The invoice INV-{}-{} is due on {}/{}/2025.",
            rng.range(2020, 2025),
            rng.digits(6),
            rng.range(1, 12),
            rng.range(1, 28)
        ),
        "Main Street Coffee and Central Park are on the itinerary for the Team Offsite.".to_string(),
        format!("Tracking number 1Z{}{} arrives Friday.", rng.chars(UPPER_DIGITS, 6), rng.digits(10)),
        "We took the train from Victoria Station to the Jordan River exhibit with the Platform Team.".to_string(),
        "In config.yaml set api_key: ${OPENAI_API_KEY} and password: <your-password> before you start.".to_string(),
        format!("The cache key={} maps to shard {}.", rng.chars(HEX, 32), rng.range(1, 64)),
    ];
    templates[rng.below(templates.len())].clone()
}

/// Appends one sentence with one value of `category`.
fn sentence(b: &mut Builder, category: &'static str, rng: &mut Rng) {
    let pre = |b: &mut Builder, s: &str| b.push(s);
    match category {
        "EMAIL" => {
            let user = format!("{}.{}", rng.pick(GIVEN), rng.pick(SURNAME)).to_lowercase().replace([' ', '\''], "");
            let user: String = user.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '.').collect();
            let domain = rng.pick(&["example.com", "mail.example.org", "example.co.uk", "corp.example.net"]);
            pre(b, rng.pick(&["Send it to ", "My email is ", "Contact: ", "cc "]));
            b.value(category, &format!("{user}@{domain}"));
            b.push(" please.");
        }
        "PHONE" => {
            pre(b, rng.pick(&["Call me at ", "Phone: ", "You can reach the clinic on ", "Mobile ", "Her number is "]));
            let p = phone(rng);
            b.value(category, &p);
            b.push(" after 5pm.");
        }
        "SSN" => {
            pre(b, rng.pick(&["SSN: ", "My social security number is ", "Employee SSN ", "ssn="]));
            let s = ssn(rng);
            b.value(category, &s);
            b.push(".");
        }
        "CREDIT_CARD" => {
            pre(b, rng.pick(&["Charge card ", "My Visa is ", "Card number: ", "Use ", "cc: "]));
            let c = card(rng);
            b.value(category, &c);
            b.push(&format!(" exp {:02}/{}.", rng.range(1, 12), rng.range(26, 31)));
        }
        "IBAN" => {
            pre(b, rng.pick(&["Wire it to IBAN ", "Account: ", "Bank details: ", "Pay into "]));
            let i = iban(rng);
            b.value(category, &i);
            b.push(" by Friday.");
        }
        "ITIN" => {
            pre(b, rng.pick(&["ITIN ", "Taxpayer id: ", "His ITIN is "]));
            b.value(category, &format!("9{:02}-{}-{:04}", rng.range(0, 99), rng.range(70, 88), rng.range(1, 9999)));
            b.push(".");
        }
        "PASSPORT" => {
            pre(b, rng.pick(&["Passport number: ", "passport no. ", "Her passport is ", "Passport # "]));
            let v = if rng.chance(50) {
                rng.digits(9)
            } else {
                format!("{}{}", rng.chars(b"ABCDEFGHJKLMNPRSTUVWXYZ", 1), rng.digits(8))
            };
            b.value(category, &v);
            b.push(", expires 2031.");
        }
        "DRIVERS_LICENSE" => {
            pre(b, rng.pick(&["Driver's license ", "driver license number: ", "DL# ", "Driving licence no. "]));
            let v = match rng.below(3) {
                0 => format!("{}{}", rng.chars(b"ABCDEFGHJKLMNPRSTUVWXYZ", 1), rng.digits(7)),
                1 => rng.digits(9),
                _ => format!(
                    "{}{}-{}-{}",
                    rng.chars(b"ABCDEFGHJKLMNPRSTUVWXYZ", 1),
                    rng.digits(3),
                    rng.digits(4),
                    rng.digits(4)
                ),
            };
            b.value(category, &v);
            b.push(" (state issued).");
        }
        "DATE_OF_BIRTH" => {
            pre(b, rng.pick(&["Date of birth: ", "DOB ", "She was born on ", "born ", "Birthday: "]));
            let d = date(rng);
            b.value(category, &d);
            b.push(".");
        }
        "IP_ADDRESS" => {
            pre(b, rng.pick(&["Login from IP ", "The server at ", "Blocked ", "Client address "]));
            let ip = if rng.chance(25) {
                format!("2001:db8:{:x}:{:x}::{:x}", rng.range(1, 0xffff), rng.range(1, 0xffff), rng.range(1, 0xffff))
            } else {
                public_ipv4(rng)
            };
            b.value(category, &ip);
            b.push(" was flagged.");
        }
        "PRIVATE_IP" => {
            pre(b, rng.pick(&["The database is on ", "ssh to ", "Gateway: ", "node "]));
            let ip = private_ip(rng);
            b.value(category, &ip);
            b.push(" in the lab.");
        }
        "MAC_ADDRESS" => {
            pre(b, rng.pick(&["MAC ", "The NIC has address ", "hwaddr "]));
            let sep = if rng.chance(70) { ":" } else { "-" };
            let v: Vec<String> = (0..6).map(|_| rng.chars(b"0123456789abcdef", 2)).collect();
            b.value(category, &v.join(sep));
            b.push(".");
        }
        "AWS_ACCESS_KEY" => {
            pre(b, "aws_access_key_id = ");
            let v = format!("AKIA{}", rng.chars(UPPER_DIGITS, 16));
            b.value(category, &v);
            b.push("\n");
        }
        "AWS_SECRET_KEY" => {
            pre(b, rng.pick(&["aws_secret_access_key = ", "AWS secret: ", "export AWS_SECRET_ACCESS_KEY="]));
            let v = rng.chars(B64, 40);
            b.value(category, &v);
            b.push("\n");
        }
        "API_KEY" => {
            pre(b, rng.pick(&["OPENAI key ", "Use this key: ", "client = Anthropic(api_key=\"", "token "]));
            let v = if rng.chance(50) {
                format!("sk-proj-{}", rng.chars(ALNUM, 48))
            } else {
                format!("sk-ant-api03-{}", rng.chars(ALNUM, 40))
            };
            b.value(category, &v);
            b.push("\") for now.");
        }
        "GITHUB_TOKEN" => {
            pre(b, rng.pick(&["GITHUB_TOKEN=", "git clone with token ", "gh auth token: "]));
            let v = if rng.chance(60) {
                format!("gh{}_{}", rng.pick(&["p", "o", "s", "u"]), rng.chars(ALNUM, 36))
            } else {
                format!("github_pat_{}_{}", rng.chars(ALNUM, 22), rng.chars(ALNUM, 59))
            };
            b.value(category, &v);
            b.push("\n");
        }
        "GITLAB_TOKEN" => {
            pre(b, "gitlab token ");
            b.value(category, &format!("glpat-{}", rng.chars(ALNUM, 20)));
            b.push(".");
        }
        "SLACK_TOKEN" => {
            pre(b, "slack bot ");
            b.value(category, &format!("xoxb-{}-{}-{}", rng.digits(11), rng.digits(12), rng.chars(ALNUM, 24)));
            b.push(" posts alerts.");
        }
        "WEBHOOK_URL" => {
            pre(b, rng.pick(&["alerts go to ", "SLACK_WEBHOOK=", "the hook "]));
            b.value(
                category,
                &format!(
                    "https://hooks.slack.com/services/T{}/B{}/{}",
                    rng.chars(UPPER_DIGITS, 8),
                    rng.chars(UPPER_DIGITS, 8),
                    rng.chars(ALNUM, 24)
                ),
            );
            b.push(" for the on-call channel.");
        }
        "STRIPE_KEY" => {
            pre(b, "STRIPE_SECRET_KEY=");
            b.value(category, &format!("sk_{}_{}", rng.pick(&["live", "test"]), rng.chars(ALNUM, 24)));
            b.push("\n");
        }
        "GOOGLE_API_KEY" => {
            pre(b, "maps key ");
            b.value(category, &format!("AIza{}", rng.chars(B64URL, 35)));
            b.push(" in the frontend.");
        }
        "JWT" => {
            pre(b, rng.pick(&["token: ", "The cookie holds ", "jwt="]));
            let header = base64url(br#"{"alg":"HS256","typ":"JWT"}"#);
            let payload = base64url(format!(r#"{{"sub":"{}","iat":{}}}"#, rng.digits(6), rng.digits(10)).as_bytes());
            b.value(category, &format!("{header}.{payload}.{}", rng.chars(B64URL, 43)));
            b.push(" (expired?)");
        }
        "PRIVATE_KEY" => {
            pre(b, "Here is the key:\n");
            let kind = rng.pick(&["", "RSA ", "EC ", "OPENSSH "]);
            let body: Vec<String> = (0..3).map(|_| rng.chars(B64, 64)).collect();
            b.value(
                category,
                &format!("-----BEGIN {kind}PRIVATE KEY-----\n{}\n-----END {kind}PRIVATE KEY-----", body.join("\n")),
            );
            b.push("\n");
        }
        "CONNECTION_STRING" => {
            pre(b, rng.pick(&["DATABASE_URL=", "connect with ", "dsn: "]));
            let scheme = rng.pick(&["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp"]);
            b.value(
                category,
                &format!(
                    "{scheme}://{}:{}@db{}.example.net:{}/app",
                    rng.pick(&["app", "admin", "svc_user"]),
                    rng.chars(ALNUM, 14),
                    rng.range(1, 9),
                    rng.range(1000, 9999)
                ),
            );
            b.push("\n");
        }
        "PASSWORD" => {
            let (before, after) = match rng.below(3) {
                0 => ("password=", ""),
                1 => ("\"password\": \"", "\""),
                _ => ("DB_PASSWD: ", ""),
            };
            pre(b, before);
            b.value(category, &format!("{}{}!", rng.chars(ALNUM, 10), rng.digits(2)));
            b.push(after);
            b.push("\n");
        }
        "BEARER_TOKEN" => {
            pre(b, "curl -H \"Authorization: Bearer ");
            b.value(category, &rng.chars(ALNUM, 32));
            b.push("\" https://api.example.com/v1/me");
        }
        "SECRET" => {
            pre(b, rng.pick(&["SESSION_TOKEN=", "signing_key: ", "\"auth_token\": \"", "WEBHOOK_SIGNATURE="]));
            b.value(category, &rng.chars(ALNUM, 32));
            b.push("\n");
        }
        "INTERNAL_URL" => {
            pre(b, rng.pick(&["See ", "The runbook is at ", "Dashboard: "]));
            let v = match rng.below(3) {
                0 => format!("https://wiki.corp/{}/page-{}", rng.pick(&["ops", "hr", "payroll"]), rng.range(1, 999)),
                1 => format!(
                    "http://jenkins.internal:{}/job/{}",
                    rng.range(8000, 8999),
                    rng.pick(&["deploy", "nightly"])
                ),
                _ => format!("http://{}:{}/admin", private_ip(rng), rng.range(3000, 9999)),
            };
            b.value(category, &v);
            b.push(" for details.");
        }
        "INTERNAL_HOST" => {
            pre(b, rng.pick(&["ssh into ", "the replica ", "ping "]));
            b.value(
                category,
                &format!(
                    "{}-{:02}.{}.{}",
                    rng.pick(&["db", "build", "cache", "vault"]),
                    rng.range(1, 40),
                    rng.pick(&["prod", "stage", "eu1"]),
                    rng.pick(&["corp", "internal", "lan"])
                ),
            );
            b.push(" before noon.");
        }
        "NPM_TOKEN" => {
            pre(b, "//registry.npmjs.org/:_authToken=");
            b.value(category, &format!("npm_{}", rng.chars(ALNUM, 36)));
            b.push("\n");
        }
        "HUGGINGFACE_TOKEN" => {
            pre(b, "HF token ");
            b.value(category, &format!("hf_{}", rng.chars(ALNUM, 34)));
            b.push(" for the model download.");
        }
        "CODE_NAME" => {
            pre(b, rng.pick(&["The launch of ", "Status of ", "Keep "]));
            let v = rng.pick(CODE_NAMES);
            let v = if rng.chance(30) { v.to_uppercase() } else { v.to_string() };
            b.value(category, &v);
            b.push(" slipped to Q3.");
        }
        "CUSTOMER_NAME" => {
            pre(b, rng.pick(&["Renewal for ", "Escalation from ", "Our biggest account, "]));
            let v = rng.pick(CUSTOMERS);
            b.value(category, v);
            b.push(", is at risk.");
        }
        "PERSON" => {
            let p = person(rng);
            match rng.below(9) {
                0 => {
                    b.push("Name: ");
                    b.value(category, &p);
                    b.push("\n");
                }
                1 => {
                    b.push("Dear ");
                    b.value(category, &p);
                    b.push(",\n");
                }
                2 => {
                    b.push(rng.pick(&["Mr. ", "Ms. ", "Dr. ", "Mrs. "]));
                    b.value(category, &p);
                    b.push(" will join.");
                }
                3 => {
                    b.push("Regards,\n");
                    b.value(category, &p);
                }
                4 => {
                    b.push("Hi, my name is ");
                    b.value(category, &p);
                    b.push(" and I need help.");
                }
                5 => {
                    b.push("Patient: ");
                    b.value(category, &p);
                    b.push(", age 54.");
                }
                6 => {
                    b.push("I spoke with ");
                    b.value(category, &p);
                    b.push(" yesterday about the refund.");
                }
                7 => {
                    b.push("Forward this to ");
                    b.value(category, &p);
                    b.push(" in finance.");
                }
                _ => {
                    b.push("Customer: ");
                    b.value(category, &p);
                    b.push(" (premium).");
                }
            }
        }
        _ => {
            // ADDRESS
            let (city, state) = CITIES[rng.below(CITIES.len())];
            pre(b, rng.pick(&["Ship to ", "I live at ", "Office: ", "Send the package to "]));
            let street = format!("{} {} {}", rng.range(1, 9999), rng.pick(STREETS), rng.pick(SUFFIXES));
            let v = if rng.chance(60) { format!("{street}, {city}, {state} {}", rng.digits(5)) } else { street };
            b.value("ADDRESS", &v);
            b.push(".");
        }
    }
}

/// The evaluation set: `docs` documents with one to three values each, then
/// `docs / 4` PII-free documents of hard negatives only.
pub fn generate(seed: u64, docs: usize) -> (Vec<Doc>, Vec<Doc>) {
    let mut rng = Rng::new(seed);
    let mut all: Vec<&'static str> = STRUCTURED.to_vec();
    all.extend(["PERSON", "PERSON", "PERSON", "ADDRESS"]);
    let mut positive = Vec::new();
    let mut next = 0usize;
    for _ in 0..docs {
        let mut b = Builder::new();
        let n = 1 + rng.below(3);
        for _ in 0..n {
            if rng.chance(50) {
                b.push(&filler(&mut rng));
                b.push(" ");
            }
            // Cycle through the categories so that each gets the same share.
            let category = all[next % all.len()];
            next += 1;
            sentence(&mut b, category, &mut rng);
            b.push(" ");
        }
        if rng.chance(50) {
            b.push(&filler(&mut rng));
        }
        positive.push(Doc { text: b.text, labels: b.labels });
    }
    let mut negative = Vec::new();
    for _ in 0..docs / 4 {
        let mut text = String::new();
        for _ in 0..1 + rng.below(4) {
            text.push_str(&filler(&mut rng));
            text.push(' ');
        }
        negative.push(Doc { text, labels: Vec::new() });
    }
    (positive, negative)
}

/// Recall per category, precision, and false positives on PII-free documents.
pub fn score(engine: &Engine, positive: &[Doc], negative: &[Doc]) -> Value {
    let mut per: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let (mut tp, mut fp) = (0usize, 0usize);
    let mut fp_by: BTreeMap<String, usize> = BTreeMap::new();
    for doc in positive {
        let findings = engine.scan(doc.text.as_bytes());
        let found: Vec<(&str, usize, usize)> = findings
            .iter()
            .filter_map(|f| engine.rule(f.rule).map(|r| (r.category.as_str(), f.start, f.end)))
            .collect();
        for label in &doc.labels {
            let entry = per.entry(label.category).or_default();
            entry.1 += 1;
            if found.iter().any(|&(c, s, e)| c == label.category && s < label.end && label.start < e) {
                entry.0 += 1;
            }
        }
        for &(c, s, e) in &found {
            if doc.labels.iter().any(|l| l.category == c && s < l.end && l.start < e) {
                tp += 1;
            } else {
                fp += 1;
                *fp_by.entry(c.to_string()).or_default() += 1;
            }
        }
    }
    let mut negative_fp = 0;
    for doc in negative {
        for f in engine.scan(doc.text.as_bytes()) {
            negative_fp += 1;
            fp += 1;
            if let Some(r) = engine.rule(f.rule) {
                *fp_by.entry(r.category.clone()).or_default() += 1;
            }
        }
    }
    let recall: serde_json::Map<String, Value> = per
        .iter()
        .map(|(c, (hit, total))| (c.to_string(), json!({"recall": ratio(*hit, *total), "found": hit, "labels": total})))
        .collect();
    let precision = ratio(tp, tp + fp);
    let structured_ok = STRUCTURED.iter().all(|c| per.get(c).is_some_and(|(h, t)| ratio(*h, *t) >= STRUCTURED_RECALL));
    let person_ok = per.get("PERSON").is_some_and(|(h, t)| ratio(*h, *t) >= PERSON_RECALL);
    json!({
        "documents": positive.len(),
        "pii_free_documents": negative.len(),
        "labels": per.values().map(|v| v.1).sum::<usize>(),
        "recall": recall,
        "precision": precision,
        "true_positives": tp,
        "false_positives": fp,
        "false_positives_by_category": fp_by,
        "false_positives_on_pii_free_documents": negative_fp,
        "targets": {
            "structured_recall": STRUCTURED_RECALL,
            "person_recall": PERSON_RECALL,
            "precision": PRECISION,
            "met": structured_ok && person_ok && precision >= PRECISION,
        },
    })
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        (a as f64 / b as f64 * 10_000.0).round() / 10_000.0
    }
}

/// One JSON line per document: text and labels with byte and character offsets (for
/// tools such as Presidio that count characters).
pub fn export(docs: &[Doc]) -> String {
    let mut out = String::new();
    for (i, doc) in docs.iter().enumerate() {
        let chars = |byte: usize| doc.text.get(..byte).map_or(0, |p| p.chars().count());
        let labels: Vec<Value> = doc
            .labels
            .iter()
            .map(|l| json!({"category": l.category, "start": l.start, "end": l.end, "char_start": chars(l.start), "char_end": chars(l.end)}))
            .collect();
        out.push_str(&json!({"id": i, "text": doc.text, "labels": labels}).to_string());
        out.push('\n');
    }
    out
}
