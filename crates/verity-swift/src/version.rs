//! Platform domains, versions and target platforms (`ios17.0`, `macos14.0`, …). The spellings
//! they parse from are the catalog's (`verity_catalog::swift`), so a suite's options are checked
//! with the same rules the oracle parses them by.

use std::fmt;

use serde::{Deserialize, Serialize};
use verity_catalog::swift::Platform;

/// A dotted version (`17.0`, `10.15.4`). `100000.0` is Apple's "deprecated in a future release".
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl Version {
    /// The major version Apple uses for "a future release".
    pub const FUTURE_MAJOR: u32 = 100_000;

    pub const fn new(major: u32, minor: u32, patch: u32) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parses `17`, `17.0`, `10.15.4` (at most three numeric components, nothing else), as
    /// the `swift` scorer's option check does ([`verity_catalog::swift::parse_version`]).
    pub fn parse(s: &str) -> Option<Version> {
        verity_catalog::swift::parse_version(s)
            .map(|[major, minor, patch]| Version::new(major, minor, patch))
    }

    /// `deprecated: 100000.0`: deprecated in some future release.
    pub fn is_future(self) -> bool {
        self.major >= Self::FUTURE_MAJOR
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.patch != 0 {
            write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
        } else {
            write!(f, "{}.{}", self.major, self.minor)
        }
    }
}

/// An availability domain of the symbol graphs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Domain {
    #[serde(rename = "iOS")]
    Ios,
    #[serde(rename = "macOS")]
    MacOs,
    #[serde(rename = "watchOS")]
    WatchOs,
    #[serde(rename = "tvOS")]
    TvOs,
    #[serde(rename = "visionOS")]
    VisionOs,
    #[serde(rename = "macCatalyst")]
    MacCatalyst,
    /// `*`: every platform (`@available(*, deprecated)`).
    #[serde(rename = "*")]
    Any,
    /// The Swift language version (`@available(swift, obsoleted: 5.0)`).
    #[serde(rename = "Swift")]
    Swift,
}

impl Domain {
    pub const ALL: [Domain; 8] = [
        Domain::Ios,
        Domain::MacOs,
        Domain::WatchOs,
        Domain::TvOs,
        Domain::VisionOs,
        Domain::MacCatalyst,
        Domain::Any,
        Domain::Swift,
    ];

    /// The symbol-graph spelling (`iOS`, `macOS`, `*`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Domain::Ios => "iOS",
            Domain::MacOs => "macOS",
            Domain::WatchOs => "watchOS",
            Domain::TvOs => "tvOS",
            Domain::VisionOs => "visionOS",
            Domain::MacCatalyst => "macCatalyst",
            Domain::Any => "*",
            Domain::Swift => "Swift",
        }
    }

    /// The domain of a symbol graph's `domain` string; app-extension domains are not kept.
    pub fn from_graph(s: &str) -> Option<Domain> {
        Some(match s {
            "iOS" => Domain::Ios,
            "macOS" | "OSX" => Domain::MacOs,
            "watchOS" => Domain::WatchOs,
            "tvOS" => Domain::TvOs,
            "visionOS" | "xrOS" => Domain::VisionOs,
            "macCatalyst" => Domain::MacCatalyst,
            "*" => Domain::Any,
            "Swift" | "swift" => Domain::Swift,
            _ => return None,
        })
    }

    /// The spelling of `#available` / `@available` platform names (case-insensitive): `*`,
    /// `swift`, or a platform as [`Platform::from_source`] spells it.
    pub fn from_source(s: &str) -> Option<Domain> {
        if s == "*" {
            Some(Domain::Any)
        } else if s.eq_ignore_ascii_case("swift") {
            Some(Domain::Swift)
        } else {
            Platform::from_source(s).map(Domain::from)
        }
    }

    pub(crate) fn code(self) -> u8 {
        match self {
            Domain::Ios => 0,
            Domain::MacOs => 1,
            Domain::WatchOs => 2,
            Domain::TvOs => 3,
            Domain::VisionOs => 4,
            Domain::MacCatalyst => 5,
            Domain::Any => 6,
            Domain::Swift => 7,
        }
    }

    pub(crate) fn from_code(c: u8) -> Option<Domain> {
        Domain::ALL.get(usize::from(c)).copied()
    }
}

impl From<Platform> for Domain {
    fn from(p: Platform) -> Domain {
        match p {
            Platform::Ios => Domain::Ios,
            Platform::MacOs => Domain::MacOs,
            Platform::WatchOs => Domain::WatchOs,
            Platform::TvOs => Domain::TvOs,
            Platform::VisionOs => Domain::VisionOs,
            Platform::MacCatalyst => Domain::MacCatalyst,
        }
    }
}

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a task targets: a platform domain and its minimum OS version (`ios17.0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Target {
    pub domain: Domain,
    pub version: Version,
}

impl Target {
    pub const fn new(domain: Domain, version: Version) -> Self {
        Target { domain, version }
    }

    /// Parses `ios17.0`, `iOS 17`, `macos14.0`, `watchos10`, `tvos17.0`, `visionos1.0`,
    /// `maccatalyst17.0`, `xros1.0`, as the `swift` scorer's option check does
    /// ([`verity_catalog::swift::parse_target`]).
    pub fn parse(s: &str) -> Option<Target> {
        let (platform, [major, minor, patch]) = verity_catalog::swift::parse_target(s)?;
        Some(Target::new(
            platform.into(),
            Version::new(major, minor, patch),
        ))
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.domain {
            Domain::Ios => "ios",
            Domain::MacOs => "macos",
            Domain::WatchOs => "watchos",
            Domain::TvOs => "tvos",
            Domain::VisionOs => "visionos",
            Domain::MacCatalyst => "maccatalyst",
            Domain::Any => "any",
            Domain::Swift => "swift",
        };
        write!(f, "{name}{}", self.version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(Version::parse("17"), Some(Version::new(17, 0, 0)));
        assert_eq!(Version::parse("10.15.4"), Some(Version::new(10, 15, 4)));
        assert_eq!(Version::parse("1.2.3.4"), None);
        assert_eq!(Version::parse("x"), None);
        assert_eq!(Version::parse("17."), None);
        assert!(Version::new(100_000, 0, 0).is_future());
        assert!(Version::new(17, 4, 0) > Version::new(17, 0, 1));
        assert_eq!(Version::new(17, 0, 0).to_string(), "17.0");
    }

    #[test]
    fn targets() {
        let t = Target::parse("ios17.0").unwrap();
        assert_eq!((t.domain, t.version), (Domain::Ios, Version::new(17, 0, 0)));
        assert_eq!(Target::parse("macOS 14").unwrap().domain, Domain::MacOs);
        assert_eq!(
            Target::parse("visionos1.0").unwrap().domain,
            Domain::VisionOs
        );
        assert_eq!(
            Target::parse("watchos10.0").unwrap().domain,
            Domain::WatchOs
        );
        assert_eq!(Target::parse("tvos17.0").unwrap().domain, Domain::TvOs);
        assert_eq!(Target::parse("android14"), None);
        assert_eq!(Target::parse("ios"), None);
        assert_eq!(Target::parse("ios17.0").unwrap().to_string(), "ios17.0");
    }
}
