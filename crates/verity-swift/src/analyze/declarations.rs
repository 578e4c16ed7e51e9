//! The first walk: every name the source declares itself, and its imports.

use std::collections::HashSet;

use tree_sitter::Node;

use super::{ident, named_children, text};

/// Names the source declares.
#[derive(Debug, Default)]
pub(crate) struct Decls {
    pub types: HashSet<String>,
    /// Types the source extends with initializers of its own.
    pub ext_inits: HashSet<String>,
    pub values: HashSet<String>,
    /// Values declared only as members of the source's own structs, enums and root classes
    /// and actors (no inheritance clause; not in an extension): no SDK type can have them,
    /// since no SDK type is or inherits from them.
    pub value_type_members: HashSet<String>,
    /// Members the source declares in extensions (`extension UIColor { static let brand … }`):
    /// the only source names an implicit member of an SDK type can be.
    pub ext_members: HashSet<String>,
    /// Values declared only as functions taking parameters (`func tableView(_:numberOfRowsInSection:)`
    /// in a `UITableViewController`): a bare use of the name (`tableView.register(…)`) is
    /// still an inherited property, since those functions' full names carry labels.
    pub only_funcs_with_params: HashSet<String>,
    pub imports: Vec<String>,
    /// Every value name declared other than as a function taking parameters.
    other_values: HashSet<String>,
    /// The syntax tree's depth (the analysis needs a large stack beyond some depth).
    pub max_depth: usize,
}

impl Decls {
    pub(crate) fn collect(root: Node<'_>, src: &str) -> Decls {
        let mut d = Decls::default();
        // iterative walk (no recursion on untrusted depth)
        let mut stack = vec![(root, 0usize)];
        while let Some((n, depth)) = stack.pop() {
            d.max_depth = d.max_depth.max(depth);
            d.visit(n, src);
            let mut c = n.walk();
            for ch in n.children(&mut c) {
                if ch.kind() != "ERROR" || ch.child_count() > 0 {
                    stack.push((ch, depth + 1));
                }
            }
        }
        d.value_type_members.retain(|v| !d.values.contains(v));
        let others = std::mem::take(&mut d.other_values);
        d.only_funcs_with_params.retain(|v| !others.contains(v));
        d
    }

    fn value(&mut self, n: Node<'_>, src: &str) {
        let t = ident(text(n, src));
        if !t.is_empty() && t != "_" {
            self.other_values.insert(t.to_owned());
            if value_type_member(n, src) {
                self.value_type_members.insert(t.to_owned());
            } else {
                self.values.insert(t.to_owned());
            }
        }
    }

    fn visit(&mut self, n: Node<'_>, src: &str) {
        if matches!(n.kind(), "function_declaration" | "property_declaration")
            && let Some(body) = n.parent()
            && body.kind() == "class_body"
            && let Some(decl) = body.parent()
            && decl
                .child_by_field_name("declaration_kind")
                .is_some_and(|k| text(k, src) == "extension")
        {
            let name = n
                .child_by_field_name("name")
                .map(|x| x.child_by_field_name("bound_identifier").unwrap_or(x));
            if let Some(x) = name {
                let t = ident(text(x, src));
                if !t.is_empty() {
                    self.ext_members.insert(t.to_owned());
                }
            }
        }
        match n.kind() {
            "import_declaration" => {
                if let Some(id) = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "identifier")
                {
                    let full = text(id, src);
                    let first = full.split('.').next().unwrap_or(full).trim();
                    if !first.is_empty() {
                        self.imports.push(first.to_owned());
                    }
                }
            }
            "class_declaration" | "protocol_declaration" => {
                if let Some(name) = n.child_by_field_name("name")
                    && name.kind() == "type_identifier"
                {
                    self.types.insert(ident(text(name, src)).to_owned());
                }
            }
            "typealias_declaration" | "associatedtype_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.types.insert(ident(text(name, src)).to_owned());
                }
            }
            "type_parameter" => {
                if let Some(t) = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "type_identifier")
                {
                    self.types.insert(ident(text(t, src)).to_owned());
                }
            }
            "init_declaration" => {
                let mut p = n.parent();
                while let Some(x) = p {
                    if x.kind() == "class_declaration" {
                        if let Some(name) = x.child_by_field_name("name")
                            && name.kind() == "user_type"
                        {
                            let t = text(name, src);
                            let last = t.rsplit('.').next().unwrap_or(t);
                            self.ext_inits.insert(ident(last.trim()).to_owned());
                        }
                        break;
                    }
                    p = x.parent();
                }
            }
            "function_declaration" | "protocol_function_declaration" | "macro_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let takes_params = n.kind() == "function_declaration"
                        && named_children(n).iter().any(|c| c.kind() == "parameter");
                    let t = ident(text(name, src));
                    if takes_params && !t.is_empty() {
                        if value_type_member(name, src) {
                            self.value_type_members.insert(t.to_owned());
                        } else {
                            self.values.insert(t.to_owned());
                        }
                        self.only_funcs_with_params.insert(t.to_owned());
                    } else {
                        self.value(name, src);
                    }
                }
            }
            "parameter" | "lambda_parameter" | "enum_entry" | "capture_list_item" => {
                for c in named_children(n) {
                    if c.kind() == "simple_identifier" {
                        // a function's parameter is always bound in its body's scope, where
                        // it wins; it does not hide an inherited property elsewhere
                        let scoped = n.kind() == "parameter"
                            && n.parent()
                                .is_some_and(|p| p.kind() == "function_declaration");
                        let had = self.other_values.contains(ident(text(c, src)));
                        self.value(c, src);
                        if scoped && !had {
                            self.other_values.remove(ident(text(c, src)));
                        }
                    }
                }
            }
            "pattern" | "if_statement" | "guard_statement" | "while_statement"
            | "computed_setter" | "willset_clause" | "didset_clause" | "for_statement" => {
                for c in named_children(n) {
                    // `case .medium:` names an enum case, it binds nothing
                    let case_name = c.prev_sibling().is_some_and(|p| p.kind() == ".");
                    if c.kind() == "simple_identifier"
                        && !case_name
                        && (n.kind() == "pattern"
                            || n.child_by_field_name("bound_identifier") == Some(c)
                            || matches!(
                                n.kind(),
                                "computed_setter" | "willset_clause" | "didset_clause"
                            ))
                    {
                        self.value(c, src);
                    }
                }
            }
            "protocol_property_declaration" => {
                if let Some(p) = n.child_by_field_name("name") {
                    for c in named_children(p) {
                        if c.kind() == "simple_identifier" {
                            self.value(c, src);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether a declared name is a member of a `struct` or `enum` declaration itself (a method
/// or a stored or computed property of its body, not a local of a method).
fn value_type_member(n: Node<'_>, src: &str) -> bool {
    let mut p = n.parent();
    for _ in 0..3 {
        let Some(x) = p else {
            return false;
        };
        match x.kind() {
            "pattern" | "function_declaration" | "property_declaration" => p = x.parent(),
            "class_body" | "enum_class_body" => {
                return x.parent().is_some_and(|d| {
                    d.kind() == "class_declaration"
                        && d.child_by_field_name("declaration_kind").is_some_and(|k| {
                            match text(k, src) {
                                "struct" | "enum" => true,
                                // a root class or actor: no SDK type is or inherits it
                                "class" | "actor" => !named_children(d)
                                    .iter()
                                    .any(|c| c.kind() == "inheritance_specifier"),
                                _ => false,
                            }
                        })
                });
            }
            _ => return false,
        }
    }
    false
}
