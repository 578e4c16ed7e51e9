//! `cargo run -p verity-local --example pull -- [NAME…]`: what `verity model pull` does
//! (every known model when no name is given), then lists the store.
fn main() {
    let dir = verity_local::default_models_dir();
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        names = verity_local::KNOWN_MODELS
            .iter()
            .map(|m| m.name.to_owned())
            .collect();
    }
    for name in &names {
        match verity_local::pull(name, &dir, &mut |line| eprintln!("{line}")) {
            Ok(path) => println!("{name}: {}", path.display()),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
    }
    for m in verity_local::list(&dir) {
        println!(
            "{:<32} {:>12} {} {}",
            m.name,
            if m.present {
                m.size.to_string()
            } else {
                "absent".into()
            },
            m.path.display(),
            m.description
        );
    }
}
