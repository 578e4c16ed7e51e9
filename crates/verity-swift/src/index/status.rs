//! How a symbol stands on a target: its availability entries (from the index's compact
//! records or from [`SymbolFacts`]) read for one platform and Swift version into a
//! [`SymbolStatus`]: introduced, unusable, deprecated.

use serde::Serialize;

use super::{A_UNAVAILABLE, A_UNCOND_DEPRECATED, Index, SymId, SymbolFacts};
use crate::version::{Domain, Target, Version};

impl Index {
    /// How a symbol stands on a target platform: see [`SymbolStatus`].
    pub fn status(&self, facts: &SymbolFacts, target: Target, swift: Version) -> SymbolStatus {
        status_of(
            facts.availability.iter().filter_map(|a| {
                Some(AvailView {
                    domain: a.domain?,
                    unavailable: a.unavailable,
                    unconditionally_deprecated: a.unconditionally_deprecated,
                    introduced: a.introduced,
                    deprecated: a.deprecated,
                    obsoleted: a.obsoleted,
                    message: a.message.as_deref(),
                    renamed: a.renamed.as_deref(),
                })
            }),
            target,
            swift,
        )
    }

    pub(crate) fn status_id(&self, id: SymId, target: Target, swift: Version) -> SymbolStatus {
        let Some(s) = self.sym(id) else {
            return SymbolStatus::default();
        };
        status_of(
            self.avails(s).iter().map(|a| AvailView {
                domain: a.domain,
                unavailable: a.flags & A_UNAVAILABLE != 0,
                unconditionally_deprecated: a.flags & A_UNCOND_DEPRECATED != 0,
                introduced: a.introduced,
                deprecated: a.deprecated,
                obsoleted: a.obsoleted,
                message: self.opt_s(a.message),
                renamed: self.opt_s(a.renamed),
            }),
            target,
            swift,
        )
    }
}

struct AvailView<'a> {
    domain: Domain,
    unavailable: bool,
    unconditionally_deprecated: bool,
    introduced: Option<Version>,
    deprecated: Option<Version>,
    obsoleted: Option<Version>,
    message: Option<&'a str>,
    renamed: Option<&'a str>,
}

/// A symbol's standing on one target: when it was introduced, whether it is unusable, and
/// whether (and since when) it is deprecated.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SymbolStatus {
    /// `introduced` on the target's domain (for Mac Catalyst, the iOS one when absent).
    pub introduced: Option<Version>,
    /// Why the symbol cannot be used on the target at all (unavailable, obsoleted, newer Swift).
    pub unusable: Option<String>,
    pub deprecation: Option<Deprecation>,
}

/// A deprecation that applies to the target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Deprecation {
    /// `iOS 17.0`, `Swift 5.0`, `all platforms`, or `a future release`.
    pub since: String,
    /// Only `deprecated: 100000.0` ("in a future release").
    pub future: bool,
    pub message: Option<String>,
    pub renamed: Option<String>,
}

fn status_of<'a>(
    entries: impl Iterator<Item = AvailView<'a>>,
    target: Target,
    swift: Version,
) -> SymbolStatus {
    let entries: Vec<AvailView<'a>> = entries.collect();
    let mut st = SymbolStatus::default();
    let own = entries
        .iter()
        .find(|a| a.domain == target.domain)
        .or_else(|| {
            (target.domain == Domain::MacCatalyst)
                .then(|| entries.iter().find(|a| a.domain == Domain::Ios))
                .flatten()
        });
    let dom = target.domain.as_str();
    let dep = |since: String, future: bool, a: &AvailView<'_>| Deprecation {
        since,
        future,
        message: a.message.map(str::to_owned),
        renamed: a.renamed.map(str::to_owned),
    };
    for a in entries.iter().filter(|a| a.domain == Domain::Any) {
        if a.unavailable {
            st.unusable = Some(match a.message {
                Some(m) => format!("unavailable on all platforms: {m}"),
                None => "unavailable on all platforms".to_owned(),
            });
        }
        if a.unconditionally_deprecated || a.deprecated.is_some() {
            st.deprecation = Some(dep("all platforms".to_owned(), false, a));
        }
    }
    for a in entries.iter().filter(|a| a.domain == Domain::Swift) {
        if let Some(o) = a.obsoleted
            && o <= swift
        {
            st.unusable = Some(format!("obsoleted in Swift {o}"));
        }
        if let Some(i) = a.introduced
            && i > swift
        {
            st.unusable = Some(format!("requires Swift {i}"));
        }
        if let Some(d) = a.deprecated
            && d <= swift
            && st.deprecation.is_none()
        {
            st.deprecation = Some(dep(format!("Swift {d}"), false, a));
        }
    }
    if let Some(a) = own {
        st.introduced = a.introduced;
        if a.unavailable {
            st.unusable = Some(match a.message {
                Some(m) => format!("unavailable on {dom}: {m}"),
                None => format!("unavailable on {dom}"),
            });
        } else if let Some(o) = a.obsoleted
            && o <= target.version
        {
            st.unusable = Some(format!("obsoleted in {dom} {o}"));
        }
        if a.unconditionally_deprecated {
            st.deprecation = Some(dep(format!("{dom} (unconditionally)"), false, a));
        } else if let Some(d) = a.deprecated {
            if d.is_future() {
                if st.deprecation.is_none() {
                    st.deprecation = Some(dep("a future release".to_owned(), true, a));
                }
            } else if d <= target.version {
                st.deprecation = Some(dep(format!("{dom} {d}"), false, a));
            }
        }
    }
    st
}
