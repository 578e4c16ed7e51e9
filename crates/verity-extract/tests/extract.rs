//! Per-language extraction on realistic snippets, plus the walk's rules and determinism.

use std::path::Path;

use verity_extract::{ExtractOptions, extract};
use verity_facts::{Facts, InheritanceKind, SymbolKind, TypeRole};

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn facts_of(files: &[(&str, &str)]) -> Facts {
    let t = tempfile::tempdir().unwrap();
    for (p, text) in files {
        write(t.path(), p, text);
    }
    let opts = ExtractOptions {
        name: Some("demo".into()),
        git: false,
        ..ExtractOptions::default()
    };
    extract(t.path(), &opts).unwrap()
}

#[track_caller]
fn symbol<'a>(f: &'a Facts, qualified: &str) -> &'a verity_facts::Symbol {
    f.symbols
        .iter()
        .find(|s| s.qualified() == qualified)
        .unwrap_or_else(|| {
            let all: Vec<String> = f.symbols.iter().map(|s| s.qualified()).collect();
            panic!("no symbol {qualified} in {all:?}")
        })
}

fn lines(s: &verity_facts::Symbol) -> (u32, u32) {
    (s.start_line, s.end_line)
}

fn has_inherit(f: &Facts, child: &str, parent: &str, kind: InheritanceKind) -> bool {
    f.inherits
        .iter()
        .any(|i| i.child == child && i.parent == parent && i.kind == kind)
}

fn calls(f: &Facts, caller: &str, callee: &str) -> bool {
    f.calls
        .iter()
        .any(|c| c.caller == caller && c.callee == callee)
}

fn exports(f: &Facts, file: &str) -> Vec<String> {
    let mut v: Vec<String> = f
        .exports
        .iter()
        .filter(|e| e.file == file)
        .map(|e| e.name.clone())
        .collect();
    v.sort();
    v
}

fn type_of(f: &Facts, ident: &str, role: TypeRole) -> Option<(String, Option<String>)> {
    f.types
        .iter()
        .find(|t| t.identifier == ident && t.role == role)
        .map(|t| (t.ty.clone(), t.container.clone()))
}

const TS_PARSER: &str = r#"import { Token, tokenize as lex } from "./lexer";
import * as util from "../util";
import Default from "./lexer.js";
import type { Options } from "./types";

export interface Node extends Base, Visitable<Node> {
  kind: string;
}

export abstract class Parser<T> extends BaseParser<T> implements Iterable<T>, Disposable {
  private pos: number = 0;
  readonly tokens: Token[];

  constructor(input: string, private opts?: Options) {
    super();
    this.tokens = lex(input);
  }

  parse(depth: number): Node | undefined {
    const tok = this.peek();
    return util.build(tok, depth);
  }

  private peek(): Token {
    return this.tokens[this.pos];
  }
}

export const parse = (src: string): Node => new Parser<Node>(src).parse(0)!;
export function helper(x: number): void {}
function local() { helper(1); }
export type Visitor = (n: Node) => void;
export enum Mode { Strict, Loose }
export { local as publicLocal };
export * from "./lexer";
"#;

#[test]
fn typescript() {
    let f = facts_of(&[
        ("src/parser.ts", TS_PARSER),
        (
            "src/lexer.ts",
            "export type Token = string;\nexport function tokenize(s: string): Token[] { return [s]; }\n",
        ),
        (
            "src/types.d.ts",
            "export interface Options { strict: boolean }\n",
        ),
        (
            "util/index.ts",
            "export function build(t: unknown, d: number) { return t; }\n",
        ),
    ]);
    let parser = symbol(&f, "Parser");
    assert_eq!(parser.kind, SymbolKind::Class);
    assert_eq!(lines(parser), (10, 27));
    assert!(parser.exported);
    assert_eq!(
        parser.signature.as_deref(),
        Some("export abstract class Parser<T> extends BaseParser<T> implements Iterable<T>, Disposable")
            .map(|s| s.trim_start_matches("export "))
    );
    let parse = symbol(&f, "Parser.parse");
    assert_eq!(parse.kind, SymbolKind::Method);
    assert_eq!(lines(parse), (19, 22));
    assert_eq!(
        parse.signature.as_deref(),
        Some("parse(depth: number): Node | undefined")
    );
    assert_eq!(parse.return_type.as_deref(), Some("Node | undefined"));
    assert!(parse.exported);
    assert!(!symbol(&f, "Parser.peek").exported, "private");
    assert_eq!(symbol(&f, "Parser.constructor").kind, SymbolKind::Method);
    let arrow = symbol(&f, "parse");
    assert_eq!(arrow.kind, SymbolKind::Function);
    assert_eq!(arrow.return_type.as_deref(), Some("Node"));
    assert_eq!(
        arrow.signature.as_deref(),
        Some("export const parse = (src: string): Node")
    );
    assert_eq!(symbol(&f, "Node").kind, SymbolKind::Interface);
    assert_eq!(symbol(&f, "Visitor").kind, SymbolKind::TypeAlias);
    assert_eq!(symbol(&f, "Mode").kind, SymbolKind::Enum);
    assert!(!symbol(&f, "local").exported);

    assert!(has_inherit(
        &f,
        "Parser",
        "BaseParser",
        InheritanceKind::Extends
    ));
    assert!(has_inherit(
        &f,
        "Parser",
        "Iterable",
        InheritanceKind::Implements
    ));
    assert!(has_inherit(
        &f,
        "Parser",
        "Disposable",
        InheritanceKind::Implements
    ));
    assert!(has_inherit(
        &f,
        "Node",
        "Visitable",
        InheritanceKind::Extends
    ));

    let imp = |m: &str| {
        f.imports
            .iter()
            .find(|i| i.file == "src/parser.ts" && i.module == m)
            .unwrap_or_else(|| panic!("no import of {m}: {:?}", f.imports))
    };
    assert_eq!(imp("./lexer").symbols, ["Token", "tokenize"]);
    assert_eq!(imp("./lexer").resolved.as_deref(), Some("src/lexer.ts"));
    assert_eq!(imp("../util").resolved.as_deref(), Some("util/index.ts"));
    assert_eq!(imp("../util").symbols, ["*"]);
    assert_eq!(imp("./lexer.js").resolved.as_deref(), Some("src/lexer.ts"));
    assert_eq!(imp("./types").resolved.as_deref(), Some("src/types.d.ts"));

    assert_eq!(
        exports(&f, "src/parser.ts"),
        [
            "*",
            "Mode",
            "Node",
            "Parser",
            "Visitor",
            "helper",
            "parse",
            "publicLocal"
        ]
    );
    assert!(calls(&f, "Parser.constructor", "tokenize") || calls(&f, "Parser.constructor", "lex"));
    assert!(calls(&f, "Parser.parse", "peek"));
    assert!(calls(&f, "Parser.parse", "build"));
    assert!(calls(&f, "parse", "Parser"), "new is a call");
    assert!(calls(&f, "local", "helper"));
    assert_eq!(
        type_of(&f, "depth", TypeRole::Parameter),
        Some(("number".into(), Some("Parser.parse".into())))
    );
    assert_eq!(
        type_of(&f, "pos", TypeRole::Field),
        Some(("number".into(), Some("Parser".into())))
    );
    let file = f.files.iter().find(|x| x.path == "src/parser.ts").unwrap();
    for id in ["Parser", "peek", "tokens", "lex", "util"] {
        assert!(file.identifiers.iter().any(|i| i == id), "{id}");
    }
    assert!(
        !file
            .identifiers
            .iter()
            .any(|i| i == "number" || i == "return")
    );
}

#[test]
fn constants_in_callbacks_are_locals_not_symbols() {
    let f = facts_of(&[(
        "src/parser.test.ts",
        "export const VERSION = \"1\";\ndescribe(\"parser\", () => {\n  it(\"parses\", () => {\n    const parser = new Parser(\"x\");\n    parser.parse();\n  });\n});\nconst helper = function () {\n  const inner = 1;\n  return inner;\n};\n",
    )]);
    let names: Vec<&str> = f.symbols.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"VERSION"), "{names:?}");
    assert!(names.contains(&"helper"), "{names:?}");
    assert!(!names.contains(&"parser"), "{names:?}");
    assert!(!names.contains(&"inner"), "{names:?}");
    assert_eq!(symbol(&f, "VERSION").kind, SymbolKind::Constant);
}

#[test]
fn tsx_and_javascript() {
    let f = facts_of(&[
        (
            "app/View.tsx",
            "import React from 'react';\nexport default function View({ n }: { n: number }) {\n  return <div>{format(n)}</div>;\n}\nfunction format(n: number): string { return String(n); }\n",
        ),
        (
            "lib/a.js",
            "const b = require('./b');\nclass A extends b.Base {\n  run() { return b.go(this); }\n}\nmodule.exports = { A };\n",
        ),
        (
            "lib/b.js",
            "exports.go = function go() {};\nexport const api = {\n  get(url) { return fetch(url); },\n  size: 3,\n};\n",
        ),
    ]);
    let view = symbol(&f, "View");
    assert_eq!(lines(view), (2, 4));
    assert!(view.exported);
    assert_eq!(exports(&f, "app/View.tsx"), ["default"]);
    assert_eq!(symbol(&f, "format").return_type.as_deref(), Some("string"));
    assert!(calls(&f, "View", "format"));
    assert!(has_inherit(&f, "A", "b.Base", InheritanceKind::Extends));
    assert_eq!(symbol(&f, "A.run").kind, SymbolKind::Method);
    assert!(calls(&f, "A.run", "go"));
    let req = f.imports.iter().find(|i| i.module == "./b").unwrap();
    assert_eq!(req.resolved.as_deref(), Some("lib/b.js"));
    assert_eq!(req.file, "lib/a.js");
    let get = symbol(&f, "api.get");
    assert_eq!(
        (get.kind, lines(get), get.exported),
        (SymbolKind::Method, (3, 3), true)
    );
    assert!(calls(&f, "api.get", "fetch"));
    assert_eq!(f.repo.languages.get("tsx"), Some(&1));
    assert_eq!(f.repo.languages.get("javascript"), Some(&2));
}

const PY_MODELS: &str = r#""""Models."""
from __future__ import annotations

import os.path
from typing import Generic, TypeVar
from .base import Base, Mixin as M
from . import util
from ..core import engine

T = TypeVar("T")
DEFAULT_LIMIT: int = 10


class Repo(Base, M, Generic[T], metaclass=Meta):
    name: str

    def __init__(self, root: str, limit: int = DEFAULT_LIMIT) -> None:
        self.root = root
        self.items: list[T] = []
        util.check(root)

    async def load(self, key) -> T | None:
        def inner(x):
            return os.path.join(self.root, x)
        return inner(key)

    def _private(self):
        pass


def helper(*args) -> "Repo[int]":
    return Repo("x")
"#;

#[test]
fn python() {
    let f = facts_of(&[
        ("pkg/sub/models.py", PY_MODELS),
        (
            "pkg/sub/base.py",
            "__all__ = ['Base', 'Mixin']\nclass Base: pass\nclass Mixin: pass\nclass _Hidden: pass\n",
        ),
        ("pkg/sub/util.py", "def check(p): return p\n"),
        (
            "pkg/sub/__init__.py",
            "from .models import Repo, helper as make\nfrom .util import _check\n",
        ),
        ("pkg/core/engine.py", ""),
        ("pkg/__init__.py", ""),
        (
            "pkg/app.py",
            "import pkg.sub.models\nfrom pkg.sub import util\n",
        ),
    ]);
    let repo = symbol(&f, "Repo");
    assert_eq!((repo.kind, lines(repo)), (SymbolKind::Class, (14, 28)));
    let init = symbol(&f, "Repo.__init__");
    assert_eq!((init.kind, lines(init)), (SymbolKind::Method, (17, 20)));
    assert_eq!(init.return_type.as_deref(), Some("None"));
    assert_eq!(
        init.signature.as_deref(),
        Some("def __init__(self, root: str, limit: int = DEFAULT_LIMIT) -> None")
    );
    let load = symbol(&f, "Repo.load");
    assert_eq!(lines(load), (22, 25));
    assert!(load.exported);
    assert!(!symbol(&f, "Repo._private").exported);
    let inner = symbol(&f, "Repo.load.inner");
    assert_eq!(
        (inner.kind, inner.container.as_deref()),
        (SymbolKind::Function, Some("Repo.load"))
    );
    assert!(calls(&f, "Repo.load.inner", "join"));
    assert!(calls(&f, "Repo.load", "inner"));
    assert!(calls(&f, "Repo.__init__", "check"));
    assert!(calls(&f, "helper", "Repo"));
    assert!(calls(&f, "<module>", "TypeVar"));
    for p in ["Base", "M", "Generic"] {
        assert!(has_inherit(&f, "Repo", p, InheritanceKind::Extends), "{p}");
    }
    assert!(!f.inherits.iter().any(|i| i.parent == "Meta"));

    let imp = |m: &str| {
        f.imports
            .iter()
            .find(|i| i.module == m)
            .unwrap_or_else(|| panic!("{m}"))
    };
    assert_eq!(imp(".base").resolved.as_deref(), Some("pkg/sub/base.py"));
    assert_eq!(imp(".base").symbols, ["Base", "Mixin"]);
    assert_eq!(imp(".").resolved.as_deref(), Some("pkg/sub/util.py"));
    // `core` has no __init__.py (a namespace package): the one name imported is its module.
    assert_eq!(
        imp("..core").resolved.as_deref(),
        Some("pkg/core/engine.py")
    );
    assert_eq!(imp("os.path").resolved, None);
    assert_eq!(
        imp("pkg.sub.models").resolved.as_deref(),
        Some("pkg/sub/models.py")
    );
    assert_eq!(
        imp("pkg.sub").resolved.as_deref(),
        Some("pkg/sub/__init__.py")
    );
    assert_eq!(imp("pkg.sub").symbols, ["util"]);

    assert_eq!(exports(&f, "pkg/sub/base.py"), ["Base", "Mixin"]);
    assert_eq!(
        exports(&f, "pkg/sub/__init__.py"),
        ["Repo", "make"],
        "a package's imports"
    );
    assert_eq!(
        exports(&f, "pkg/sub/models.py"),
        ["DEFAULT_LIMIT", "Repo", "T", "helper"]
    );
    assert_eq!(
        symbol(&f, "helper").return_type.as_deref(),
        Some("\"Repo[int]\"")
    );
    assert_eq!(
        type_of(&f, "root", TypeRole::Parameter),
        Some(("str".into(), Some("Repo.__init__".into())))
    );
    assert_eq!(
        type_of(&f, "name", TypeRole::Field),
        Some(("str".into(), Some("Repo".into())))
    );
    assert_eq!(
        type_of(&f, "items", TypeRole::Field).map(|t| t.0),
        Some("list[T]".into())
    );
    assert_eq!(
        type_of(&f, "DEFAULT_LIMIT", TypeRole::Variable),
        Some(("int".into(), None))
    );
}

const RS_LIB: &str = r#"//! The crate.
pub mod parser;
mod util;

use crate::parser::{Parser, Ast};
use std::collections::HashMap;

pub use parser::parse as parse_str;

pub const LIMIT: usize = 64;

pub trait Visit: Clone + std::fmt::Debug {
    fn visit(&mut self, ast: &Ast) -> bool;
}

#[derive(Clone, Debug)]
pub struct Counter<'a> {
    pub seen: HashMap<&'a str, u32>,
    depth: usize,
}

impl<'a> Visit for Counter<'a> {
    fn visit(&mut self, ast: &Ast) -> bool {
        let n: u32 = util::weight(ast);
        self.bump(n);
        true
    }
}

impl Counter<'_> {
    pub fn bump(&mut self, by: u32) {
        self.depth += by as usize;
    }

    fn reset(&mut self) {
        self.depth = 0;
    }
}

pub fn run(src: &str) -> Result<Ast, String> {
    let ast = Parser::new(src).parse()?;
    Ok(ast)
}
"#;

#[test]
fn rust() {
    let f = facts_of(&[
        ("Cargo.toml", "[package]\nname = \"demo\"\n"),
        ("src/lib.rs", RS_LIB),
        (
            "src/parser.rs",
            "pub struct Parser;\npub struct Ast;\nimpl Parser { pub fn new(_: &str) -> Self { Parser } pub fn parse(self) -> Result<Ast, String> { Ok(Ast) } }\npub fn parse() {}\n",
        ),
        (
            "src/util/mod.rs",
            "use super::parser::Ast;\npub(crate) fn weight(_: &Ast) -> u32 { 1 }\n",
        ),
    ]);
    let counter = symbol(&f, "Counter");
    assert_eq!(
        (counter.kind, lines(counter)),
        (SymbolKind::Struct, (17, 20))
    );
    assert!(counter.exported);
    let visit = f
        .symbols
        .iter()
        .find(|s| s.qualified() == "Counter.visit")
        .unwrap();
    assert_eq!((visit.kind, lines(visit)), (SymbolKind::Method, (23, 27)));
    assert_eq!(
        visit.signature.as_deref(),
        Some("fn visit(&mut self, ast: &Ast) -> bool")
    );
    assert_eq!(visit.return_type.as_deref(), Some("bool"));
    let bump = symbol(&f, "Counter.bump");
    assert_eq!(lines(bump), (31, 33));
    assert!(bump.exported);
    assert!(!symbol(&f, "Counter.reset").exported);
    let trait_fn = symbol(&f, "Visit.visit");
    assert_eq!(
        (trait_fn.kind, lines(trait_fn)),
        (SymbolKind::Method, (13, 13))
    );
    assert_eq!(symbol(&f, "Visit").kind, SymbolKind::Trait);
    assert_eq!(
        symbol(&f, "run").return_type.as_deref(),
        Some("Result<Ast, String>")
    );

    assert!(has_inherit(
        &f,
        "Counter",
        "Visit",
        InheritanceKind::Implements
    ));
    assert!(has_inherit(&f, "Visit", "Clone", InheritanceKind::Extends));
    assert!(has_inherit(
        &f,
        "Visit",
        "std::fmt::Debug",
        InheritanceKind::Extends
    ));

    let imp = |file: &str, m: &str| {
        f.imports
            .iter()
            .find(|i| i.file == file && i.module == m)
            .unwrap_or_else(|| panic!("{file} {m}: {:?}", f.imports))
    };
    assert_eq!(
        imp("src/lib.rs", "crate::parser").symbols,
        ["Parser", "Ast"]
    );
    assert_eq!(
        imp("src/lib.rs", "crate::parser").resolved.as_deref(),
        Some("src/parser.rs")
    );
    assert_eq!(imp("src/lib.rs", "std::collections").resolved, None);
    assert_eq!(
        imp("src/lib.rs", "parser").resolved.as_deref(),
        Some("src/parser.rs"),
        "mod parser;"
    );
    assert_eq!(
        imp("src/lib.rs", "util").resolved.as_deref(),
        Some("src/util/mod.rs")
    );
    assert_eq!(
        imp("src/util/mod.rs", "super::parser").resolved.as_deref(),
        Some("src/parser.rs")
    );

    assert_eq!(
        exports(&f, "src/lib.rs"),
        ["Counter", "LIMIT", "Visit", "parse_str", "parser", "run"]
    );
    assert!(calls(&f, "Counter.visit", "weight"));
    assert!(calls(&f, "Counter.visit", "bump"));
    assert!(calls(&f, "run", "new"));
    assert!(calls(&f, "run", "parse"));
    assert!(calls(&f, "run", "Ok"));
    assert_eq!(
        type_of(&f, "n", TypeRole::Variable),
        Some(("u32".into(), Some("Counter.visit".into())))
    );
    assert_eq!(
        type_of(&f, "seen", TypeRole::Field),
        Some(("HashMap<&'a str, u32>".into(), Some("Counter".into())))
    );
    assert_eq!(
        type_of(&f, "by", TypeRole::Parameter),
        Some(("u32".into(), Some("Counter.bump".into())))
    );
    assert_eq!(
        type_of(&f, "LIMIT", TypeRole::Variable).map(|t| t.0),
        Some("usize".into())
    );
}

const GO_SERVER: &str = r#"package server

import (
	"fmt"
	store "example.com/demo/internal/store"
)

// Server serves.
type Server struct {
	*store.Base
	Logger
	Addr string
	port, retries int
}

type Handler interface {
	fmt.Stringer
	Handle(req string) (string, error)
}

type ID = string

const Version = "1.0"

func New(addr string, port int) *Server {
	return &Server{Addr: addr, port: port}
}

func (s *Server) Start() error {
	fmt.Println("start", s.Addr)
	return s.listen()
}

func (s *Server) listen() error { return nil }
"#;

#[test]
fn go() {
    let f = facts_of(&[
        ("go.mod", "module example.com/demo\n\ngo 1.22\n"),
        ("server/server.go", GO_SERVER),
        (
            "internal/store/store.go",
            "package store\n\ntype Base struct{}\n",
        ),
    ]);
    let server = symbol(&f, "Server");
    assert_eq!((server.kind, lines(server)), (SymbolKind::Struct, (9, 14)));
    assert_eq!(symbol(&f, "Handler").kind, SymbolKind::Interface);
    assert_eq!(symbol(&f, "ID").kind, SymbolKind::TypeAlias);
    let start = symbol(&f, "Server.Start");
    assert_eq!((start.kind, lines(start)), (SymbolKind::Method, (29, 32)));
    assert_eq!(start.return_type.as_deref(), Some("error"));
    assert_eq!(
        start.signature.as_deref(),
        Some("func (s *Server) Start() error")
    );
    assert!(start.exported);
    assert!(!symbol(&f, "Server.listen").exported);
    assert_eq!(symbol(&f, "New").return_type.as_deref(), Some("*Server"));
    assert!(has_inherit(
        &f,
        "Server",
        "store.Base",
        InheritanceKind::Extends
    ));
    assert!(has_inherit(
        &f,
        "Server",
        "Logger",
        InheritanceKind::Extends
    ));
    assert!(has_inherit(
        &f,
        "Handler",
        "fmt.Stringer",
        InheritanceKind::Extends
    ));
    let st = f
        .imports
        .iter()
        .find(|i| i.module == "example.com/demo/internal/store")
        .unwrap();
    assert_eq!(st.resolved.as_deref(), Some("internal/store"));
    assert_eq!(st.line, 5);
    assert_eq!(
        f.imports
            .iter()
            .find(|i| i.module == "fmt")
            .unwrap()
            .resolved,
        None
    );
    assert_eq!(
        exports(&f, "server/server.go"),
        ["Handler", "ID", "New", "Server", "Version"]
    );
    assert!(calls(&f, "Server.Start", "Println"));
    assert!(calls(&f, "Server.Start", "listen"));
    assert_eq!(
        type_of(&f, "retries", TypeRole::Field),
        Some(("int".into(), Some("Server".into())))
    );
    assert_eq!(
        type_of(&f, "port", TypeRole::Parameter),
        Some(("int".into(), Some("New".into())))
    );
}

const SWIFT_SRC: &str = r#"import Foundation

public protocol Shape: Equatable {
    func area() -> Double
}

open class View {
    public init() {}
}

public final class Canvas: View, Shape, Codable {
    public var width: Double = 0
    private let name: String

    public func area() -> Double {
        return width * measure(width)
    }

    func measure(_ x: Double) -> Double { x }
}

struct Point: Hashable {
    var x: Int
}

extension Point: CustomStringConvertible {
    var description: String { "p" }
}
"#;

#[test]
fn swift() {
    let f = facts_of(&[("Sources/Canvas.swift", SWIFT_SRC)]);
    let canvas = symbol(&f, "Canvas");
    assert_eq!((canvas.kind, lines(canvas)), (SymbolKind::Class, (11, 20)));
    assert!(canvas.exported);
    assert_eq!(symbol(&f, "Shape").kind, SymbolKind::Protocol);
    assert_eq!(symbol(&f, "Point").kind, SymbolKind::Struct);
    let area = symbol(&f, "Canvas.area");
    assert_eq!((area.kind, lines(area)), (SymbolKind::Method, (15, 17)));
    assert_eq!(area.return_type.as_deref(), Some("Double"));
    assert_eq!(
        area.signature.as_deref(),
        Some("public func area() -> Double")
    );
    assert!(!symbol(&f, "Canvas.measure").exported);
    assert_eq!(symbol(&f, "View.init").kind, SymbolKind::Method);
    assert_eq!(symbol(&f, "Shape.area").kind, SymbolKind::Method);
    assert!(has_inherit(&f, "Canvas", "View", InheritanceKind::Extends));
    assert!(has_inherit(
        &f,
        "Canvas",
        "Shape",
        InheritanceKind::Implements
    ));
    assert!(has_inherit(
        &f,
        "Canvas",
        "Codable",
        InheritanceKind::Implements
    ));
    assert!(has_inherit(
        &f,
        "Point",
        "Hashable",
        InheritanceKind::Implements
    ));
    assert!(has_inherit(
        &f,
        "Point",
        "CustomStringConvertible",
        InheritanceKind::Implements
    ));
    assert!(has_inherit(
        &f,
        "Shape",
        "Equatable",
        InheritanceKind::Extends
    ));
    assert!(calls(&f, "Canvas.area", "measure"));
    assert_eq!(f.imports[0].module, "Foundation");
    assert_eq!(
        exports(&f, "Sources/Canvas.swift"),
        ["Canvas", "Shape", "View"]
    );
    assert_eq!(
        type_of(&f, "width", TypeRole::Field),
        Some(("Double".into(), Some("Canvas".into())))
    );
    assert_eq!(
        type_of(&f, "x", TypeRole::Parameter).map(|t| t.0),
        Some("Double".into())
    );
}

#[test]
fn deep_nesting_and_invalid_utf8_do_not_stop_the_extraction() {
    let t = tempfile::tempdir().unwrap();
    let deep = format!(
        "function deep() {{ return {}1{}; }}\n",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    write(t.path(), "deep.js", &deep);
    std::fs::write(
        t.path().join("latin1.py"),
        b"# caf\xe9\ndef f():\n    return g()\n",
    )
    .unwrap();
    let opts = ExtractOptions {
        git: false,
        ..ExtractOptions::default()
    };
    let f = extract(t.path(), &opts).unwrap();
    assert!(f.symbols.iter().any(|s| s.name == "deep"));
    let py = symbol(&f, "f");
    assert_eq!((py.file.as_str(), lines(py)), ("latin1.py", (2, 3)));
    assert!(calls(&f, "f", "g"));
}

#[test]
fn other_files_are_listed_and_broken_files_still_give_facts() {
    let f = facts_of(&[
        ("README.md", "# demo\n\nhello\n"),
        (
            "src/broken.py",
            "def ok(a):\n    return a\n\ndef broken(:\n    pass\n\nclass Fine:\n    def m(self): ok(1)\n",
        ),
        ("src/garbage.ts", "}}}{{{ export function f( {\n"),
    ]);
    let readme = f.files.iter().find(|x| x.path == "README.md").unwrap();
    assert_eq!(
        (readme.language, readme.lines, readme.identifiers.len()),
        (None, 3, 0)
    );
    assert_eq!(lines(symbol(&f, "ok")), (1, 2));
    assert_eq!(symbol(&f, "Fine.m").kind, SymbolKind::Method);
    assert!(calls(&f, "Fine.m", "ok"));
}

#[test]
fn gitignore_is_honoured_without_git_and_hash_follows_edits() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    write(d, ".gitignore", "build/\n");
    write(d, "build/gen.ts", "export function generated() {}\n");
    write(d, "src/a.ts", "export function a() {}\n");
    let opts = ExtractOptions {
        git: false,
        ..ExtractOptions::default()
    };
    let f1 = extract(d, &opts).unwrap();
    assert_eq!(f1.files.len(), 1);
    assert!(!f1.symbols.iter().any(|s| s.name == "generated"));
    assert_eq!(f1.repo.content_hash, verity_facts::repo_hash(d).unwrap());
    let again = extract(d, &opts).unwrap();
    assert_eq!(f1.to_json(), again.to_json(), "deterministic bytes");
    write(d, "src/a.ts", "export function a() { }\n");
    let f2 = extract(d, &opts).unwrap();
    assert_ne!(f1.repo.content_hash, f2.repo.content_hash);
    assert_eq!(f2.repo.content_hash, verity_facts::repo_hash(d).unwrap());
    // What was written parses back, hash checked.
    let back = Facts::from_json(&f2.to_json(), "f.json").unwrap();
    assert_eq!(back, f2);
}

#[test]
fn git_history_is_read_from_a_work_tree() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(d)
            .args([
                "-c",
                "user.name=T",
                "-c",
                "user.email=t@example.invalid",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        assert!(ok, "git {args:?}");
    };
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("git is not installed: skipped");
        return;
    }
    git(&["init", "-q"]);
    write(d, "a.py", "def a(): pass\n");
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "first: add a"]);
    write(d, "b.py", "def b(): pass\n");
    write(d, "a.py", "def a(): return 1\n");
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "second\n\nbody"]);
    let f = extract(d, &ExtractOptions::default()).unwrap();
    assert_eq!(f.commits.len(), 2);
    assert_eq!(f.commits[0].summary, "second");
    assert_eq!(f.commits[0].files, ["a.py", "b.py"]);
    assert_eq!(f.commits[1].files, ["a.py"]);
    assert_eq!(f.commits[0].id.len(), 40);
    let one = extract(
        d,
        &ExtractOptions {
            max_commits: 1,
            ..ExtractOptions::default()
        },
    )
    .unwrap();
    assert_eq!(one.commits.len(), 1);
    let none = extract(
        d,
        &ExtractOptions {
            git: false,
            ..ExtractOptions::default()
        },
    )
    .unwrap();
    assert!(none.commits.is_empty());
    // A subdirectory is not the top of a work tree: no history.
    write(d, "sub/c.py", "x = 1\n");
    assert!(
        extract(&d.join("sub"), &ExtractOptions::default())
            .unwrap()
            .commits
            .is_empty()
    );
}
