//! Small headers written for these tests, one rule each.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::*;

/// Compares the reader's output on a real SDK with the shared graphs' Objective-C symbols.
/// Run with `VERITY_OBJC_SDK=<sdk root> cargo test -p verity-swift objc_against_graphs -- --ignored --nocapture`.
#[test]
#[ignore = "needs an extracted SDK (VERITY_OBJC_SDK) and the shared graphs"]
fn objc_against_graphs() {
    let Ok(sdk) = std::env::var("VERITY_OBJC_SDK") else {
        panic!("set VERITY_OBJC_SDK to the SDK root");
    };
    let graphs = std::env::var("VERITY_GRAPHS").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/apple-sdk-symbols/ios17.4"
        )
        .to_owned()
    });
    let t0 = std::time::Instant::now();
    let ours = read_objc_sdk(Path::new(&sdk)).expect("read SDK");
    eprintln!("read {} decls in {:?}", ours.decls.len(), t0.elapsed());
    let theirs = crate::index::read_graphs(&[graphs]).expect("read graphs");
    let key = |d: &Decl| {
        (
            d.path[..d.path.len() - 1].join("."),
            d.selector.clone().unwrap_or_default(),
            d.is_async,
        )
    };
    let mut by_key: HashMap<(String, String, bool), Vec<&Decl>> = HashMap::new();
    for d in &ours.decls {
        if d.selector.is_some() {
            by_key.entry(key(d)).or_default().push(d);
        }
    }
    let mut per_module: std::collections::BTreeMap<String, [usize; 5]> = Default::default();
    let mut misses: Vec<String> = Vec::new();
    let mut wrong: Vec<String> = Vec::new();
    for g in theirs
        .decls
        .iter()
        .filter(|d| d.objc && d.selector.is_some())
    {
        let e = per_module.entry(g.module.clone()).or_default();
        e[0] += 1;
        let Some(found) = by_key.get(&key(g)) else {
            if misses.len() < 4000 {
                misses.push(format!(
                    "{} {} [{}]",
                    g.module,
                    g.joined(),
                    g.selector.as_deref().unwrap_or("")
                ));
            }
            continue;
        };
        e[1] += 1;
        let title = g.path.last();
        if found.iter().any(|d| d.path.last() == title) {
            e[2] += 1;
        } else if wrong.len() < 4000 {
            wrong.push(format!(
                "{} {} ours={}",
                g.module,
                g.joined(),
                found[0].path.last().map_or("", String::as_str)
            ));
        }
        if found.iter().any(|d| {
            d.params
                .as_ref()
                .is_some_and(|p| p.iter().all(|p| !p.ty.is_empty()))
        }) {
            e[3] += 1;
        }
        if found.iter().any(|d| d.ty.is_some()) {
            e[4] += 1;
        }
    }
    let mut tot = [0usize; 5];
    for (m, v) in &per_module {
        eprintln!(
            "{m:24} graph {:6} matched {:6} same-title {:6} typed-params {:6} typed-return {:6}",
            v[0], v[1], v[2], v[3], v[4]
        );
        for k in 0..5 {
            tot[k] += v[k];
        }
    }
    eprintln!(
        "{:24} graph {:6} matched {:6} same-title {:6} typed-params {:6} typed-return {:6}",
        "TOTAL", tot[0], tot[1], tot[2], tot[3], tot[4]
    );
    // Properties and other members by path.
    let ours_paths: HashSet<(String, String)> = ours
        .decls
        .iter()
        .map(|d| (d.joined(), d.kind.as_str().to_owned()))
        .collect();
    let ours_joined: HashSet<String> = ours.decls.iter().map(Decl::joined).collect();
    let mut pk: std::collections::BTreeMap<&str, [usize; 3]> = Default::default();
    for g in theirs
        .decls
        .iter()
        .filter(|d| d.objc && d.selector.is_none())
    {
        let e = pk.entry(g.kind.as_str()).or_default();
        e[0] += 1;
        if ours_joined.contains(&g.joined()) {
            e[1] += 1;
        }
        if ours_paths.contains(&(g.joined(), g.kind.as_str().to_owned())) {
            e[2] += 1;
        }
    }
    for (k, v) in &pk {
        eprintln!(
            "non-selector {k:22} graph {:6} same-path {:6} same-path+kind {:6}",
            v[0], v[1], v[2]
        );
    }
    if let Ok(out) = std::env::var("VERITY_OBJC_REPORT") {
        let _ = std::fs::write(format!("{out}.misses"), misses.join("\n"));
        let _ = std::fs::write(format!("{out}.wrong"), wrong.join("\n"));
    }
}
