//! Building an engine: the catalog's entries and the policy's detectors
//! configuration compiled into rules, their gates, the start index of keywords and
//! prefixes, the prefilter groups and the visit lists. Every rule is built from its
//! entry alone; nothing here names a rule by id.

use aho_corasick::{AhoCorasickBuilder, MatchKind};
use regex::bytes::RegexBuilder;

use super::compiled::{compiled_context, CompiledGate, Matcher, ModelStage, Rule, Span, WindowsFn};
use super::starts::StartIndex;
use super::{memo, prefilter, visit, Engine};
use crate::catalog;
use crate::config::{self, CustomPattern, DetectError, DetectorsConfig};
use crate::finders::card;
use crate::finders::person::NameMatcher;
use crate::finding::Source;
use crate::rule::{self, Gate};
use crate::validate::Validator;

impl Engine {
    /// The engine for `config`, or the first of its issues (`DetectorsConfig::issues`
    /// has them all, for the policy's report).
    pub fn new(config: &DetectorsConfig) -> Result<Engine, DetectError> {
        if let Some(issue) = config.issues().into_iter().next() {
            return Err(issue);
        }
        let mut compiled = Vec::new();
        let mut contexts = Vec::new();
        // The distinct window finders, in order of first use: a rule's list index.
        let mut finders: Vec<WindowsFn> = Vec::new();
        let mut keywords: Vec<String> = Vec::new();
        let mut prefixes: Vec<&'static [&'static [u8]]> = Vec::new();
        // Custom rules first: on equal spans and confidence, the earlier rule is the
        // more specific one, and a team's own rule is more specific than ours.
        for (index, custom) in config.custom.iter().enumerate() {
            compiled.push(compile_custom(index, custom)?);
        }
        let mut dictionaries = Vec::new();
        let mut wants_names = false;
        for builtin in catalog::all() {
            if config.disable.iter().any(|d| d == builtin.id || d == builtin.category) {
                continue;
            }
            let matcher = match builtin.gate {
                Gate::PersonNames => {
                    wants_names = true;
                    Matcher::Names
                }
                Gate::PolicyWords(list) => {
                    let words = config.words(list);
                    if words.is_empty() {
                        continue;
                    }
                    let automaton = AhoCorasickBuilder::new()
                        .ascii_case_insensitive(true)
                        .match_kind(MatchKind::LeftmostLongest)
                        .build(words.iter().map(|w| w.trim()))
                        .map_err(|_| DetectError::Builtin { id: builtin.id })?;
                    dictionaries.push(automaton);
                    Matcher::Words(dictionaries.len() - 1)
                }
                _ => {
                    let pattern = match builtin.domains {
                        Some(domains) => (domains.pattern)(&config.internal_domains),
                        None => builtin.pattern.to_string(),
                    };
                    match builtin.finder {
                        Some(finder)
                            if matches!(builtin.validator, Validator::PaymentCard)
                                && std::ptr::fn_addr_eq(finder, card::find_card as rule::Finder) =>
                        {
                            Matcher::Cards
                        }
                        Some(finder) => Matcher::Code(finder),
                        None => Matcher::Regex(
                            RegexBuilder::new(&pattern)
                                .unicode(false)
                                .build()
                                .map_err(|_| DetectError::Builtin { id: builtin.id })?,
                        ),
                    }
                }
            };
            let gate = match builtin.gate {
                Gate::Always => CompiledGate::Always,
                Gate::Contains(n) => CompiledGate::Contains(n),
                Gate::Prefix(p) => {
                    prefixes.push(p);
                    CompiledGate::Prefix(prefixes.len() - 1)
                }
                Gate::Word(p) => {
                    prefixes.push(p);
                    CompiledGate::Word(prefixes.len() - 1)
                }
                Gate::NumericRun { min_digits, min_dashes, min_dots, plus } => {
                    CompiledGate::NumericRun { min_digits, min_dashes, min_dots, plus }
                }
                Gate::Test(t) => CompiledGate::Test(t),
                Gate::AfterCountryCode { span } => CompiledGate::AfterCountryCode { span },
                Gate::PersonNames | Gate::PolicyWords(_) => CompiledGate::Dictionary,
                Gate::Near { words, .. } | Gate::InHostName(words) => {
                    let mut ids: Vec<usize> = words.iter().map(|w| keyword_id(&mut keywords, w)).collect();
                    // A rule the policy's domains extend runs near them too.
                    if let Some(domains) = builtin.domains {
                        let more = domains.keywords.iter().flat_map(|list| list.iter().copied());
                        let policy = config.internal_domains.iter().map(|d| d.trim_start_matches('.'));
                        for word in more.chain(policy) {
                            ids.push(keyword_id(&mut keywords, word));
                        }
                    }
                    ids.sort_unstable();
                    ids.dedup();
                    let span = match builtin.gate {
                        Gate::Near { before, after, .. } => Span::Around { before, after },
                        _ => Span::HostName,
                    };
                    CompiledGate::Near { words: ids, span, keep: builtin.keep }
                }
                Gate::Windows(finder) => {
                    let f = finder.find;
                    let list = match finders.iter().position(|&g| std::ptr::fn_addr_eq(g, f)) {
                        Some(list) => list,
                        None => {
                            finders.push(f);
                            finders.len() - 1
                        }
                    };
                    CompiledGate::Windows { finder, list }
                }
            };
            let source = match (&matcher, &builtin.gate) {
                (Matcher::Names | Matcher::Words(_), _) => Source::Dictionary,
                _ if !matches!(builtin.validator, Validator::None) => Source::Validated,
                // Near its context words; a rule the policy's domains extend runs near its
                // own suffixes, which are the match, not its context.
                (_, Gate::Near { .. }) if builtin.domains.is_none() => Source::Context,
                _ => Source::Pattern,
            };
            // A regex searched in windows around its keywords: the run a window must hold.
            let run = match (&matcher, &builtin.gate) {
                (Matcher::Regex(regex), Gate::Near { .. } | Gate::InHostName(_)) => {
                    crate::engine::prefilter::RunNeed::of(regex.as_str())
                }
                _ => None,
            };
            compiled.push(Rule {
                id: builtin.id.to_string(),
                category: builtin.category.to_string(),
                confidence: builtin.confidence,
                severity: builtin.severity,
                source,
                matcher,
                group: builtin.group,
                clean_left: builtin.clean_left,
                clean_right: builtin.clean_right,
                validator: builtin.validator,
                gate,
                context: builtin.context.map(|c| compiled_context(&mut contexts, c)),
                slot: None,
                credential: builtin.id.starts_with("secret."),
                fold: false,
                run,
            });
            if let Some(twin) = any_case_twin(builtin, compiled.last(), &mut keywords) {
                compiled.push(twin);
            }
        }
        let groups = group_rules(&mut compiled);
        let visits = visit::Visits::new(&compiled, config.confidence_threshold);
        let starts =
            if keywords.is_empty() && prefixes.is_empty() { None } else { Some(StartIndex::new(&keywords, &prefixes)) };
        let names = if wants_names { Some(NameMatcher::new(config)?) } else { None };
        let reach = compiled
            .iter()
            .map(|r| {
                let gate = match &r.gate {
                    CompiledGate::Near { span: Span::Around { before, after }, .. } => (*before).max(*after),
                    CompiledGate::AfterCountryCode { span } => *span,
                    _ => 0,
                };
                gate.max(r.context.as_ref().map_or(0, |c| c.context.window))
            })
            .max()
            .unwrap_or(0)
            .max(64);
        let numeric_min_digits = compiled
            .iter()
            .filter_map(|r| match r.gate {
                CompiledGate::NumericRun { min_digits, .. } => Some(min_digits),
                _ => None,
            })
            .min()
            .unwrap_or(0);
        Ok(Engine {
            rules: compiled,
            min_confidence: config.confidence_threshold,
            starts,
            names,
            dictionaries,
            groups,
            numeric_min_digits,
            visits,
            reach,
            memo: config.memory.then(memo::Memo::new),
            model: config.model.enabled.then(|| ModelStage::new(&config.model)),
        })
    }
}

/// The twin of `builtin` (compiled as `rule`) that runs near its
/// [`rule::BuiltinRule::any_case`] labels, over an upper-cased copy of each window
/// (the rule's own pattern and validator, no second regex); `None` for a rule without
/// labels or without a pattern of its own.
fn any_case_twin(builtin: &rule::BuiltinRule, rule: Option<&Rule>, keywords: &mut Vec<String>) -> Option<Rule> {
    let rule = rule.filter(|_| !builtin.any_case.is_empty() && builtin.domains.is_none())?;
    if !matches!(rule.matcher, Matcher::Regex(_)) {
        return None;
    }
    let mut words: Vec<usize> = builtin.any_case.iter().map(|w| keyword_id(keywords, w)).collect();
    words.sort_unstable();
    words.dedup();
    let (before, after) = rule::ANY_CASE_SPAN;
    Some(Rule {
        gate: CompiledGate::Near { words, span: Span::Around { before, after }, keep: rule::Keep::Any },
        slot: None,
        fold: true,
        ..rule.clone()
    })
}

/// Puts the regex rules that share a window finder (one `Windows` function, or the
/// numeric runs) into prefilter groups, and gives each its slot.
fn group_rules(rules: &mut [Rule]) -> Vec<prefilter::Group> {
    let mut finders: Vec<Option<WindowsFn>> = Vec::new();
    for rule in rules.iter() {
        let finder = match rule.gate {
            CompiledGate::Windows { finder, .. } => Some(finder.find),
            CompiledGate::NumericRun { .. } => None,
            _ => continue,
        };
        let known = finders.iter().any(|k| match (k, finder) {
            (Some(a), Some(b)) => std::ptr::fn_addr_eq(*a, b),
            (None, None) => true,
            _ => false,
        });
        if !known {
            finders.push(finder);
        }
    }
    let mut groups = Vec::new();
    for finder in finders {
        let members: Vec<(usize, &str)> = rules
            .iter()
            .enumerate()
            .filter(|(_, r)| match (&r.gate, finder) {
                (CompiledGate::Windows { finder, .. }, Some(g)) => std::ptr::fn_addr_eq(finder.find, g),
                (CompiledGate::NumericRun { .. }, None) => true,
                _ => false,
            })
            .filter_map(|(i, r)| match &r.matcher {
                Matcher::Regex(regex) => Some((i, regex.as_str())),
                _ => None,
            })
            .collect();
        let slots = prefilter::build(&mut groups, &members);
        for (index, slot) in slots {
            if let Some(rule) = rules.get_mut(index) {
                rule.slot = Some(slot);
            }
        }
    }
    groups
}

fn keyword_id(keywords: &mut Vec<String>, word: &str) -> usize {
    let word = word.to_ascii_lowercase();
    match keywords.iter().position(|k| *k == word) {
        Some(i) => i,
        None => {
            keywords.push(word);
            keywords.len() - 1
        }
    }
}

fn compile_custom(index: usize, custom: &CustomPattern) -> Result<Rule, DetectError> {
    let regex = config::custom_regex(index, custom)?;
    Ok(Rule {
        id: custom.id.clone(),
        category: custom.category.clone(),
        confidence: custom.confidence,
        severity: custom.severity.unwrap_or_else(|| crate::category::severity(&custom.category)),
        source: Source::PolicyRegex,
        matcher: Matcher::Regex(regex),
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        gate: CompiledGate::Always,
        context: None,
        slot: None,
        credential: false,
        fold: false,
        run: None,
    })
}
