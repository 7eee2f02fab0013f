//! Parser for OpenSSL's `bnmod.txt` test-vector format (see `tests/vectors/README.md`):
//! stanzas of `Key = value` lines separated by blank lines, `#` comments, `Title = ...` section
//! lines; values are hex without `0x`, possibly with a leading `-` and leading zeros. The first
//! key of a stanza names the expected result (`ModMul`, `ModSqr`, `ModExp`, `ModSqrt`).

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{Num, Signed};

/// One `Key = value` stanza.
#[derive(Debug, Clone)]
pub struct Stanza {
    /// 1-based line number of the stanza's first key, for failure messages.
    pub line: usize,
    /// The keys and values in file order; the first names the test.
    pub fields: Vec<(String, BigInt)>,
}

impl Stanza {
    /// The test kind: the first key (`ModMul`, `ModSqr`, `ModExp`, `ModSqrt`).
    pub fn kind(&self) -> &str {
        &self.fields[0].0
    }

    /// The value of `key` (panics with the line number if missing: a malformed vector file
    /// must fail the test).
    pub fn get(&self, key: &str) -> &BigInt {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("stanza at line {}: no key {key}", self.line))
    }

    /// The value of `key`, which must be non-negative.
    pub fn get_nat(&self, key: &str) -> BigUint {
        self.get(key)
            .to_biguint()
            .unwrap_or_else(|| panic!("stanza at line {}: {key} is negative", self.line))
    }
}

/// Parse one hex value: optional `-`, hex digits (leading zeros allowed).
pub fn parse_value(text: &str) -> Option<BigInt> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let mag = BigUint::from_str_radix(digits, 16).ok()?;
    Some(BigInt::from_biguint(
        if neg { Sign::Minus } else { Sign::Plus },
        mag,
    ))
}

/// Parse the whole file. `Title` lines and comments are skipped; any other malformed line
/// is an error naming its line number.
pub fn parse(text: &str) -> Result<Vec<Stanza>, String> {
    let mut out = Vec::new();
    let mut cur: Option<Stanza> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            out.extend(cur.take());
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("line {}: expected 'Key = value': {line}", i + 1))?;
        let (key, value) = (key.trim(), value.trim());
        if key == "Title" {
            continue;
        }
        let v = parse_value(value)
            .ok_or_else(|| format!("line {}: bad hex value for {key}: {value}", i + 1))?;
        cur.get_or_insert_with(|| Stanza {
            line: i + 1,
            fields: Vec::new(),
        })
        .fields
        .push((key.to_string(), v));
    }
    out.extend(cur);
    Ok(out)
}

/// Read and parse the file at `path`; panics (fails the test) if it is missing or malformed.
pub fn load(path: &std::path::Path) -> Vec<Stanza> {
    let p = path.display();
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("test vectors {p} not readable: {e}"));
    parse(&text).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// The least non-negative residue of the signed `v` modulo `m > 0`: |v| mod m, negated
/// mod m when v < 0.
pub fn residue(v: &BigInt, m: &BigUint) -> BigUint {
    let r = v.magnitude() % m;
    if v.is_negative() && r != BigUint::ZERO {
        m - r
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_handles_signs_zeros_comments_and_titles() {
        let text = "# c\nTitle = x\n\nModMul = 02\nA = -05\nB = 0003\nM = 0b\n\nModSqr = 0\nA = 00\nM = 1\n";
        let s = parse(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].kind(), "ModMul");
        assert_eq!(s[0].line, 4);
        assert_eq!(*s[0].get("A"), BigInt::from(-5));
        assert_eq!(
            residue(s[0].get("A"), &BigUint::from(11u32)),
            BigUint::from(6u32)
        );
        assert_eq!(
            residue(&BigInt::from(-22), &BigUint::from(11u32)),
            BigUint::ZERO
        );
        assert_eq!(s[1].get_nat("M"), BigUint::from(1u32));
        assert!(parse("ModMul = zz\n").is_err());
        assert!(parse("nonsense\n").is_err());
    }
}
