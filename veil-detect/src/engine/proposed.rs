//! What the engine keeps for the model stage that runs outside it (`veil-core`'s
//! `model_stage`): one rule per category the policy lets the model propose (indexes
//! after the scan rules'), the answers remembered per text, and the merge of proposed
//! findings with the rules' own. A proposal is never scanned for: it becomes a
//! [`Finding`] only where the model stage checked it against the text.

use super::Engine;
use crate::config::ModelConfig;
use crate::finding::{resolve_overlaps, Finding};

impl Engine {
    /// The model stage's configuration, when it is on.
    pub fn model(&self) -> Option<&ModelConfig> {
        self.model.as_ref().map(|m| &m.config)
    }

    /// The index of the model's rule for `category`, if the policy allows it.
    pub fn model_rule(&self, category: &str) -> Option<usize> {
        let stage = self.model.as_ref()?;
        let at = stage.rules.iter().position(|r| r.category == category)?;
        Some(self.rules.len() + at)
    }

    /// The threshold under which a finding (a proposal's stated confidence too) is
    /// dropped.
    pub fn min_confidence(&self) -> f32 {
        self.min_confidence
    }

    /// Remembers what the model said about `text` in `scope`.
    pub fn model_remember(&self, scope: &[u8], text: &[u8], found: &[Finding]) {
        if let Some(stage) = &self.model {
            stage.memo.put(stage.memo.key(scope, text), found);
        }
    }

    /// What the model said about `text` in `scope` lately, if it was asked.
    pub fn model_recall(&self, scope: &[u8], text: &[u8]) -> Option<Vec<Finding>> {
        let stage = self.model.as_ref()?;
        stage.memo.get(stage.memo.key(scope, text))
    }

    /// The rule findings and the model's over one text, overlaps resolved the engine's
    /// way: the longest span wins, then the higher confidence, then the earlier rule
    /// (a scan rule before a model rule).
    pub fn merge_model(&self, rules: &[Finding], model: &[Finding]) -> Vec<Finding> {
        if model.is_empty() {
            return rules.to_vec();
        }
        resolve_overlaps(rules.iter().chain(model).copied().collect())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::DetectorsConfig;
    use crate::{Engine, Finding, Source};

    fn engine() -> Engine {
        let mut config = DetectorsConfig::default();
        config.model.enabled = true;
        Engine::new(&config).unwrap()
    }

    #[test]
    fn merged_with_rules_the_longest_span_wins_then_confidence() {
        let e = engine();
        let person = e.model_rule("PERSON").unwrap();
        let email = e.rules().iter().position(|r| r.category == "EMAIL").unwrap();
        let rule = |start, end, c| Finding { start, end, rule: email, confidence: c };
        let model = |start, end, c| Finding { start, end, rule: person, confidence: c };
        // The model's longer span replaces two rule findings inside it; a shorter one
        // loses to the rule's; on equal spans the higher confidence wins.
        let merged = e.merge_model(
            &[rule(0, 4, 0.9), rule(5, 9, 0.9), rule(20, 30, 0.9), rule(40, 45, 0.7)],
            &[model(0, 12, 0.8), model(22, 25, 0.99), model(40, 45, 0.8)],
        );
        assert_eq!(merged, [model(0, 12, 0.8), rule(20, 30, 0.9), model(40, 45, 0.8)]);
        assert_eq!(e.rule(person).unwrap().source, Source::Model);
        assert_eq!(e.model_rule("DATE"), None);
    }
}
