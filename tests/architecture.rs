//! The library's architecture, checked from its sources: top-level modules
//! sit on layers and use only lower ones, no files depend on each other in a
//! cycle, and the module table in `docs/architecture.md` matches the code.
//!
//! References are found by hand (no parser crate): `use` trees and inline
//! `crate::`/`super::`/`self::` paths, with comments and literals blanked
//! first. Each path resolves to the file that defines its item by walking
//! module files and following imports (re-exports included).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::{env, fs};

/// Layer of each top-level module; a module may use only lower layers.
const LAYERS: &[(&str, u32)] = &[
    ("profiling", 0),   // Tracy zones: any layer may open one
    ("map", 1),         // the static grid everything else stands on
    ("queue", 2),       // priority queues, generic over what they order
    ("units", 3),       // unit storage: ids, kinds and state on map cells
    ("io", 4),          // file formats for maps, plans and events
    ("validate", 5),    // checks plans read through io against the map
    ("distance", 6),    // true-distance heuristics computed on the map
    ("reservation", 7), // the space-time table units claim cells in
    ("search", 8),      // A* kernels over heuristics and reservations
    ("footprint", 9),   // multi-cell bodies, searched with the kernels
    ("world", 10),      // the World and the job scheduler running searches
    ("planner", 11),    // cooperative planners; sibling of motion
    ("motion", 11),     // realistic motion; sibling of planner
    ("engine", 12),     // the tick loop driving planners and motion
];

const BEGIN: &str = "<!-- module-graph:begin -->";
const END: &str = "<!-- module-graph:end -->";
const BLESS: &str = "THRONG_BLESS=1 cargo test --release --test architecture";

/// Written above the table when `docs/architecture.md` does not exist yet.
const INTRO: &str = "# Architecture

The library is built in layers. Every top-level module of `src/` sits on one
layer, from `profiling` at the bottom to `engine` at the top, and two rules hold:

- a module uses only modules of lower layers (modules sharing a layer, such as
  `planner` and `motion`, do not use each other);
- no cycles between files: following `use` declarations and `crate::`,
  `super::` and `self::` paths from file to file never leads back to the start.

The crate root (`lib.rs` and its `prelude`) stands outside the layers. The test
`tests/architecture.rs` holds the layer of each module, checks both rules and
compares the table below with the code. After changing which modules use which,
regenerate the table with

    THRONG_BLESS=1 cargo test --release --test architecture

";

fn rank(module: &str) -> Option<u32> {
    LAYERS.iter().find(|l| l.0 == module).map(|l| l.1)
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Blanks comments and the contents of string and char literals, so paths in
/// doc text and messages are not mistaken for references.
fn strip(src: &str) -> String {
    let s: Vec<char> = src.chars().collect();
    let at = |j: usize| s.get(j).copied().unwrap_or('\0');
    let find = |from: usize, c: char| s[from.min(s.len())..].iter().position(|&x| x == c);
    let (mut out, mut i) = (String::new(), 0);
    while i < s.len() {
        let (c, next) = (s[i], at(i + 1));
        let hashes = s[i + 1..].iter().take_while(|&&c| c == '#').count();
        let word_start = i == 0 || !ident_char(s[i - 1]) || s[i - 1] == 'b';
        if c == '/' && next == '/' {
            i += find(i, '\n').unwrap_or(s.len() - i);
        } else if c == '/' && next == '*' {
            let mut depth = 0;
            while i < s.len() {
                match (s[i], at(i + 1)) {
                    ('/', '*') => (depth, i) = (depth + 1, i + 2),
                    ('*', '/') => (depth, i) = (depth - 1, i + 2),
                    _ => i += 1,
                }
                if depth == 0 {
                    break;
                }
            }
            out.push(' ');
        } else if c == '"' || (c == 'r' && word_start && at(i + 1 + hashes) == '"') {
            // Plain strings skip escapes; raw ones end at `"` plus their hashes.
            let (raw, hashes) = if c == 'r' { (true, hashes) } else { (false, 0) };
            let closes = |j: usize| s[j] == '"' && (j + 1..=j + hashes).all(|k| at(k) == '#');
            i += if raw { hashes + 2 } else { 1 };
            while i < s.len() && !closes(i) {
                i += if !raw && s[i] == '\\' { 2 } else { 1 };
            }
            i += hashes + 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == '\\' {
            i += 4 + find(i + 3, '\'').unwrap_or(s.len()); // an escaped char
            out.push(' ');
        } else if c == '\'' && at(i + 2) == '\'' {
            i += 3; // a char literal; a lone `'` starts a lifetime instead
            out.push(' ');
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Identifiers, `::` and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let s: Vec<char> = code.chars().collect();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < s.len() {
        let start = i;
        let word = s[i..].iter().take_while(|&&c| ident_char(c)).count();
        i += word.max(1 + usize::from(s[i] == ':' && s.get(i + 1) == Some(&':')));
        if !s[start].is_whitespace() {
            out.push(s[start..i].iter().collect());
        }
    }
    out
}

/// A path named by a `use` tree and the name it binds (`None`: a glob).
type UseItem = (Vec<String>, Option<String>);

/// Expands one `use` tree (the tokens between `use` and `;`) into full paths.
fn use_tree(t: &[String], pos: &mut usize, mut prefix: Vec<String>, out: &mut Vec<UseItem>) {
    let next_is = |pos: usize, s: &str| t.get(pos).is_some_and(|x| x == s);
    while let Some(tok) = t.get(*pos) {
        *pos += 1;
        match tok.as_str() {
            "::" => {}
            "*" => return out.push((prefix, None)),
            "{" => {
                while t.get(*pos).is_some_and(|x| x != "}") {
                    use_tree(t, pos, prefix.clone(), out);
                    *pos += usize::from(next_is(*pos, ","));
                }
                *pos += 1;
                return;
            }
            name if next_is(*pos, "::") => prefix.push(name.to_string()),
            name => {
                if name != "self" || prefix.is_empty() {
                    prefix.push(name.to_string());
                }
                let mut bind = prefix.last().cloned();
                if next_is(*pos, "as") {
                    bind = t.get(*pos + 1).cloned();
                    *pos += 2;
                }
                return out.push((prefix, bind));
            }
        }
    }
}

/// Makes `raw` absolute (the segments after `crate`) as seen from module
/// `ctx`. `use` paths may also start with a child module of `ctx`.
fn absolute(raw: &[String], ctx: &[String], modules: Option<&Modules>) -> Option<Vec<String>> {
    let (mut base, segs) = match raw.first()?.as_str() {
        "crate" => (Vec::new(), &raw[1..]),
        "self" => (ctx.to_vec(), &raw[1..]),
        "super" => (ctx.to_vec(), raw),
        _ => {
            let child = modules?.contains(&[ctx, &raw[..1]].concat());
            return child.then(|| [ctx, raw].concat());
        }
    };
    for seg in segs {
        if seg == "super" {
            base.pop()?;
        } else {
            base.push(seg.clone());
        }
    }
    Some(base)
}

type Modules = HashSet<Vec<String>>;

/// What one file names, and what it makes visible to paths ending in it.
#[derive(Default)]
struct Parsed {
    /// Absolute paths, each marked when it is a `pub use` of the file's own
    /// children (a facade: structure, not a dependency).
    refs: Vec<(Vec<String>, bool)>,
    /// Bound name (after any inline modules) -> the absolute path it imports.
    imports: HashMap<Vec<String>, Vec<String>>,
    /// Glob imports: (inline module prefix, absolute module path).
    globs: Vec<(Vec<String>, Vec<String>)>,
    /// Item names declared in the file, to tell which glob supplies a name.
    defines: HashSet<String>,
}

/// Parses the file of module `module`; `modules` lists the crate's modules.
fn parse(src: &str, module: &[String], modules: &Modules) -> Parsed {
    let t = tokens(&strip(src));
    let mut p = Parsed::default();
    // One entry per open brace: the name of an inline `mod`, or None.
    let mut scopes: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let inline: Vec<String> = scopes.iter().flatten().cloned().collect();
        let ctx = [module, &inline].concat();
        let word = t[i].as_str();
        let path_start = t.get(i + 1).is_some_and(|x| x == "::") && (i == 0 || t[i - 1] != "::");
        match word {
            "{" => scopes.push((i >= 2 && t[i - 2] == "mod").then(|| t[i - 1].clone())),
            "}" => drop(scopes.pop()),
            "use" if t.get(i + 1).is_some_and(|x| x != "<") => {
                let end = (i..t.len()).find(|&e| t[e] == ";").unwrap_or(t.len());
                let public = i > 0 && (t[i - 1] == "pub" || t[i - 1] == ")");
                let mut items = Vec::new();
                use_tree(&t[i + 1..end], &mut 0, Vec::new(), &mut items);
                for (raw, bind) in items {
                    let Some(path) = absolute(&raw, &ctx, Some(modules)) else {
                        continue;
                    };
                    // Imports in function bodies are invisible from outside.
                    if scopes.iter().all(Option::is_some) {
                        match bind {
                            None => p.globs.push((inline.clone(), path.clone())),
                            Some(name) if name != "_" => {
                                let key = [inline.clone(), vec![name]].concat();
                                p.imports.insert(key, path.clone());
                            }
                            Some(_) => {}
                        }
                    }
                    let own_child = path.len() > module.len() && path.starts_with(module);
                    p.refs.push((path, public && own_child));
                }
                i = end;
            }
            "crate" | "super" | "self" if path_start => {
                let mut raw = vec![t[i].clone()];
                while i + 2 < t.len() && t[i + 1] == "::" && t[i + 2].starts_with(ident_char) {
                    raw.push(t[i + 2].clone());
                    i += 2;
                }
                let path = absolute(&raw, &ctx, None);
                p.refs.extend(path.map(|path| (path, false)));
            }
            "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union" | "mod" => {
                p.defines.extend(t.get(i + 1).cloned());
            }
            "macro_rules" => p.defines.extend(t.get(i + 2).cloned()),
            _ => {}
        }
        i += 1;
    }
    p
}

/// Module path of a file: `src/lib.rs` is the root, `src/a/b/mod.rs` is `a::b`.
fn module_of(rel: &str) -> Vec<String> {
    let inner = rel.trim_start_matches("src/").trim_end_matches(".rs");
    let mut segs: Vec<String> = inner.split('/').map(String::from).collect();
    if inner == "lib" || segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    segs
}

struct SourceFile {
    rel: String,
    module: Vec<String>,
    info: Parsed,
}

/// A reference resolved to another file, with the top-level modules of the
/// file and of the path (`None`: the crate root).
struct Use<'a> {
    from: usize,
    to: usize,
    path: &'a [String],
    from_top: Option<&'a str>,
    to_top: Option<&'a str>,
}

struct Crate {
    files: Vec<SourceFile>,
    by_module: HashMap<Vec<String>, usize>,
}

impl Crate {
    fn load() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let (mut dirs, mut sources) = (vec![root.join("src")], Vec::new());
        while let Some(dir) = dirs.pop() {
            for entry in fs::read_dir(dir).expect("readable src/") {
                let path = entry.expect("readable entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let rel = path.strip_prefix(root).unwrap().to_string_lossy();
                    let src = fs::read_to_string(&path).expect("readable source");
                    sources.push((rel.replace('\\', "/"), src));
                }
            }
        }
        Self::new(sources)
    }

    fn new(mut sources: Vec<(String, String)>) -> Self {
        sources.sort();
        let modules: Modules = sources.iter().map(|(rel, _)| module_of(rel)).collect();
        let (mut files, mut by_module) = (Vec::new(), HashMap::new());
        for (rel, src) in sources {
            let module = module_of(&rel);
            let info = parse(&src, &module, &modules);
            by_module.insert(module.clone(), files.len());
            files.push(SourceFile { rel, module, info });
        }
        Self { files, by_module }
    }

    /// The file defining `path`'s item: descend through module files, then
    /// follow the reached file's imports (re-exports, recursively).
    fn resolve(&self, path: &[String], hops: usize) -> Option<usize> {
        let mut depth = 0;
        while depth < path.len() && self.by_module.contains_key(&path[..=depth]) {
            depth += 1;
        }
        let file = *self.by_module.get(&path[..depth]).filter(|_| hops < 16)?;
        let (rest, info) = (&path[depth..], &self.files[file].info);
        for k in 1..=rest.len() {
            if let Some(target) = info.imports.get(&rest[..k]) {
                return self.resolve(&[target, &rest[k..]].concat(), hops + 1);
            }
        }
        // A glob supplies the name if the file it leads to declares it.
        let (name, inline) = rest.split_last()?;
        for (_, module) in info.globs.iter().filter(|g| g.0 == inline) {
            let to = self.resolve(&[&module[..], &rest[inline.len()..]].concat(), hops + 1);
            if to.is_some_and(|to| to != file && self.files[to].info.defines.contains(name)) {
                return to;
            }
        }
        Some(file)
    }

    /// Every resolved reference to another file, facades left out.
    fn uses(&self) -> Vec<Use<'_>> {
        let top = |f: usize| self.files[f].module.first().map(String::as_str);
        let mut out = Vec::new();
        for (from, file) in self.files.iter().enumerate() {
            for (path, _) in file.info.refs.iter().filter(|r| !r.1) {
                let Some(to) = self.resolve(path, 0).filter(|&to| to != from) else {
                    continue;
                };
                // The module the path names; for a root re-export, the definer's.
                let named = self.by_module.contains_key(&path[..1]).then(|| &*path[0]);
                let (from_top, to_top) = (top(from), named.or(top(to)));
                out.push(Use {
                    from,
                    to,
                    path,
                    from_top,
                    to_top,
                });
            }
        }
        out
    }

    /// For each top-level module, the other top-level modules it uses.
    fn module_graph(&self) -> BTreeMap<&str, BTreeSet<&str>> {
        let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for top in self.files.iter().filter_map(|f| f.module.first()) {
            graph.entry(top).or_default();
        }
        for u in self.uses() {
            match (u.from_top, u.to_top) {
                (Some(a), Some(b)) if a != b => drop(graph.entry(a).or_default().insert(b)),
                _ => {}
            }
        }
        graph
    }

    /// File edges (from, to), each with the first path that makes it.
    fn edges(&self) -> BTreeMap<(usize, usize), String> {
        let mut edges = BTreeMap::new();
        for u in self.uses() {
            let via = || format!("crate::{}", u.path.join("::"));
            edges.entry((u.from, u.to)).or_insert_with(via);
        }
        edges
    }
}

/// The cycles closed by the back edges of a depth-first walk of the file
/// graph: there is at least one whenever the graph has any cycle.
fn cycles(n: usize, edges: &BTreeMap<(usize, usize), String>) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges.keys() {
        adj[a].push(b);
    }
    // 0: unseen, 1: on the current path, 2: done.
    let (mut state, mut out) = (vec![0u8; n], Vec::new());
    for s in 0..n {
        // (file, index of its next edge); every walk starts at an unseen file.
        let mut path = Vec::from_iter((state[s] == 0).then_some((s, 0)));
        while let Some((u, k)) = path.pop() {
            state[u] = 1;
            let Some(&v) = adj[u].get(k) else {
                state[u] = 2;
                continue;
            };
            path.push((u, k + 1));
            match state[v] {
                0 => path.push((v, 0)),
                1 => {
                    let files = path.iter().map(|e| e.0).skip_while(|&f| f != v);
                    out.push(files.chain([v]).collect());
                }
                _ => {}
            }
        }
    }
    out
}

/// The module table between the markers, lowest layer first.
fn render(graph: &BTreeMap<&str, BTreeSet<&str>>) -> String {
    let mut rows: Vec<_> = graph.iter().collect();
    rows.sort_by_key(|(m, _)| (rank(m).unwrap_or(u32::MAX), **m));
    let mut out = format!("{BEGIN}\n| layer | module | uses |\n| ---: | --- | --- |\n");
    for (module, uses) in rows {
        let layer = rank(module).map_or("?".to_string(), |r| r.to_string());
        let uses: Vec<String> = uses.iter().map(|u| format!("`{u}`")).collect();
        let uses = Some(uses.join(", ")).filter(|u| !u.is_empty());
        let uses = uses.as_deref().unwrap_or("-");
        out += &format!("| {layer} | `{module}` | {uses} |\n");
    }
    out + END
}

#[test]
fn layers_point_down() {
    let krate = Crate::load();
    let mut problems = Vec::new();
    for module in krate.module_graph().keys().filter(|m| rank(m).is_none()) {
        problems.push(format!("module `{module}` has no layer in LAYERS"));
    }
    let mut found: BTreeMap<(&str, &str, &str), BTreeSet<String>> = BTreeMap::new();
    for u in krate.uses() {
        let (Some(from), Some(to)) = (u.from_top, u.to_top) else {
            continue;
        };
        if matches!((rank(from), rank(to)), (Some(a), Some(b)) if from != to && b >= a) {
            let key = (krate.files[u.from].rel.as_str(), from, to);
            found.entry(key).or_default().insert(u.path[1..].join("::"));
        }
    }
    for ((rel, from, to), items) in found {
        let (a, b) = (rank(from).unwrap(), rank(to).unwrap());
        let items = Vec::from_iter(items).join(", ");
        let line = format!("{rel} uses crate::{to} (layer {b}) from {from} (layer {a}): {items}");
        problems.push(line);
    }
    let problems = problems.join("\n");
    assert!(problems.is_empty(), "layer rule broken:\n{problems}\n");
}

#[test]
fn no_file_cycles() {
    let krate = Crate::load();
    let (edges, mut report) = (krate.edges(), Vec::new());
    let rel = |f: usize| krate.files[f].rel.as_str();
    for cycle in cycles(krate.files.len(), &edges) {
        let names: Vec<&str> = cycle.iter().map(|&f| rel(f)).collect();
        report.push(format!("[{}]", names.join(", ")));
        for pair in cycle.windows(2) {
            let via = &edges[&(pair[0], pair[1])];
            report.push(format!("  {} -> {} via {via}", rel(pair[0]), rel(pair[1])));
        }
    }
    assert!(report.is_empty(), "file cycles:\n{}\n", report.join("\n"));
}

#[test]
fn module_table_is_current() {
    let expected = render(&Crate::load().module_graph());
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md");
    let text = fs::read_to_string(&doc).unwrap_or_default();
    let end = |b: usize| Some((b, b + text[b..].find(END)? + END.len()));
    let span = text.find(BEGIN).and_then(end);
    if span.is_some_and(|(b, e)| text[b..e] == expected) {
        return;
    }
    assert!(
        env::var("THRONG_BLESS").is_ok_and(|v| v == "1"),
        "the module table in docs/architecture.md is out of date; expected:\n\n{expected}\n\n\
         to rewrite it, run `{BLESS}`\n"
    );
    let updated = match span {
        Some((b, e)) => format!("{}{expected}{}", &text[..b], &text[e..]),
        None if text.is_empty() => format!("{INTRO}{expected}\n"),
        None => format!("{}\n\n{expected}\n", text.trim_end()),
    };
    fs::write(&doc, updated).expect("writable docs/architecture.md");
}

/// The parser and resolver on small inline sources.
mod parser {
    use super::*;

    fn v(path: &str) -> Vec<String> {
        path.split_terminator("::").map(String::from).collect()
    }

    fn refs(src: &str, module: &str) -> Vec<String> {
        let parsed = parse(src, &v(module), &Modules::new());
        parsed.refs.iter().map(|r| r.0.join("::")).collect()
    }

    #[test]
    fn expands_braces_and_renames() {
        let src = "pub use crate::a::{b::C, d::{E, F as G}, self};\n\
                   pub(crate) use x::{Name, Other as Alias}; use std::fmt;";
        let parsed = parse(src, &v("m"), &[v("a"), v("m"), v("m::x")].into());
        let got = |name: &str| parsed.imports[&v(name)].join("::");
        assert_eq!(["C", "E", "G"].map(got), ["a::b::C", "a::d::E", "a::d::F"]);
        let want = ["a", "m::x::Name", "m::x::Other"];
        assert_eq!(["a", "Name", "Alias"].map(got), want);
        assert_eq!(parsed.imports.len(), 6, "std paths are not the crate's");
        let facades = Vec::from_iter(parsed.refs.iter().map(|r| r.1));
        // Only the re-exports of the file's own children are facades.
        assert_eq!(facades, [false, false, false, false, true, true]);
    }

    #[test]
    fn strips_comments_and_strings() {
        let src = r###"
            //! crate::doc::A
            /// crate::doc::B
            let s = "crate::text::C \" crate::text::D"; // crate::line::E
            /* crate::block::F /* nested */ crate::block::G */
            let r = br#"crate::raw::H "quoted" "#; let c = ('"', '\''); let l: &'a str = x;
            crate::real::Item::new(); let d = crate::real::other::<u8>;
        "###;
        assert_eq!(refs(src, "m"), ["real::Item::new", "real::other"]);
        let stripped = strip("a /* b */ c // d\ne \"f\" 'g' r#\"h\"#");
        assert_eq!(stripped, "a   c \ne \"\"   \"\"");
    }

    #[test]
    fn resolves_super_and_self() {
        let src = "use super::c::D; use self::e::F;\nfn f() { super::G::h(); }\n#[cfg(test)]\n\
                   mod tests { use super::*; use super::h; fn t() { super::super::x::Y; } }";
        let want = ["a::c::D", "a::b::e::F", "a::G::h"];
        let in_tests = ["a::b", "a::b::h", "a::x::Y"];
        assert_eq!(refs(src, "a::b"), [want, in_tests].concat());
        assert_eq!(module_of("src/a/b/mod.rs"), v("a::b"));
        assert_eq!(module_of("src/a/b.rs"), v("a::b"));
        assert_eq!(module_of("src/lib.rs"), v(""));
        let up_two = absolute(&v("super::super::q"), &v("a::b"), None);
        assert_eq!(up_two, Some(v("q")));
        assert_eq!(absolute(&v("super::q"), &[], None), None);
    }

    #[test]
    fn follows_reexports_and_finds_cycles() {
        let sources = "src/lib.rs: pub mod a; pub mod b;\n\
            src/a/mod.rs: mod inner; mod more; pub use inner::Thing as T; pub use more::*;\n\
            src/a/inner.rs: pub struct Thing; pub fn helper() { crate::b::run(); }\n\
            src/a/more.rs: pub fn extra() {}\n\
            src/b.rs: use crate::a::{T, extra}; fn run() { crate::a::inner::helper(); }";
        let split = |line: &str| line.split_once(": ").map(|(p, s)| (p.into(), s.into()));
        let krate = Crate::new(sources.lines().filter_map(split).collect());
        let rel = |i: usize| krate.files[i].rel.as_str();
        let edges = Vec::from_iter(krate.edges().into_keys().map(|(a, b)| (rel(a), rel(b))));
        let (inner, b, more) = ("src/a/inner.rs", "src/b.rs", "src/a/more.rs");
        // The facades in src/a/mod.rs make no edges: b.rs reaches the definers.
        assert_eq!(edges, [(inner, b), (b, inner), (b, more)]);
        let names = |c: &Vec<usize>| Vec::from_iter(c.iter().map(|&i| rel(i)));
        let found = cycles(krate.files.len(), &krate.edges());
        assert_eq!(Vec::from_iter(found.iter().map(names)), [[inner, b, inner]]);
        assert_eq!(krate.module_graph()["a"], BTreeSet::from(["b"]));
    }
}
