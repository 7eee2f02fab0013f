//! The vendored vector files (`tests/vectors/`) are the public files their README lists: each
//! has the length and SHA-256 of its table row, and equals the project's `shared/vectors/`
//! copy byte for byte when that directory sits beside the repository.

mod common;

use std::path::PathBuf;

/// (file, bytes, SHA-256 in hex) of each row of the vendored README's table.
fn table() -> Vec<(String, usize, String)> {
    let readme = std::fs::read_to_string(common::vector_path("README.md")).expect("README.md");
    readme
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let [file, _repo, _path, _commit, bytes, sha] = cells[..] else {
                return None;
            };
            let bytes = bytes.parse().ok()?;
            Some((file.to_string(), bytes, sha.to_string()))
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn vendored_vectors_match_their_table_and_the_shared_copies() {
    let rows = table();
    let files: Vec<&str> = rows.iter().map(|(f, _, _)| f.as_str()).collect();
    assert_eq!(
        files,
        [
            "openssl-bnmod.txt",
            "go-ethereum-modexp.json",
            "go-ethereum-modexp_eip2565.json",
            "go-ethereum-modexp_eip7883.json"
        ]
    );
    let shared = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/vectors"));
    for (file, bytes, sha) in &rows {
        let data = std::fs::read(common::vector_path(file)).expect(file);
        assert_eq!(data.len(), *bytes, "{file}: length");
        assert_eq!(hex(&openssl::sha::sha256(&data)), *sha, "{file}: SHA-256");
        if shared.is_dir() {
            let theirs = std::fs::read(shared.join(file)).expect(file);
            assert!(theirs == data, "{file} differs from shared/vectors/{file}");
        }
    }
}
