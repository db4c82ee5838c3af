//! Configuration checks shared by every section: an issue is a field path and a
//! message, every section collects all of its issues (never only the first), and a
//! bound is written once — the check and its message come from the same numbers.

use std::fmt::Display;

/// The issues of one configuration section, each with its field path under `prefix`.
#[derive(Debug, Default)]
pub struct Issues {
    prefix: &'static str,
    found: Vec<(String, String)>,
}

impl Issues {
    /// Issues of the section at `prefix` (`"verification"`; `""` for the top level).
    pub fn new(prefix: &'static str) -> Issues {
        Issues { prefix, found: Vec::new() }
    }

    /// `field` is wrong: `message` says how (never its value, which may be sensitive).
    pub fn push(&mut self, field: &str, message: impl Into<String>) {
        let path = match (self.prefix.is_empty(), field.is_empty()) {
            (true, _) => field.to_string(),
            (false, true) => self.prefix.to_string(),
            (false, false) => format!("{}.{field}", self.prefix),
        };
        self.found.push((path, message.into()));
    }

    /// Checks `lo <= value <= hi`; the message states the bound that was checked and
    /// the number found (a bound is on a number, never on request data).
    pub fn within<T: PartialOrd + Display>(&mut self, field: &str, value: T, lo: T, hi: T) {
        if value < lo || value > hi {
            self.push(field, format!("must be within {lo}..={hi}, found {value}"));
        }
    }

    /// Checks `value` against a bound whose upper end is another field (`hi_name`).
    pub fn within_field<T: PartialOrd + Display>(&mut self, field: &str, value: T, lo: T, hi: T, hi_name: &str) {
        if value < lo || value > hi {
            self.push(field, format!("must be within {lo}..={hi_name}, found {value}"));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// Every issue found, as (field path, message), in the order found.
    pub fn into_vec(self) -> Vec<(String, String)> {
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_say_what_they_checked_and_every_issue_is_kept() {
        let mut issues = Issues::new("verification");
        issues.within("threshold", 101, 0, 100);
        issues.within("retries", 5, 0, 5);
        issues.within_field("call_timeout_ms", 9, 10, 5000, "budget_ms");
        issues.push("", "whole section");
        assert_eq!(
            issues.into_vec(),
            vec![
                ("verification.threshold".to_string(), "must be within 0..=100, found 101".to_string()),
                ("verification.call_timeout_ms".to_string(), "must be within 10..=budget_ms, found 9".to_string()),
                ("verification".to_string(), "whole section".to_string()),
            ]
        );
        let mut top = Issues::new("");
        top.within("x", 0.5, 0.0, 2.0);
        top.within("y", 2.5, 0.0, 2.0);
        assert_eq!(top.into_vec(), vec![("y".to_string(), "must be within 0..=2, found 2.5".to_string())]);
    }
}
