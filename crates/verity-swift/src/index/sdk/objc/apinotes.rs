//! A framework's `.apinotes` (YAML): the Swift names, `SwiftPrivate` and
//! `Availability: nonswift` of its declarations. Only the current Swift section is read
//! (`SwiftVersions` is ignored, as the compiler does for the current language mode).

use std::collections::HashMap;

use yaml_rust2::{Yaml, YamlLoader};

/// What the notes say about one declaration.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Note {
    pub swift_name: Option<String>,
    pub private: bool,
    pub nonswift: bool,
    pub error_domain: Option<String>,
}

/// A class's or protocol's notes with its members'.
#[derive(Clone, Debug, Default)]
pub(super) struct ContainerNotes {
    pub note: Note,
    /// Keyed by (selector, is class method).
    pub methods: HashMap<(String, bool), Note>,
    pub properties: HashMap<String, Note>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct ApiNotes {
    pub classes: HashMap<String, ContainerNotes>,
    pub protocols: HashMap<String, ContainerNotes>,
    /// Tags (enums, structs), typedefs, enumerators, functions and globals by name.
    pub others: HashMap<String, Note>,
}

fn note(y: &Yaml) -> Note {
    let s = |k: &str| y[k].as_str().map(str::to_owned);
    Note {
        swift_name: s("SwiftName"),
        private: y["SwiftPrivate"].as_bool().unwrap_or(false),
        nonswift: y["Availability"]
            .as_str()
            .is_some_and(|a| a.eq_ignore_ascii_case("nonswift")),
        error_domain: s("NSErrorDomain"),
    }
}

fn container(y: &Yaml) -> ContainerNotes {
    let mut c = ContainerNotes {
        note: note(y),
        ..ContainerNotes::default()
    };
    if let Some(ms) = y["Methods"].as_vec() {
        for m in ms {
            let Some(sel) = m["Selector"].as_str() else {
                continue;
            };
            let class = m["MethodKind"].as_str() == Some("Class");
            c.methods.insert((sel.to_owned(), class), note(m));
        }
    }
    if let Some(ps) = y["Properties"].as_vec() {
        for p in ps {
            let Some(name) = p["Name"].as_str() else {
                continue;
            };
            c.properties.insert(name.to_owned(), note(p));
        }
    }
    c
}

impl ApiNotes {
    /// Parses notes text; a YAML error is reported with its position.
    pub(super) fn parse(text: &str) -> Result<ApiNotes, String> {
        let docs = YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
        let mut out = ApiNotes::default();
        for doc in &docs {
            for (key, map) in [("Classes", true), ("Protocols", false)] {
                if let Some(items) = doc[key].as_vec() {
                    for it in items {
                        let Some(name) = it["Name"].as_str() else {
                            continue;
                        };
                        let c = container(it);
                        if map {
                            out.classes.insert(name.to_owned(), c);
                        } else {
                            out.protocols.insert(name.to_owned(), c);
                        }
                    }
                }
            }
            for key in ["Tags", "Typedefs", "Enumerators", "Functions", "Globals"] {
                if let Some(items) = doc[key].as_vec() {
                    for it in items {
                        let Some(name) = it["Name"].as_str() else {
                            continue;
                        };
                        out.others.insert(name.to_owned(), note(it));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Merges another framework's notes (later entries win).
    pub(super) fn merge(&mut self, other: ApiNotes) {
        for (k, v) in other.classes {
            self.classes.entry(k).or_default().absorb(v);
        }
        for (k, v) in other.protocols {
            self.protocols.entry(k).or_default().absorb(v);
        }
        self.others.extend(other.others);
    }
}

impl ContainerNotes {
    fn absorb(&mut self, o: ContainerNotes) {
        if o.note != Note::default() {
            self.note = o.note;
        }
        self.methods.extend(o.methods);
        self.properties.extend(o.properties);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_current_section_only() {
        let text = "---\nName: Demo\nClasses:\n- Name: DMThing\n  SwiftName: Thing\n  Methods:\n  \
                    - Selector: \"doA:withB:\"\n    MethodKind: Instance\n    SwiftName: \"do(a:b:)\"\n  \
                    - Selector: hidden\n    MethodKind: Class\n    SwiftPrivate: true\n  Properties:\n  \
                    - Name: gone\n    Availability: nonswift\nTags:\n- Name: DMMode\n  SwiftName: Thing.Mode\n\
                    SwiftVersions:\n- Version: 4\n  Classes:\n  - Name: DMThing\n    SwiftName: OldThing\n";
        let n = ApiNotes::parse(text).unwrap();
        let c = &n.classes["DMThing"];
        assert_eq!(c.note.swift_name.as_deref(), Some("Thing"));
        assert_eq!(
            c.methods[&("doA:withB:".to_owned(), false)]
                .swift_name
                .as_deref(),
            Some("do(a:b:)")
        );
        assert!(c.methods[&("hidden".to_owned(), true)].private);
        assert!(c.properties["gone"].nonswift);
        assert_eq!(n.others["DMMode"].swift_name.as_deref(), Some("Thing.Mode"));
        assert!(ApiNotes::parse("Classes: [").is_err());
    }
}
