//! Prints the tree-sitter-swift syntax tree of a Swift file (a debugging aid).
use std::io::Read;

fn dump(node: tree_sitter::Node<'_>, src: &[u8], depth: usize, field: Option<&str>) {
    let text = node.utf8_text(src).unwrap_or("");
    let short: String = text.chars().take(40).collect::<String>().replace('\n', "⏎");
    let f = field.map(|f| format!("{f}: ")).unwrap_or_default();
    if node.is_named() {
        println!(
            "{}{}{} [{}:{}] {:?}",
            "  ".repeat(depth),
            f,
            node.kind(),
            node.start_position().row + 1,
            node.start_position().column + 1,
            short
        );
    } else {
        println!("{}{}'{}'", "  ".repeat(depth), f, node.kind());
    }
    let mut c = node.walk();
    for (i, ch) in node.children(&mut c).enumerate() {
        let fname = node.field_name_for_child(i as u32);
        dump(ch, src, depth + 1, fname);
    }
}

fn main() {
    let mut src = String::new();
    let _ = std::io::stdin().read_to_string(&mut src);
    let mut p = tree_sitter::Parser::new();
    let lang: tree_sitter::Language = tree_sitter_swift::LANGUAGE.into();
    if p.set_language(&lang).is_err() {
        return;
    }
    if let Some(t) = p.parse(&src, None) {
        dump(t.root_node(), src.as_bytes(), 0, None);
    }
}
