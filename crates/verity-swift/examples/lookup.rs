//! Looks names up in the shipped index: `cargo run -p verity-swift --example lookup -- NAME...`
//! (`--supers TYPE` lists a type's supertypes; `--members TYPE` its members).
fn main() {
    let ix = match verity_swift::default_index() {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--supers" => {
                let t = args.next().unwrap_or_default();
                for s in ix.supertypes(&t) {
                    println!("{t} : {s} (type: {})", ix.is_type(&s));
                }
            }
            "--members" => {
                let t = args.next().unwrap_or_default();
                for m in ix.members(&t) {
                    println!("{} {}", m.kind, m.dotted_path());
                }
            }
            name => {
                for f in ix.lookup(name) {
                    println!("{}", serde_json::to_string(&f).unwrap_or_default());
                }
            }
        }
    }
}
