//! Where a field path (`rules[1].match.paths[0]`) is in a policy's YAML (or JSON)
//! text: its line and column, as the YAML parser marks them.
//!
//! `serde_norway` marks an error with the position of the node it was reading when
//! the error was raised. So a visitor that follows the path through the document,
//! skipping everything else, and raises an error once it reaches the end of the
//! path, gets back that node's position. The same parser reads the policy itself,
//! so the two agree on every YAML construct, and no unsafe code or second parser is
//! needed. Only keys are compared; no value is kept or returned.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A position in the text, 1-based as editors count (columns in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// The error the walk raises where the path ends.
const FOUND: &str = "veilctl-locate: the path ends here";

/// The position of `path` in `text`: of the key for a field of a mapping, of the
/// element for a list item; if the node is not in the text (a field left to its
/// default), of its nearest ancestor that is. `None` if not even the first segment
/// is there, or for the document itself.
///
/// A path may end in an issue's decorations, which are ignored: a trailing `.`
/// (`rules[2].`, the rule as a whole) or a parenthesized id
/// (`detectors.custom[0] (acme.id)`).
pub fn locate(text: &str, path: &str) -> Option<Position> {
    let path = path.split(" (").next().unwrap_or(path).trim_end_matches('.');
    // The path itself, then each shorter prefix that ends before a `.` or `[`.
    let mut ends: Vec<usize> = path.match_indices(['.', '[']).map(|(i, _)| i).filter(|&i| i > 0).collect();
    ends.push(path.len());
    ends.into_iter().rev().filter_map(|end| path.get(..end)).filter(|p| !p.is_empty()).find_map(|p| find(text, p))
}

/// The position of exactly `path`, if it is in the text.
fn find(text: &str, path: &str) -> Option<Position> {
    let walk = Walk { rest: path };
    let error = match walk.deserialize(serde_norway::Deserializer::from_str(text)) {
        Ok(()) => return None,
        Err(e) => e,
    };
    if !error.to_string().contains(FOUND) {
        return None;
    }
    error.location().map(|l| Position { line: l.line(), column: l.column() })
}

fn found<E: de::Error>() -> E {
    E::custom(FOUND)
}

/// Follows `rest` from the node it is given; raises [`FOUND`] at its end.
struct Walk<'p> {
    rest: &'p str,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// A scalar: the end of the path, or a dead end.
macro_rules! scalar {
    ($($method:ident: $ty:ty),*) => {$(
        fn $method<E: de::Error>(self, _: $ty) -> Result<(), E> {
            self.leaf()
        }
    )*};
}

impl Walk<'_> {
    fn leaf<E: de::Error>(&self) -> Result<(), E> {
        if self.rest.is_empty() {
            Err(found())
        } else {
            Ok(())
        }
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML node")
    }

    scalar!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_i128: i128, visit_u128: u128, visit_f64: f64, visit_str: &str);

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.leaf()
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if self.rest.is_empty() {
            return Err(found());
        }
        while let Some(inside) = map.next_key_seed(Key { rest: self.rest })? {
            match inside {
                Some(rest) => map.next_value_seed(Walk { rest })?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if self.rest.is_empty() {
            return Err(found());
        }
        // `[n]` and what follows it (`.field`, `[m]` or nothing).
        let target = self
            .rest
            .strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .and_then(|(n, tail)| Some((n.parse::<usize>().ok()?, tail.strip_prefix('.').unwrap_or(tail))));
        let mut index = 0;
        loop {
            let more = match target {
                Some((n, rest)) if n == index => seq.next_element_seed(Walk { rest })?.is_some(),
                _ => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                return Ok(());
            }
            index += 1;
        }
    }
}

/// A mapping's key, against the path: the end of the path (raises [`FOUND`] at the
/// key), `Some(rest)` if the path goes on into its value, `None` for another key.
struct Key<'p> {
    rest: &'p str,
}

impl<'de, 'p> DeserializeSeed<'de> for Key<'p> {
    type Value = Option<&'p str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<&'p str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, 'p> Visitor<'de> for Key<'p> {
    type Value = Option<&'p str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<&'p str>, E> {
        if self.rest == key {
            return Err(found());
        }
        Ok(match self.rest.strip_prefix(key) {
            Some(tail) if tail.starts_with('[') => Some(tail),
            Some(tail) => tail.strip_prefix('.'),
            None => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: &str = "\
apiVersion: veil/v1
limits:
  max_body_byte: 5
detectors:
  disable: [pii.emial.v1, EMAIL]
  custom:
    - {id: acme.id, category: ACME, pattern: \"(a\"}
    - id: b
      category: B
rules:
  - name: a
    match:
      paths: [\"/v1/**\"]
  - name: \"a.b\"
    actions: {email: mask, \"x.y\": block}
";

    #[test]
    fn paths_resolve_to_their_key_or_element() {
        let table: &[(&str, Option<(usize, usize)>)] = &[
            ("apiVersion", Some((1, 1))),
            ("limits.max_body_byte", Some((3, 3))),
            ("detectors.disable[0]", Some((5, 13))),
            ("detectors.disable[1]", Some((5, 27))),
            ("detectors.custom[0] (acme.id)", Some((7, 7))),
            ("detectors.custom[0].pattern", Some((7, 37))),
            ("detectors.custom[1].category", Some((9, 7))),
            ("rules[0].", Some((11, 5))),
            ("rules[0].match.paths[0]", Some((13, 15))),
            ("rules[1].actions.email", Some((15, 15))),
            // A key with a dot in it.
            ("rules[1].actions.x.y", Some((15, 28))),
            // Not in the text: the nearest ancestor that is.
            ("limits.max_body_bytes", Some((2, 1))),
            ("detectors.custom[7].id", Some((6, 3))),
            ("rules[0].match.headers[0].name", Some((12, 5))),
            ("mode", None),
            ("", None),
        ];
        for (path, want) in table {
            let got = locate(POLICY, path).map(|p| (p.line, p.column));
            assert_eq!(got, *want, "{path}");
        }
    }

    #[test]
    fn json_is_yaml_too() {
        let json = "{\n  \"limits\": {\"max_body_byte\": 5},\n  \"routes\": [\n    {\"path\": \"v1\"}\n  ]\n}\n";
        assert_eq!(locate(json, "limits.max_body_byte"), Some(Position { line: 2, column: 14 }));
        assert_eq!(locate(json, "routes[0].path"), Some(Position { line: 4, column: 6 }));
    }

    #[test]
    fn a_path_not_in_the_text_has_no_position() {
        assert_eq!(locate("", "a"), None);
        assert_eq!(locate("[1, 2]", "a"), None);
        assert_eq!(locate("a: 1", "b.c"), None);
    }
}
