//! The library's layers call one way (see `lib.rs`): a module may use only modules of lower
//! layers; modules of one layer are independent of each other. Checked on the source text:
//! every `crate::<module>` path outside comments and test code. And the crates above it: only
//! the report crate (`modred-report`) uses the `internals` feature and its modules.

use std::path::{Path, PathBuf};

/// Layer of each top-level module, bottom up; `lib.rs` lists the same order. Two modules share
/// a layer only when neither uses the other.
const LAYERS: &[(&str, usize)] = &[
    ("error", 0),
    ("tuning", 0),
    ("count", 1),
    ("cancel", 1),
    ("valgrind", 1),
    ("limb", 2),
    ("alloc", 3),
    ("cpu", 3),
    ("arith", 4),
    ("natural", 5),
    ("scan", 6),
    ("word", 6),
    ("reduce", 7),
    ("exp", 8),
    ("evm", 9),
    ("prime", 9),
    // RSA key generation searches for primes.
    ("rsa", 10),
    // src/bin: programs over the library (they reach it as `modred::`, not `crate::`).
    ("bin", 11),
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules named by `crate::<name>` or `crate::{<name>, ...}` in `code`.
fn crate_paths(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = vec![];
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + 7..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = group.split('}').next().unwrap_or_default();
                out.extend(group.split(',').map(ident));
            }
            None => out.push(ident(rest)),
        }
    }
    out
}

#[test]
fn modules_use_only_their_layer_and_below() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    rust_files(&src, &mut files);
    let mut checked = 0;
    let mut violations = vec![];
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_string())
            .expect("file name");
        if top == "lib" || rel.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let own = layer(&top).unwrap_or_else(|| panic!("{top} is not in LAYERS"));
        let text = std::fs::read_to_string(file).expect("read source");
        for line in text.lines() {
            // Unit tests (at the end of each file) may use anything.
            if line.starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or_default();
            for used in crate_paths(code) {
                let Some(l) = layer(&used) else {
                    continue; // a re-export of lib.rs (crate::Limb, crate::Error, ...)
                };
                checked += 1;
                if l > own || (l == own && used != top) {
                    violations.push(format!("{}: uses crate::{used}", rel.display()));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "uses of a module of the same or a higher layer:\n{}",
        violations.join("\n")
    );
    assert!(checked > 100, "only {checked} paths checked");
}

/// The modules only `internals` makes public, as `modred::<module>` paths.
const INTERNAL_MODULES: [&str; 3] = ["arith", "count", "limb"];

/// The CLI and the Python package use the public API only: neither turns on `internals` nor
/// names an internal module; the report crate is the one that does.
#[test]
fn only_the_report_uses_internals() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    for krate in ["modred-cli", "python"] {
        let manifest =
            std::fs::read_to_string(root.join(krate).join("Cargo.toml")).expect("read manifest");
        assert!(!manifest.contains("internals"), "{krate}/Cargo.toml");
        let mut files = vec![];
        rust_files(&root.join(krate).join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("read source");
            for module in INTERNAL_MODULES {
                assert!(
                    !text.contains(&format!("modred::{module}::")),
                    "{} uses modred::{module}",
                    file.display()
                );
            }
        }
    }
    let report = std::fs::read_to_string(root.join("modred-report/Cargo.toml")).expect("manifest");
    assert!(report.contains("\"internals\""));
}
