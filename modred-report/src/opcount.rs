//! The operations whose single-precision multiplications and divisions the count tables
//! measure (Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction
//! functions*, CRYPTO '93, Table 1; Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery
//! Multiplication Algorithms*, IEEE Micro 1996, Tables 1-2), for given inputs, and their
//! one-line text form.
//!
//! A report built with the `count` feature runs them in-process; a report from a timing build
//! (no counters) sends the same lines to this crate's `modred-count` binary (built by
//! [`crate::count`] with `--features count`, unoptimised) and reads back one `MULS DIVS` line
//! per operation.
//! Without the `count` feature every count is zero.

use modred::count::{self, OpCounts};
use modred::Natural;
use modred::{arith, reduce, Limb};
use modred::{Error, Result};

/// One operation to count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `reduce_wide` by reducer `name` of `x` (zero-padded to 2k limbs) modulo `m`.
    Reduction {
        name: String,
        m: Natural,
        x: Natural,
    },
    /// `Reducer::mul` by reducer `name` of `a` and `b` (below `m`): the Montgomery product
    /// (MonPro) for the Montgomery family.
    Product {
        name: String,
        m: Natural,
        a: Natural,
        b: Natural,
    },
    /// The schoolbook product of two `limbs`-limb operands (`a`, `b` zero-padded).
    Schoolbook {
        limbs: usize,
        a: Natural,
        b: Natural,
    },
}

/// Largest operand accepted from a text line, in limbs (the tables use at most 32).
const MAX_LIMBS: usize = 1024;

fn bad(reason: String) -> Error {
    Error::InvalidParameter(reason)
}

fn padded(x: &Natural, len: usize, what: &str) -> Result<Vec<Limb>> {
    if x.len() > len {
        return Err(bad(format!(
            "{what} has {} limbs, more than {len}",
            x.len()
        )));
    }
    Ok(x.to_padded(len).expect("length checked above"))
}

impl Op {
    /// The operation's counts on this thread (all zero without the `count` feature). Errors:
    /// unknown reducer, unsuitable modulus, operands out of range.
    pub fn count(&self) -> Result<OpCounts> {
        match self {
            Op::Reduction { name, m, x } => {
                let r = reduce::build(name.parse()?, m)?;
                let k = r.len();
                r.check_wide(x.limbs())
                    .map_err(|restriction| Error::ArgumentTooLarge {
                        reducer: r.name(),
                        restriction,
                    })?;
                let mut wide = padded(x, 2 * k, "x")?;
                let mut out: Vec<Limb> = vec![0; k];
                let mut scratch: Vec<Limb> = vec![0; r.scratch_len()];
                Ok(count::measure(|| r.reduce_wide(&mut out, &mut wide, &mut scratch)).1)
            }
            Op::Product { name, m, a, b } => {
                if a >= m || b >= m {
                    return Err(bad("product operands must be below m".into()));
                }
                let r = reduce::build(name.parse()?, m)?;
                let k = r.len();
                let (a, b) = (padded(a, k, "a")?, padded(b, k, "b")?);
                let mut out: Vec<Limb> = vec![0; k];
                let mut scratch: Vec<Limb> = vec![0; r.scratch_len()];
                Ok(count::measure(|| r.mul(&mut out, &a, &b, &mut scratch)).1)
            }
            Op::Schoolbook { limbs, a, b } => {
                if *limbs == 0 || *limbs > MAX_LIMBS {
                    return Err(bad(format!("limbs must be in 1..={MAX_LIMBS}")));
                }
                let (a, b) = (padded(a, *limbs, "a")?, padded(b, *limbs, "b")?);
                let mut r: Vec<Limb> = vec![0; 2 * limbs];
                Ok(count::measure(|| arith::mul_basecase(&mut r, &a, &b)).1)
            }
        }
    }

    /// One line: `reduce NAME M X`, `mul NAME M A B` or `schoolbook LIMBS A B` (numbers in
    /// 0x-hex).
    pub fn to_line(&self) -> String {
        let h = Natural::to_hex;
        match self {
            Op::Reduction { name, m, x } => format!("reduce {name} {} {}", h(m), h(x)),
            Op::Product { name, m, a, b } => {
                format!("mul {name} {} {} {}", h(m), h(a), h(b))
            }
            Op::Schoolbook { limbs, a, b } => format!("schoolbook {limbs} {} {}", h(a), h(b)),
        }
    }

    /// Parse [`Self::to_line`]'s form (numbers decimal or 0x-hex, at most 1024 limbs).
    pub fn parse_line(line: &str) -> Result<Self> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let num = |s: &str| {
            let n = Natural::parse(s)?;
            if n.len() > MAX_LIMBS {
                return Err(bad(format!("number of more than {MAX_LIMBS} limbs")));
            }
            Ok(n)
        };
        match words.as_slice() {
            ["reduce", name, m, x] => Ok(Op::Reduction {
                name: name.to_string(),
                m: num(m)?,
                x: num(x)?,
            }),
            ["mul", name, m, a, b] => Ok(Op::Product {
                name: name.to_string(),
                m: num(m)?,
                a: num(a)?,
                b: num(b)?,
            }),
            ["schoolbook", limbs, a, b] => Ok(Op::Schoolbook {
                limbs: limbs
                    .parse()
                    .map_err(|_| bad(format!("cannot parse limb count '{limbs}'")))?,
                a: num(a)?,
                b: num(b)?,
            }),
            _ => Err(bad(format!(
                "expected `reduce NAME M X`, `mul NAME M A B` or `schoolbook LIMBS A B`, got '{}'",
                line.chars().take(80).collect::<String>()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(hex: &str) -> Natural {
        Natural::parse(hex).unwrap()
    }

    #[test]
    fn lines_round_trip_and_bad_lines_are_errors() {
        let ops = [
            Op::Reduction {
                name: "barrett".into(),
                m: n("0xfffffffffffffffffffffffb"),
                x: n("0x123456789abcdef0123456789"),
            },
            Op::Product {
                name: "montgomery-cios".into(),
                m: n("0xfffffffffffffffffffffffb"),
                a: n("0x2"),
                b: n("0x0"),
            },
            Op::Schoolbook {
                limbs: 3,
                a: n("0x1"),
                b: n("0xffffffffffffffffffffffffffffffff"),
            },
        ];
        for op in &ops {
            assert_eq!(Op::parse_line(&op.to_line()).unwrap(), *op);
        }
        for line in [
            "",
            "reduce barrett 7",
            "mul x 1 2",
            "schoolbook -1 2 3",
            "pow 1 2 3",
        ] {
            assert!(Op::parse_line(line).is_err(), "{line:?}");
        }
    }

    #[test]
    fn out_of_range_operands_are_errors_not_panics() {
        let m = n("0xfffffffffffffffffffffffb");
        let too_wide = Op::Reduction {
            name: "barrett".into(),
            m: m.clone(),
            x: Natural::power_of_two(4 * 64),
        };
        assert!(too_wide.count().is_err());
        let not_residue = Op::Product {
            name: "montgomery-sos".into(),
            m: m.clone(),
            a: m.clone(),
            b: n("0x1"),
        };
        assert!(not_residue.count().is_err());
        let even = Op::Product {
            name: "montgomery-sos".into(),
            m: n("0x10"),
            a: n("0x1"),
            b: n("0x1"),
        };
        assert!(even.count().is_err());
        let long = Op::Schoolbook {
            limbs: 1,
            a: n("0x10000000000000000"),
            b: n("0x1"),
        };
        assert!(long.count().is_err());
    }
}
