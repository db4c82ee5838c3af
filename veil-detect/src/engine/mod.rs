//! The engine: compiled rules in, non-overlapping findings out. The struct is here;
//! building it is [`build`], scanning with it [`scan`], what it keeps for the model stage
//! [`proposed`].
//!
//! The modules below know the rules only as compiled ([`compiled`]); none names the
//! engine but the three that implement it (`build`, `scan`, `proposed`).

pub mod build;
pub mod compiled;
pub mod confusables;
pub mod memo;
pub mod normalize;
pub mod numeric;
pub mod prefilter;
pub mod proposed;
pub mod scan;
pub mod starts;
pub mod text;
pub mod visit;
pub mod wordset;

use aho_corasick::AhoCorasick;

use self::compiled::{ModelStage, Rule};
use crate::finders::person::NameMatcher;

/// The compiled rule set for one policy.
#[derive(Debug, Clone)]
pub struct Engine {
    pub(crate) rules: Vec<Rule>,
    pub(crate) min_confidence: f32,
    /// Every `Near` keyword and every `Prefix` of every rule, found in one pass.
    pub(crate) starts: Option<starts::StartIndex>,
    pub(crate) names: Option<NameMatcher>,
    pub(crate) dictionaries: Vec<AhoCorasick>,
    /// Which rules a scan visits (see [`visit`]).
    pub(crate) visits: visit::Visits,
    /// Prefilters of the rules that share a window finder (see [`prefilter`]).
    pub(crate) groups: Vec<prefilter::Group>,
    /// The fewest digits that a rule gated by numeric runs needs in a run.
    pub(crate) numeric_min_digits: usize,
    /// How far any rule looks around a position for its context (`Near` windows, the
    /// context window, a country code's span): [`Engine::scan_parts`] keeps parts this
    /// far apart.
    pub(crate) reach: usize,
    /// Findings of the texts scanned lately, for [`Engine::scan_parts_remembered`]
    /// (none with `detectors.memory: false`).
    pub(crate) memo: Option<memo::Memo>,
    /// The model stage (`detectors.model`), when it is on; its rules' indexes follow
    /// `rules`.
    pub(crate) model: Option<ModelStage>,
}
