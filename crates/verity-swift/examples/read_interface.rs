//! Prints the declarations the `.swiftinterface` reader finds in one interface file (a
//! debugging aid): `cargo run --example read_interface -- MODULE FILE`.
use verity_swift::index::sdk::read_interface;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(module), Some(file)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: read_interface MODULE FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(1);
        }
    };
    if std::env::var_os("PREPARED").is_some() {
        print!("{}", verity_swift::index::sdk::prepare(&text));
        return;
    }
    let set = read_interface(module, &text);
    for d in &set.decls {
        let params: Vec<String> = d
            .params
            .iter()
            .flatten()
            .map(|p| {
                format!(
                    "{}: {}{}",
                    p.label,
                    p.ty,
                    if p.default { " = _" } else { "" }
                )
            })
            .collect();
        println!(
            "{} {} ty={:?} params=[{}] generics={:?}{}{}{} avail={:?}",
            d.kind,
            d.joined(),
            d.ty,
            params.join(", "),
            d.generics,
            if d.throws { " throws" } else { "" },
            if d.is_async { " async" } else { "" },
            if d.constrained { " constrained" } else { "" },
            d.availability
                .iter()
                .map(|a| format!(
                    "{:?} {:?}-{:?}{}{}",
                    a.domain,
                    a.introduced.map(|v| v.to_string()),
                    a.deprecated.map(|v| v.to_string()),
                    if a.unavailable { " unavailable" } else { "" },
                    if a.unconditionally_deprecated {
                        " deprecated"
                    } else {
                        ""
                    }
                ))
                .collect::<Vec<_>>()
        );
    }
    for r in &set.relations {
        println!(
            "rel {} -> {} {}",
            r.source,
            r.target,
            if r.inherits { "inherits" } else { "" }
        );
    }
}
