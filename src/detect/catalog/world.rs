use crate::detect::rules::BuiltinRule;

pub const RULES: &[BuiltinRule] = &[];
