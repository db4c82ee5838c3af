//! The detector catalog beyond the core rules of [`super::rules`], one file per family.
//!
//! Every entry is a [`BuiltinRule`]: id, category, finder (a pattern, or hand-written
//! code with the pattern it stands for), validator, gate, context words in the
//! languages of its country, severity, confidence, and its own examples and negatives,
//! which `tests::every_example_of_every_rule` runs. Adding a format is one entry.

use super::rules::BuiltinRule;

pub mod europe;
pub mod phones;
pub mod vendors;
pub mod world;

/// Every built-in rule, in catalog order (on equal spans and confidence the earlier
/// rule wins): the core rules, then vendor credentials, identifiers of European countries and of the
/// rest of the world, phones.
pub fn all() -> impl Iterator<Item = &'static BuiltinRule> {
    super::rules::BUILTIN
        .iter()
        .chain(vendors::RULES)
        .chain(europe::RULES)
        .chain(world::RULES)
        .chain(phones::RULES)
}
