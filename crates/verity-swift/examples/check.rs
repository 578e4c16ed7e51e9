//! Checks Swift files with the four oracles and prints one JSON report per file:
//! `cargo run -p verity-swift --example check -- [--target ios17.0] [--answer] FILE...`
//! (`--answer`: the file is a model answer with fenced code blocks).
fn main() {
    let mut target = "ios17.0".to_owned();
    let mut answer = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--target" => target = args.next().unwrap_or_default(),
            "--answer" => answer = true,
            _ => files.push(a),
        }
    }
    let Some(t) = verity_swift::Target::parse(&target) else {
        eprintln!("error: bad target {target}");
        std::process::exit(2);
    };
    let opts = match verity_swift::CheckOptions::new(t) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap_or_default();
        let r = if answer {
            verity_swift::check_answer(&src, &opts)
        } else {
            verity_swift::check_source(&src, &opts)
        };
        println!(
            "{f}: {}",
            serde_json::to_string_pretty(&r).unwrap_or_default()
        );
    }
}
