//! Person names in Chinese, Japanese and Korean, which have no capitals for
//! `person.rs` to start from and (Chinese, Japanese) no spaces between words. A name
//! is read only where a phrase says one is there, and must have a name's shape there:
//!
//! - after a field label and its colon (`姓名：李娜`, `氏名：鈴木 美咲`, `이름: 김민준`):
//!   the whole field, two to four characters (a space between family and given name in
//!   Japanese), up to punctuation, a space or the line's end;
//! - after a Chinese self-introduction (`我是王伟，`, `我叫李娜。`): two to four
//!   ideographs up to punctuation;
//! - before a Japanese self-introduction (`山田 花子です`, `田中と申します`) at the start of
//!   a sentence: family and given name with a space between them before `です`, any
//!   ideographs or katakana before `と申します`;
//! - before a Korean copula (`이서연입니다`) after a greeting or `저는`: three syllables.
//!
//! The name must begin with a common family name of its language (the first character
//! of one in Japanese), so that `我是学生` or `안녕하세요, 고객센터입니다` is no name.
//! Texts without a character of three UTF-8 bytes are passed over at once; in others
//! the cue phrases are found in one pass of one automaton, and only they are read
//! around.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use crate::engine::text::Text;
use crate::rule::push_window;

/// The scripts a cue introduces a name in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Chinese,
    Japanese,
    Korean,
}

/// Where the name is, relative to its cue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A field label: `：` or `:` and then the name.
    Label,
    /// Right after the cue (`我是`).
    After,
    /// Right before the cue (`です`, `입니다`).
    Before,
}

const CUES: &[(&str, Script, Place)] = &[
    // Chinese labels (simplified and traditional) and self-introductions.
    ("姓名", Script::Chinese, Place::Label),
    ("名字", Script::Chinese, Place::Label),
    ("联系人", Script::Chinese, Place::Label),
    ("聯絡人", Script::Chinese, Place::Label),
    ("联络人", Script::Chinese, Place::Label),
    ("收件人", Script::Chinese, Place::Label),
    ("收货人", Script::Chinese, Place::Label),
    ("收貨人", Script::Chinese, Place::Label),
    ("申请人", Script::Chinese, Place::Label),
    ("申請人", Script::Chinese, Place::Label),
    ("持卡人", Script::Chinese, Place::Label),
    ("负责人", Script::Chinese, Place::Label),
    ("負責人", Script::Chinese, Place::Label),
    ("经办人", Script::Chinese, Place::Label),
    ("經辦人", Script::Chinese, Place::Label),
    ("户名", Script::Chinese, Place::Label),
    ("戶名", Script::Chinese, Place::Label),
    ("我是", Script::Chinese, Place::After),
    ("我叫", Script::Chinese, Place::After),
    ("名字是", Script::Chinese, Place::After),
    ("名字叫", Script::Chinese, Place::After),
    // Japanese labels and self-introductions.
    ("氏名", Script::Japanese, Place::Label),
    ("名前", Script::Japanese, Place::Label),
    ("担当者", Script::Japanese, Place::Label),
    ("契約者", Script::Japanese, Place::Label),
    ("申込者", Script::Japanese, Place::Label),
    ("申請者", Script::Japanese, Place::Label),
    ("宛名", Script::Japanese, Place::Label),
    ("名義人", Script::Japanese, Place::Label),
    ("です", Script::Japanese, Place::Before),
    ("でございます", Script::Japanese, Place::Before),
    ("と申します", Script::Japanese, Place::Before),
    // Korean labels and the copula after a name.
    ("이름", Script::Korean, Place::Label),
    ("성명", Script::Korean, Place::Label),
    ("성함", Script::Korean, Place::Label),
    ("담당자", Script::Korean, Place::Label),
    ("신청인", Script::Korean, Place::Label),
    ("예금주", Script::Korean, Place::Label),
    ("입니다", Script::Korean, Place::Before),
    ("이에요", Script::Korean, Place::Before),
    ("예요", Script::Korean, Place::Before),
];

/// Single-character Chinese family names: the most common ones in the mainland and
/// Taiwan, in simplified and traditional forms.
const CHINESE_FAMILY: &str = concat!(
    "王李张張刘劉陈陳杨楊黄黃赵趙吴吳周徐孙孫马馬朱胡郭何高林罗羅郑鄭梁谢謝宋唐许許韩韓冯馮邓鄧曹彭曾",
    "萧蕭肖田董袁潘于於蒋蔣蔡余杜叶葉程苏蘇魏吕呂丁任沈姚卢盧姜崔钟鍾谭譚陆陸汪范金石廖贾賈夏韦韋",
    "付傅方白邹鄒孟熊秦邱江尹薛闫閆段雷侯龙龍史陶黎贺賀顾顧毛郝龚龔邵万萬钱錢严嚴覃武戴莫孔向汤湯",
    "常温溫康施文牛樊葛邢安齐齊易乔喬伍庞龐颜顏倪庄莊聂聶章鲁魯岳翟殷詹申欧歐耿关關兰蘭焦俞左柳甘",
    "祝包宁寧尚符舒阮柯纪紀梅童凌毕畢单單季裴霍涂成苗谷盛曲翁冉骆駱蓝藍路游辛靳管柴蒙鲍鮑华華喻",
    "祁蒲房滕屈饶饒解牟艾尤阳陽时時穆农農司卓古吉缪繆简簡车車项項连連芦蘆麦麥褚娄婁窦竇戚岑景党",
    "宫宮费費卜冷晏席卫衛米柏宗瞿桂全佟应應臧闵閔苟邬鄔边邊卞姬师師和仇栾欒隋商刁沙荣榮巫寇桑",
    "郎甄丛叢仲虞敖巩鞏明佘池查麻苑迟遲邝鄺官封谈談匡鞠惠荆荊乐樂冀郁胥南班储儲原栗燕楚鄢劳勞",
    "谌諶奚皮粟冼蔺藺楼樓盘盤满滿闻聞位厉厲伊仝区區郜海阚闞花权權强強帅帥屠豆朴盖蓋练練廉禹井",
    "祖漆巴丰支卿国國狄平计計索宣晋晉相初门門云雲容敬来來扈晁芮都普阙闕浦戈伏鹿薄邸雍辜羊阿乌烏",
    "母裘亓修邰赫杭况況那宿鲜鮮印逯隆茹诸諸战戰慕危玉银銀亢嵇公哈湛宾賓戎勾茅利於呼居揭干但尉",
    "冶斯元束檀衣信展阴陰昝智幸奉植衡富尧堯闭閉由",
);

/// Two-character Chinese family names.
const CHINESE_DOUBLE: &[&str] = &[
    "欧阳", "歐陽", "司马", "司馬", "上官", "诸葛", "諸葛", "东方", "東方", "皇甫", "令狐", "慕容", "夏侯", "公孙",
    "公孫", "尉迟", "尉遲", "长孙", "長孫", "宇文", "司徒", "端木",
];

/// First characters of common Japanese family names (`佐藤`, `鈴木`, `高橋`, …).
const JAPANESE_FIRST: &str = concat!(
    "佐鈴高田伊渡山中小加吉松井木林斎斉清森池橋阿石前藤後岡長村近坂遠青西福太原三竹金上野大今内河武平",
    "宮久菅島杉千北岩桜櫻菊市川新永荒堀柴酒工横宇望関水浅増秋土須飯沢澤谷安丸白東服本片岸矢古早尾熊浜",
    "濱稲成奥南富樋星黒黑入梅守有柳広廣桑滝瀧辻芦塚篠神戸堤名",
);

/// Korean family names that make up most of the population (the rarer ones, which
/// also begin common words — `선생님`, `인사팀` — are left out).
const KOREAN_FAMILY: &str = concat!(
    "김이박최정강조윤장임한오서신권황안송류유전홍고문양손배백허남심노하곽성차주우구민진나엄채원천방",
    "함변염여추도라",
);

const KOREAN_DOUBLE: &[&str] = &["남궁", "황보", "제갈", "선우", "독고", "사공", "서문"];

/// Last syllables of Korean words that name a team or office, not a person
/// (`개발팀`, `총무부`, `민원실`), or address someone (`고객님`).
const KOREAN_NOT_LAST: &str = "팀부과실님청처국단회사장";

/// Phrases before a Korean name and its copula: a greeting or "I am".
const KOREAN_INTROS: &[&str] = &["안녕하세요", "안녕하십니까", "저는", "이름은", "성함은", "제가"];

/// Last characters of Chinese words for an occupation, a group or an office
/// (`程序员`, `项目组`), which begin with a family name as often as names do.
const CHINESE_NOT_LAST: &str = "员員师師者家们們长長部局处處科组組司";

/// Greetings before `我是`.
const CHINESE_GREETINGS: &[&str] = &["您好", "你好", "大家好", "喂"];

/// Chinese titles after a name, not part of it (`王伟先生`).
const CHINESE_TITLES: &[&str] = &["先生", "女士", "小姐", "老师", "老師", "经理", "經理", "医生", "醫生", "教授"];

fn byte(h: &[u8], i: usize) -> u8 {
    h.get(i).copied().unwrap_or(0)
}

/// A CJK unified ideograph (U+4E00–U+9FFF) at `i`.
fn han(h: &[u8], i: usize) -> bool {
    match byte(h, i) {
        0xE4 => byte(h, i + 1) >= 0xB8,
        0xE5..=0xE9 => true,
        _ => false,
    }
}

/// A katakana letter (U+30A1–U+30FF, the long-vowel mark and middle dot included).
fn katakana(h: &[u8], i: usize) -> bool {
    byte(h, i) == 0xE3 && ((byte(h, i + 1) == 0x82 && byte(h, i + 2) >= 0xA1) || byte(h, i + 1) == 0x83)
}

/// A hiragana letter (U+3041–U+309F).
fn hiragana(h: &[u8], i: usize) -> bool {
    byte(h, i) == 0xE3
        && ((byte(h, i + 1) == 0x81 && byte(h, i + 2) >= 0x81) || (byte(h, i + 1) == 0x82 && byte(h, i + 2) < 0xA0))
}

/// A Hangul syllable (U+AC00–U+D7A3).
fn hangul(h: &[u8], i: usize) -> bool {
    match byte(h, i) {
        0xEA => byte(h, i + 1) >= 0xB0,
        0xEB | 0xEC => true,
        0xED => byte(h, i + 1) <= 0x9E,
        _ => false,
    }
}

/// Any letter of the three scripts, or an ASCII letter or digit: what a name may not
/// run into.
fn letter(h: &[u8], i: usize) -> bool {
    byte(h, i).is_ascii_alphanumeric() || han(h, i) || katakana(h, i) || hiragana(h, i) || hangul(h, i)
}

/// The letter of three bytes that ends at `end`, if it is one.
fn letter_before(h: &[u8], end: usize, is: fn(&[u8], usize) -> bool) -> bool {
    end >= 3 && is(h, end - 3)
}

fn char_at(h: &[u8], i: usize) -> &str {
    h.get(i..i + 3).and_then(|c| std::str::from_utf8(c).ok()).unwrap_or("")
}

fn in_list(h: &[u8], i: usize, list: &str) -> bool {
    let c = char_at(h, i);
    !c.is_empty() && list.contains(c)
}

fn starts_with_any(h: &[u8], i: usize, list: &[&str]) -> Option<usize> {
    let rest = h.get(i..)?;
    list.iter().find(|w| rest.starts_with(w.as_bytes())).map(|w| w.len())
}

/// Blanks: ASCII spaces and tabs, and the ideographic space.
fn skip_blanks(h: &[u8], mut i: usize) -> usize {
    loop {
        if matches!(byte(h, i), b' ' | b'\t') {
            i += 1;
        } else if h.get(i..i + 3) == Some("\u{3000}".as_bytes()) {
            i += 3;
        } else {
            return i;
        }
    }
}

/// One blank between family and given name: its length.
fn one_blank(h: &[u8], i: usize) -> usize {
    if byte(h, i) == b' ' {
        1
    } else if h.get(i..i + 3) == Some("\u{3000}".as_bytes()) {
        3
    } else {
        0
    }
}

/// The end of the run of letters of `is` from `i`, and their number.
fn run(h: &[u8], mut i: usize, is: fn(&[u8], usize) -> bool) -> (usize, usize) {
    let mut n = 0;
    while is(h, i) && n < 16 {
        i += 3;
        n += 1;
    }
    (i, n)
}

/// A Chinese name at `at`: a family name and one or two ideographs (two with a double
/// family name), then no more ideographs; a title after it is left out.
fn chinese_at(h: &[u8], at: usize) -> Option<usize> {
    let (end, n) = run(h, at, han);
    if letter(h, end) {
        return None;
    }
    let double = starts_with_any(h, at, CHINESE_DOUBLE).is_some();
    if !double && !in_list(h, at, CHINESE_FAMILY) {
        return None;
    }
    let mut n = n;
    let mut end = end;
    if let Some(title) = CHINESE_TITLES.iter().find(|t| h.get(at..end).is_some_and(|r| r.ends_with(t.as_bytes()))) {
        end -= title.len();
        n -= title.len() / 3;
    }
    let fits = if double { (3..=4).contains(&n) } else { (2..=3).contains(&n) };
    (fits && !in_list(h, end - 3, CHINESE_NOT_LAST)).then_some(end)
}

/// A Japanese name at `at` in a field: one to four ideographs (the first one of a
/// family name), and after one blank one to four ideographs or kana; or ideographs
/// alone, two to five (not with `spaced_only`).
fn japanese_at(h: &[u8], at: usize, spaced_only: bool) -> Option<usize> {
    if !in_list(h, at, JAPANESE_FIRST) {
        return None;
    }
    let (end, n) = run(h, at, han);
    let blank = one_blank(h, end);
    if blank > 0 && (1..=4).contains(&n) {
        let (given_end, m) = run(h, end + blank, |h, i| han(h, i) || hiragana(h, i) || katakana(h, i));
        if (1..=4).contains(&m) && !letter(h, given_end) {
            return Some(given_end);
        }
    }
    (!spaced_only && (2..=5).contains(&n) && !letter(h, end)).then_some(end)
}

/// A Korean name at `at` in a field: a family name and one to three syllables (two or
/// three with a double family name).
fn korean_at(h: &[u8], at: usize) -> Option<usize> {
    let (end, n) = run(h, at, hangul);
    if letter(h, end) {
        return None;
    }
    let double = starts_with_any(h, at, KOREAN_DOUBLE).is_some();
    let fits = if double { (3..=4).contains(&n) } else { in_list(h, at, KOREAN_FAMILY) && (2..=4).contains(&n) };
    fits.then_some(end)
}

/// A sentence or field boundary ends right before `i` (the text's start, a line break,
/// punctuation, a blank), so that what follows begins a phrase.
fn boundary_before(h: &[u8], i: usize) -> bool {
    if i == 0 {
        return true;
    }
    let b = byte(h, i - 1);
    if b.is_ascii() {
        return !b.is_ascii_alphanumeric();
    }
    // CJK punctuation (U+3000–U+303F) and full-width forms (U+FF00–U+FF0F, `：`, …).
    i >= 3
        && ((byte(h, i - 3) == 0xE3 && byte(h, i - 2) == 0x80)
            || (byte(h, i - 3) == 0xEF && matches!(byte(h, i - 2), 0xBC | 0xBD) && !letter(h, i - 3)))
}

/// The name a cue at `at` introduces, as `(start, end)`.
fn name_at_cue(h: &[u8], at: usize, cue: &str, script: Script, place: Place) -> Option<(usize, usize)> {
    let after = at + cue.len();
    match place {
        Place::Label => {
            // A label stands alone: `姓名：`, not `英文姓名的` or `무이름`.
            let mut i = skip_blanks(h, after);
            if byte(h, i) == b':' {
                i += 1;
            } else if h.get(i..i + 3) == Some("：".as_bytes()) {
                i += 3;
            } else {
                return None;
            }
            let start = skip_blanks(h, i);
            let end = match script {
                Script::Chinese => chinese_at(h, start).or_else(|| japanese_at(h, start, true)),
                Script::Japanese => japanese_at(h, start, false).or_else(|| chinese_at(h, start)),
                Script::Korean => korean_at(h, start),
            }?;
            Some((start, end))
        }
        Place::After => {
            // `我是` says who one is only after a greeting (`您好，我是王伟`); it also
            // begins "I am a programmer".
            if cue == "我是" {
                let mut i = at;
                loop {
                    if i >= 3 && matches!(char_at(h, i - 3), "，" | "！" | "。") {
                        i -= 3;
                    } else if i >= 1 && matches!(byte(h, i - 1), b' ' | b',' | b'!') {
                        i -= 1;
                    } else {
                        break;
                    }
                }
                if !CHINESE_GREETINGS.iter().any(|g| h.get(..i).is_some_and(|b| b.ends_with(g.as_bytes()))) {
                    return None;
                }
            }
            let start = skip_blanks(h, after);
            Some((start, chinese_at(h, start)?))
        }
        Place::Before if script == Script::Korean => {
            // Three syllables right before the copula, after a blank, with a greeting
            // or "I am" before them in the same sentence.
            let mut start = at;
            let mut n = 0;
            while n < 5 && letter_before(h, start, hangul) {
                start -= 3;
                n += 1;
            }
            let double = starts_with_any(h, start, KOREAN_DOUBLE).is_some();
            let fits = if double { n == 4 } else { n == 3 && in_list(h, start, KOREAN_FAMILY) };
            if !fits || in_list(h, at - 3, KOREAN_NOT_LAST) || !boundary_before(h, start) {
                return None;
            }
            let mut i = start;
            while i > 0 && matches!(byte(h, i - 1), b' ' | b',' | b'\t') {
                i -= 1;
            }
            let intro = KOREAN_INTROS.iter().any(|w| h.get(..i).is_some_and(|b| b.ends_with(w.as_bytes())));
            intro.then_some((start, at))
        }
        Place::Before => {
            // Japanese: family and given name with a blank between them (`山田 花子です`),
            // or before `と申します` ideographs alone (`木村と申します`) or katakana alone
            // (`スミスと申します`), at the start of a phrase.
            let humble = cue == "と申します";
            let given = back(h, at, 4, |h, i| han(h, i) || hiragana(h, i) || katakana(h, i));
            let blank = if given >= 3 && h.get(given - 3..given) == Some("\u{3000}".as_bytes()) {
                3
            } else {
                usize::from(given >= 1 && byte(h, given - 1) == b' ')
            };
            let kana_given = !han(h, given) && !katakana(h, given);
            if given < at && blank > 0 && !(kana_given && at - given < 6) {
                let family = back(h, given - blank, 4, han);
                if family < given - blank && in_list(h, family, JAPANESE_FIRST) && starts_phrase(h, family) {
                    return Some((family, at));
                }
            }
            if !humble {
                return None;
            }
            let kanji = back(h, at, 5, han);
            if at - kanji >= 6 && in_list(h, kanji, JAPANESE_FIRST) && starts_phrase(h, kanji) {
                return Some((kanji, at));
            }
            let kana = back(h, at, 10, katakana);
            (at - kana >= 6 && starts_phrase(h, kana)).then_some((kana, at))
        }
    }
}

/// The start of the run of at most `max` letters of `is` that ends at `end`.
fn back(h: &[u8], end: usize, max: usize, is: fn(&[u8], usize) -> bool) -> usize {
    let mut s = end;
    while letter_before(h, s, is) && end - s < 3 * max {
        s -= 3;
    }
    s
}

/// A phrase begins at `i`: after a boundary or a particle in hiragana (`私は`, `営業部の`).
fn starts_phrase(h: &[u8], i: usize) -> bool {
    boundary_before(h, i) || letter_before(h, i, hiragana)
}

/// One automaton for every cue, built on first use: a text is read once, however many
/// cues there are.
fn cues() -> Option<&'static AhoCorasick> {
    static CUE_SET: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    CUE_SET
        .get_or_init(|| {
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostLongest)
                .kind(Some(AhoCorasickKind::DFA))
                .build(CUES.iter().map(|c| c.0))
                .ok()
        })
        .as_ref()
}

/// Calls `hit` with the position of every cue at or after `from`, in order, while it
/// returns true.
fn each_cue(h: &[u8], from: usize, mut hit: impl FnMut(usize, &(&'static str, Script, Place)) -> bool) {
    let Some(rest) = h.get(from..) else { return };
    match cues() {
        Some(automaton) => {
            for m in automaton.find_iter(rest) {
                if let Some(cue) = CUES.get(m.pattern().as_usize()) {
                    if !hit(from + m.start(), cue) {
                        return;
                    }
                }
            }
        }
        // The automaton of fixed cues cannot fail to build; were it to, each cue is
        // searched for on its own (out of order: every one is visited).
        None => {
            for cue in CUES {
                for at in memchr::memmem::find_iter(rest, cue.0.as_bytes()) {
                    hit(from + at, cue);
                }
            }
        }
    }
}

/// The longest cue after a name, `でございます`.
const LONGEST_CUE: usize = 18;

/// The longest cue before its name: a label, its colon and blanks.
const LOOK_BACK: usize = 64;

/// The longest name before its cue: four ideographs, a blank and four more before
/// `です`, or ten katakana before `と申します`.
const LONGEST_NAME_BEFORE: usize = 30;

/// The leftmost name at or after `from` in `hay` (the cue may lie before `from`).
pub fn find(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut first: Option<(usize, usize)> = None;
    each_cue(hay, from.saturating_sub(LOOK_BACK), |at, &(cue, script, place)| {
        // A later cue's name begins after the one found.
        if first.is_some_and(|(s, _)| at > s + LONGEST_NAME_BEFORE) {
            return false;
        }
        if let Some(span) = name_at_cue(hay, at, cue, script, place) {
            if span.0 >= from && first.is_none_or(|f| span < f) {
                first = Some(span);
            }
        }
        true
    });
    first
}

/// The gate of [`find`]: texts with wide characters, around each name.
pub fn windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let mut windows = Vec::new();
    if !t.has_wide() {
        return windows;
    }
    let h = t.bytes();
    let mut spans = Vec::new();
    each_cue(h, 0, |at, &(cue, script, place)| {
        spans.extend(name_at_cue(h, at, cue, script, place));
        true
    });
    spans.sort_unstable();
    for (s, e) in spans {
        // The cue after a name (`です`, `입니다`) is in its window too.
        push_window(&mut windows, s, (e + LONGEST_CUE).min(h.len()));
    }
    windows
}

/// [`windows`] as a rule's window finder; it finds nothing without a non-ASCII byte
/// (its cues are CJK).
pub const WINDOWS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: windows, needs: crate::engine::text::Needs::NON_ASCII };

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        crate::tests::every_match(find, text)
    }

    /// Synthetic names written for this test, with the phrases around them.
    #[test]
    fn names_after_labels_and_introductions() {
        let table: &[(&str, &[&str])] = &[
            ("姓名：张伟\n电话：…", &["张伟"]),
            ("联系人: 欧阳娜娜 电话", &["欧阳娜娜"]),
            ("您好，我是陈静，想咨询一下。", &["陈静"]),
            ("我叫刘洋。", &["刘洋"]),
            ("我是王伟先生的助理", &[]),
            ("收件人：黃志明", &["黃志明"]),
            ("氏名：佐藤 健\n", &["佐藤 健"]),
            ("お名前: 中村美香", &["中村美香"]),
            ("はじめまして。田中 さくらです。", &["田中 さくら"]),
            ("お世話になっております。営業部の木村と申します。", &["木村"]),
            ("はじめまして、スミスと申します。", &["スミス"]),
            ("안녕하세요, 박지훈입니다.", &["박지훈"]),
            ("저는 정수빈이에요", &["정수빈"]),
            ("이름: 김민준\n", &["김민준"]),
            ("성명：남궁민수", &["남궁민수"]),
        ];
        for (text, want) in table {
            assert_eq!(&found(text), want, "{text}");
        }
    }

    /// Hard negatives: the same phrases before words that are no name.
    #[test]
    fn no_name_without_its_shape() {
        for text in [
            "我是学生。",
            "我是中国人，我叫不出来",
            "我是李老师",
            "您好，我是李老师。",
            "您好，我是程序员。",
            "你好！我是项目组的",
            "姓名：请填写您的真实姓名",
            "姓名：无",
            "英文姓名的拼写",
            "氏名：未記入",
            "本日は晴天です。",
            "お世話になっております。営業部です。",
            "大丈夫です。",
            "以上です。",
            "安全です",
            "안녕하세요, 고객센터입니다.",
            "안녕하세요, 개발팀입니다.",
            "저는 학생입니다",
            "저는 선생님입니다",
            "저는 회사원이에요",
            "이름: 없음",
            "오늘은 이사입니다",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
