//! Availability macros: `API_AVAILABLE(ios(13.0))`, `API_DEPRECATED("msg", ios(2.0, 12.0))`,
//! `API_DEPRECATED_WITH_REPLACEMENT`, `API_UNAVAILABLE`, `API_TO_BE_DEPRECATED` (100000), and
//! the legacy `NS_AVAILABLE*` / `NS_DEPRECATED*` / `NS_CLASS_*` / `NS_ENUM_*` / `__IOS_*` /
//! `__TVOS_*` / `__WATCHOS_*` / `__OSX_*` / `CG_AVAILABLE_*` families.

use super::lex::Tok;
use super::parse::split_top;
use crate::index::Availability;
use crate::version::{Domain, Version};

/// The availability entries of one declaration, one per domain.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct AvailSet(pub Vec<Availability>);

impl AvailSet {
    fn entry(&mut self, domain: Domain) -> &mut Availability {
        if let Some(k) = self.0.iter().position(|a| a.domain == Some(domain)) {
            return &mut self.0[k];
        }
        self.0.push(Availability {
            domain: Some(domain),
            ..Availability::default()
        });
        let last = self.0.len() - 1;
        &mut self.0[last]
    }

    /// Takes the container's availability where this declaration says nothing: the child's
    /// `introduced` wins; an earlier parent `deprecated` / `obsoleted` wins; unavailability
    /// propagates; `message` and `renamed` are not inherited.
    pub(crate) fn inherit(&mut self, parent: &AvailSet) {
        for p in &parent.0 {
            let Some(d) = p.domain else { continue };
            let c = self.entry(d);
            if c.introduced.is_none() {
                c.introduced = p.introduced;
            }
            if let Some(pd) = p.deprecated
                && c.deprecated.is_none_or(|cd| pd < cd)
            {
                c.deprecated = Some(pd);
            }
            if let Some(po) = p.obsoleted
                && c.obsoleted.is_none_or(|co| po < co)
            {
                c.obsoleted = Some(po);
            }
            c.unavailable |= p.unavailable;
            c.unconditionally_deprecated |= p.unconditionally_deprecated;
        }
    }
}

fn domain(name: &str) -> Option<Domain> {
    Some(match name {
        "ios" | "iOS" => Domain::Ios,
        "macos" | "macosx" | "macOS" | "osx" => Domain::MacOs,
        "tvos" | "tvOS" => Domain::TvOs,
        "watchos" | "watchOS" => Domain::WatchOs,
        "visionos" | "xros" | "visionOS" => Domain::VisionOs,
        "macCatalyst" | "maccatalyst" | "uikitformac" => Domain::MacCatalyst,
        _ => return None,
    })
}

/// A version as a macro argument writes it: `13.0`, `13_0`, `__IPHONE_13_0`, `API_TO_BE_DEPRECATED`.
fn version(toks: &[Tok]) -> Option<Version> {
    let text: String = toks.iter().map(Tok::text).collect();
    let t = text.trim();
    if t.contains("TO_BE_DEPRECATED") || t == "NA" || t.ends_with("_NA") {
        return (t.contains("TO_BE_DEPRECATED")).then_some(Version {
            major: Version::FUTURE_MAJOR,
            minor: 0,
            patch: 0,
        });
    }
    let t = t
        .trim_start_matches("__IPHONE_")
        .trim_start_matches("__MAC_")
        .trim_start_matches("__TVOS_")
        .trim_start_matches("__WATCHOS_")
        .replace('_', ".");
    let mut parts = t.split('.').map(|p| p.parse::<u32>().ok());
    let major = parts.next()??;
    Some(Version {
        major,
        minor: parts.next().flatten().unwrap_or(0),
        patch: parts.next().flatten().unwrap_or(0),
    })
}

fn string_arg(toks: &[Tok]) -> Option<String> {
    let s: String = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Str(s) => Some(s.trim_matches('"').to_owned()),
            _ => None,
        })
        .collect();
    (!s.is_empty()).then_some(s)
}

/// `ios(13.0)`, `macos(10.10, 10.15)`, `ios` (unavailable lists) → entries.
fn platform_args(
    parts: &[&[Tok]],
    set: &mut AvailSet,
    mode: Mode,
    message: Option<&str>,
    renamed: Option<&str>,
) {
    for part in parts {
        let Some(name) = part.first().and_then(Tok::ident) else {
            continue;
        };
        // `ios_app_extension` and unknown platforms are not recorded.
        let Some(d) = domain(name) else { continue };
        let inner = if part.get(1).is_some_and(|t| t.is('(')) {
            &part[2..part.len().saturating_sub(1)]
        } else {
            &[][..]
        };
        let versions: Vec<Option<Version>> =
            split_top(inner, ',').into_iter().map(version).collect();
        let e = set.entry(d);
        match mode {
            Mode::Available => {
                if let Some(v) = versions.first().copied().flatten() {
                    e.introduced = Some(v);
                }
            }
            Mode::Deprecated => {
                if let Some(v) = versions.first().copied().flatten() {
                    e.introduced = Some(v);
                }
                match versions.get(1).copied().flatten() {
                    Some(v) => e.deprecated = Some(v),
                    None => e.unconditionally_deprecated = true,
                }
                if let Some(m) = message {
                    e.message = Some(m.to_owned());
                }
                if let Some(r) = renamed {
                    e.renamed = Some(r.to_owned());
                }
            }
            Mode::Unavailable => e.unavailable = true,
        }
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Available,
    Deprecated,
    Unavailable,
}

fn set_ios(set: &mut AvailSet, d: Domain, intro: Option<Version>, dep: Option<Version>) {
    let e = set.entry(d);
    if intro.is_some() {
        e.introduced = intro;
    }
    if dep.is_some() {
        e.deprecated = dep;
    }
}

/// Folds one availability macro (name and argument tokens) into `set`; other macros are ignored.
pub(crate) fn apply(name: &str, args: &[Tok], set: &mut AvailSet) {
    let parts = split_top(args, ',');
    let ver = |k: usize| parts.get(k).and_then(|p| version(p));
    let name = name.trim_start_matches("__").trim_start_matches("API_");
    let name_full = name;
    match name_full {
        "AVAILABLE" | "API_AVAILABLE" => platform_args(&parts, set, Mode::Available, None, None),
        "UNAVAILABLE" | "API_UNAVAILABLE" => {
            platform_args(&parts, set, Mode::Unavailable, None, None)
        }
        "DEPRECATED"
        | "DEPRECATED_WITH_REPLACEMENT"
        | "API_DEPRECATED"
        | "API_DEPRECATED_WITH_REPLACEMENT" => {
            let first = parts.first().and_then(|p| string_arg(p));
            let (message, renamed) = if name_full.ends_with("WITH_REPLACEMENT") {
                (None, first)
            } else {
                (first, None)
            };
            platform_args(
                parts.get(1..).unwrap_or(&[]),
                set,
                Mode::Deprecated,
                message.as_deref(),
                renamed.as_deref(),
            );
        }
        // Legacy families.
        "NS_AVAILABLE"
        | "NS_CLASS_AVAILABLE"
        | "NS_ENUM_AVAILABLE"
        | "CF_ENUM_AVAILABLE"
        | "OSX_AVAILABLE_STARTING"
        | "CG_AVAILABLE_STARTING" => {
            set_ios(set, Domain::MacOs, ver(0), None);
            set_ios(set, Domain::Ios, ver(1), None);
        }
        "NS_AVAILABLE_IOS"
        | "NS_CLASS_AVAILABLE_IOS"
        | "NS_ENUM_AVAILABLE_IOS"
        | "IOS_AVAILABLE"
        | "IOS_AVAILABLE_STARTING" => set_ios(set, Domain::Ios, ver(0), None),
        "NS_AVAILABLE_MAC"
        | "NS_CLASS_AVAILABLE_MAC"
        | "NS_ENUM_AVAILABLE_MAC"
        | "OSX_AVAILABLE" => set_ios(set, Domain::MacOs, ver(0), None),
        "TVOS_AVAILABLE" => set_ios(set, Domain::TvOs, ver(0), None),
        "WATCHOS_AVAILABLE" => set_ios(set, Domain::WatchOs, ver(0), None),
        "NS_DEPRECATED"
        | "NS_CLASS_DEPRECATED"
        | "NS_ENUM_DEPRECATED"
        | "CF_ENUM_DEPRECATED"
        | "OSX_AVAILABLE_BUT_DEPRECATED"
        | "CG_AVAILABLE_BUT_DEPRECATED" => {
            set_ios(set, Domain::MacOs, ver(0), ver(1));
            set_ios(set, Domain::Ios, ver(2), ver(3));
        }
        "NS_DEPRECATED_IOS"
        | "NS_CLASS_DEPRECATED_IOS"
        | "NS_ENUM_DEPRECATED_IOS"
        | "IOS_DEPRECATED" => set_ios(set, Domain::Ios, ver(0), ver(1)),
        "NS_DEPRECATED_MAC"
        | "NS_CLASS_DEPRECATED_MAC"
        | "NS_ENUM_DEPRECATED_MAC"
        | "OSX_DEPRECATED" => set_ios(set, Domain::MacOs, ver(0), ver(1)),
        "TVOS_DEPRECATED" => set_ios(set, Domain::TvOs, ver(0), ver(1)),
        "WATCHOS_DEPRECATED" => set_ios(set, Domain::WatchOs, ver(0), ver(1)),
        "IOS_PROHIBITED" | "IOS_UNAVAILABLE" | "NS_UNAVAILABLE_IOS" => {
            set.entry(Domain::Ios).unavailable = true
        }
        "TVOS_PROHIBITED" | "TVOS_UNAVAILABLE" => set.entry(Domain::TvOs).unavailable = true,
        "WATCHOS_PROHIBITED" | "WATCHOS_UNAVAILABLE" => {
            set.entry(Domain::WatchOs).unavailable = true
        }
        "OSX_UNAVAILABLE" | "NS_UNAVAILABLE_MAC" => set.entry(Domain::MacOs).unavailable = true,
        "TO_BE_DEPRECATED" => {}
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::lex::tokenize;
    use super::*;

    fn one(src: &str) -> AvailSet {
        let toks = tokenize(src);
        let name = toks[0].text();
        let args = &toks[2..toks.len() - 1];
        let mut s = AvailSet::default();
        apply(&name, args, &mut s);
        s
    }

    fn ios(s: &AvailSet) -> &Availability {
        s.0.iter().find(|a| a.domain == Some(Domain::Ios)).unwrap()
    }

    #[test]
    fn api_macros() {
        let s = one("API_AVAILABLE(macos(10.15), ios(13.0))");
        assert_eq!(ios(&s).introduced, Version::parse("13.0"));
        let s = one("API_DEPRECATED(\"use y\", ios(2.0, 12.0), tvos(9.0, 12.0))");
        assert_eq!(ios(&s).deprecated, Version::parse("12.0"));
        assert_eq!(ios(&s).message.as_deref(), Some("use y"));
        let s =
            one("API_DEPRECATED_WITH_REPLACEMENT(\"newThing\", ios(8.0, API_TO_BE_DEPRECATED))");
        assert!(ios(&s).deprecated.is_some_and(Version::is_future));
        assert_eq!(ios(&s).renamed.as_deref(), Some("newThing"));
        let s = one("API_UNAVAILABLE(ios, watchos)");
        assert!(
            s.0.iter()
                .any(|a| a.domain == Some(Domain::Ios) && a.unavailable)
        );
    }

    #[test]
    fn legacy_macros_and_inheritance() {
        let s = one("NS_DEPRECATED(10_0, 10_8, 2_0, 6_0)");
        assert_eq!(ios(&s).introduced, Version::parse("2.0"));
        assert_eq!(ios(&s).deprecated, Version::parse("6.0"));
        let s = one("__IOS_AVAILABLE(__IPHONE_11_0)");
        assert_eq!(ios(&s).introduced, Version::parse("11.0"));
        let mut child = one("API_AVAILABLE(ios(14.0))");
        child.inherit(&one("API_DEPRECATED(\"x\", ios(10.0, 16.0))"));
        assert_eq!(ios(&child).introduced, Version::parse("14.0"));
        assert_eq!(ios(&child).deprecated, Version::parse("16.0"));
        assert_eq!(ios(&child).message, None);
    }
}
