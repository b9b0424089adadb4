// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The API crate's shape, read from its sources: no cycle among its
//! modules (the crate's own re-exports at its root aside), the three layers
//! one way (`http` → `service` → `store`, never back), no handler that
//! imports another handler, and no `json!` in a handler.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A source file's module path (`service::files`, `http`, `table::csv`).
fn module_of(root: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .filter(|p| p != "mod")
        .collect();
    if parts == ["lib"] {
        String::new()
    } else {
        parts.join("::")
    }
}

/// The modules a file names: `crate::a::b`, and `super::b` from within
/// `a`. Only the code before its tests counts.
fn names(module: &str, text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut out = BTreeSet::new();
    for (prefix, base) in [("crate::", String::new()), ("super::", parent(module))] {
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            let words: Vec<&str> = rest
                .split("::")
                .map(|w| {
                    w.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or("")
                })
                .take_while(|w| {
                    !w.is_empty()
                        && w.chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
                })
                .collect();
            if let Some(first) = words.first() {
                let mut path = if base.is_empty() {
                    first.to_string()
                } else {
                    format!("{base}::{first}")
                };
                if let Some(second) = words.get(1) {
                    path.push_str("::");
                    path.push_str(second);
                }
                out.insert(path);
            }
        }
    }
    out
}

fn parent(module: &str) -> String {
    module
        .rsplit_once("::")
        .map_or(String::new(), |(p, _)| p.to_owned())
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&root, f)).collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let module = module_of(&root, file);
        let text = std::fs::read_to_string(file).unwrap();
        // A name resolves to the longest module it starts with.
        let edges: BTreeSet<String> = names(&module, &text)
            .into_iter()
            .filter_map(|name| {
                let mut candidate = name.as_str();
                loop {
                    if modules.contains(candidate) {
                        return Some(candidate.to_owned());
                    }
                    candidate = candidate.rsplit_once("::")?.0;
                }
            })
            .filter(|target| {
                target != &module
                    && !target.is_empty()
                    && !module.starts_with(&format!("{target}::"))
            })
            .collect();
        graph.insert(module, edges);
    }
    graph
}

#[test]
fn the_modules_have_no_cycle_and_the_layers_go_one_way() {
    let graph = graph();
    // No cycle: a depth-first walk never meets a module on its own path.
    fn visit(
        at: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(at) {
            return;
        }
        if let Some(start) = path.iter().position(|m| m == at) {
            panic!("a module cycle: {} -> {at}", path[start..].join(" -> "));
        }
        path.push(at.to_owned());
        for next in graph.get(at).into_iter().flatten() {
            visit(next, graph, path, done);
        }
        path.pop();
        done.insert(at.to_owned());
    }
    let mut done = BTreeSet::new();
    for module in graph.keys().filter(|m| !m.is_empty()) {
        visit(module, &graph, &mut Vec::new(), &mut done);
    }
    for (module, edges) in &graph {
        let layer = module.split("::").next().unwrap_or("");
        for edge in edges {
            let to = edge.split("::").next().unwrap_or("");
            match (layer, to) {
                ("service" | "store" | "model", "http") => {
                    panic!("{module} names the HTTP layer ({edge})")
                }
                ("store" | "model", "service") => panic!("{module} names a service ({edge})"),
                _ => {}
            }
            // A handler never imports another handler.
            let helper = ["http::extract", "http::read"];
            if layer == "http"
                && module != "http"
                && to == "http"
                && !helper.contains(&edge.as_str())
            {
                panic!("the handler {module} names {edge}");
            }
        }
    }
    assert!(
        graph.len() > 20,
        "the walk found the sources: {}",
        graph.len()
    );
}

#[test]
fn no_handler_builds_json_by_hand() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http");
    let mut files = Vec::new();
    sources(&root, &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("json!"), "{}", file.display());
    }
}
