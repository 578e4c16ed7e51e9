//! Perturbation testing as data (seed 003 §8): suite.toml `[perturb]` makes the suite loader
//! add, right after each task, copies whose input differs only in formatting. The copies run
//! like any task; a group scorer over [`PERTURBATION_OF`] compares each task's answers with its
//! copies' (stability).

use serde::{Deserialize, Serialize};

/// The metadata key every perturbed copy carries, and the task it copies too: the id of the
/// original. A group over this key holds a task and its copies.
pub const PERTURBATION_OF: &str = "perturbation_of";

/// The metadata key that names a copy's [`PerturbKind`] (its [`PerturbKind::name`]); only
/// copies carry it.
pub const PERTURBATION: &str = "perturbation";

/// One way to perturb a text without changing what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PerturbKind {
    /// Two spaces at the end of every non-empty line.
    TrailingWhitespace,
    /// Leading tabs become four spaces each; in a text without leading tabs, each leading run
    /// of four spaces becomes a tab.
    Indent,
    /// An innocuous comment line at the top (after a shebang line), in the task's language.
    Comment,
    /// Every comment removed, in the task's language.
    NoComments,
}

impl PerturbKind {
    /// Every kind, in the order copies follow their task.
    pub const ALL: [PerturbKind; 4] = [
        PerturbKind::TrailingWhitespace,
        PerturbKind::Indent,
        PerturbKind::Comment,
        PerturbKind::NoComments,
    ];

    /// The name suite.toml and the copies' [`PERTURBATION`] use.
    pub fn name(self) -> &'static str {
        match self {
            PerturbKind::TrailingWhitespace => "trailing-whitespace",
            PerturbKind::Indent => "indent",
            PerturbKind::Comment => "comment",
            PerturbKind::NoComments => "no-comments",
        }
    }

    /// What a copy's id adds to its task's: `<id>~<suffix>`.
    pub fn suffix(self) -> &'static str {
        match self {
            PerturbKind::TrailingWhitespace => "ws",
            PerturbKind::Indent => "indent",
            PerturbKind::Comment => "comment",
            PerturbKind::NoComments => "nocomment",
        }
    }

    /// The kind named `name` (see [`PerturbKind::name`]).
    pub fn parse(name: &str) -> Option<PerturbKind> {
        PerturbKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the kind needs to know the text's language (its comment syntax).
    pub fn needs_language(self) -> bool {
        matches!(self, PerturbKind::Comment | PerturbKind::NoComments)
    }
}

/// Which text of a task is perturbed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PerturbOn {
    /// The prompt, or a chat's last user message (the default).
    #[default]
    Input,
    /// The string under this key of the task's metadata.
    Metadata(String),
}

/// suite.toml `[perturb]`: which copies the loader adds after each task. Recorded with the
/// suite so a stored run says how its copies were made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerturbSpec {
    /// The copies each task gets, in this order (default: [`PerturbKind::ALL`]).
    pub kinds: Vec<PerturbKind>,
    /// Globs over task ids: only matching tasks are perturbed. Empty: every task.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<String>,
    #[serde(default)]
    pub on: PerturbOn,
}

impl Default for PerturbSpec {
    fn default() -> PerturbSpec {
        PerturbSpec {
            kinds: PerturbKind::ALL.to_vec(),
            tasks: Vec::new(),
            on: PerturbOn::Input,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_by_name_and_in_json() {
        for k in PerturbKind::ALL {
            assert_eq!(PerturbKind::parse(k.name()), Some(k));
            assert_eq!(
                serde_json::to_value(k).unwrap(),
                serde_json::Value::from(k.name())
            );
        }
        assert_eq!(PerturbKind::parse("tabs"), None);
        let spec = PerturbSpec {
            on: PerturbOn::Metadata("code".into()),
            ..PerturbSpec::default()
        };
        let json = serde_json::to_string(&spec).unwrap();
        assert_eq!(
            json,
            r#"{"kinds":["trailing-whitespace","indent","comment","no-comments"],"on":{"metadata":"code"}}"#
        );
        assert_eq!(serde_json::from_str::<PerturbSpec>(&json).unwrap(), spec);
        let bare: PerturbSpec = serde_json::from_str(r#"{"kinds":["indent"]}"#).unwrap();
        assert_eq!((bare.tasks.len(), bare.on), (0, PerturbOn::Input));
    }
}
