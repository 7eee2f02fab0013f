//! Sliding-window exponentiation built from the precomputation reductions of Lim, Hwang, Lee,
//! *Fast Modular Reduction With Precomputation*, JW-ISC '97, for its Tables 6-9.
//!
//! `pow_window_vartime(method, g, e, m, w)`: left-to-right sliding window over the odd powers
//! g, g^3, ..., g^(2^w - 1) (2^(w-1) precomputed values). The [`WindowMethod`] is either
//! - [`WindowMethod::Table`] (`"table"`, the paper's column "Table", section 2.4): squarings
//!   reduced by the Tanaka–Okamoto residue table ([`TableResidue`]), and every multiplication
//!   by a precomputed power done by that power's Kawamura constant-multiplication table
//!   ([`FixedMultiplier`]): no general modular multiplication at all. Storage
//!   (2^(w-1) + 1) k values of k limbs, as in the paper; or
//! - [`WindowMethod::Reducer`] with any reducer of [`crate::reduce::REDUCERS`] (`lhl-l1`,
//!   `lhl-l2`, `table-add-*`, `diminished-radix`, and `classical`, `barrett`,
//!   `montgomery-cios`, ... for the comparison columns): every product and square reduced by
//!   that method.
//!
//! Like the paper's Tables 6-9, the time of a call includes the precomputation. Variable time
//! (the window pattern follows the exponent).

use crate::alloc::bytes_of;
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::natural::Natural;
use crate::reduce::table_constant::FixedMultiplier;
use crate::reduce::table_residue::TableResidue;
use crate::reduce::{self, Reducer, ReducerKind};
use crate::{arith, reduce::check_modulus};
use core::fmt;
use core::str::FromStr;

/// How [`pow_window_vartime`] reduces: by name, `"table"` or a reducer's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WindowMethod {
    /// The residue table for squarings and constant-multiplication tables for products.
    Table,
    /// Every product and square by this reducer.
    Reducer(ReducerKind),
}

/// The name of [`WindowMethod::Table`].
const TABLE_NAME: &str = "table";

impl fmt::Display for WindowMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WindowMethod::Table => f.write_str(TABLE_NAME),
            WindowMethod::Reducer(kind) => kind.fmt(f),
        }
    }
}

impl FromStr for WindowMethod {
    type Err = Error;
    /// `"table"` or a reducer's name.
    fn from_str(name: &str) -> Result<WindowMethod> {
        if name == TABLE_NAME {
            return Ok(WindowMethod::Table);
        }
        name.parse()
            .map(WindowMethod::Reducer)
            .map_err(|_| Error::UnknownName {
                what: "window method",
                name: name.to_string(),
                known: methods()
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// Largest accepted window size.
pub const MAX_WINDOW: usize = 12;

/// Every method [`pow_window_vartime`] accepts: [`WindowMethod::Table`] and every reducer.
pub fn methods() -> Vec<WindowMethod> {
    let mut v = vec![WindowMethod::Table];
    v.extend(
        reduce::REDUCERS
            .iter()
            .map(|r| WindowMethod::Reducer(r.kind)),
    );
    v
}

/// The modular operations the window loop needs, on k-limb values in some representation.
/// Leaks: as the reduction method's (the table methods' corrections are data dependent).
trait WindowOps {
    /// acc = acc^2.
    fn sqr(&mut self, acc: &mut [Limb]);
    /// acc = acc * (odd power number `idx`, i.e. g^(2 idx + 1)).
    fn mul_power(&mut self, acc: &mut [Limb], idx: usize);
    /// The precomputed power number `idx`.
    fn power(&self, idx: usize) -> &[Limb];
}

/// Sliding window over `e` (trimmed, non-zero); `acc` receives g^e in the ops' representation.
/// Leaks: variable time: the exponent's bit length and windows (the products, their order and
/// the powers read), plus the ops' own.
fn slide<O: WindowOps>(ops: &mut O, e: &[Limb], w: usize, acc: &mut [Limb]) {
    let bits = arith::bit_len(e);
    let mut started = false;
    let mut i = bits as isize - 1;
    while i >= 0 {
        if !arith::bit(e, i as usize) {
            if started {
                ops.sqr(acc);
            }
            i -= 1;
            continue;
        }
        // Window [j, i] with bit j set, at most w bits.
        let mut j = (i - w as isize + 1).max(0);
        while !arith::bit(e, j as usize) {
            j += 1;
        }
        let mut value = 0usize;
        for b in (j..=i).rev() {
            value = (value << 1) | usize::from(arith::bit(e, b as usize));
        }
        if started {
            for _ in j..=i {
                ops.sqr(acc);
            }
            ops.mul_power(acc, value >> 1);
        } else {
            acc.copy_from_slice(ops.power(value >> 1));
            started = true;
        }
        i = j - 1;
    }
}

/// Window ops on a general [`Reducer`].
struct ReducerOps<'a> {
    r: &'a dyn Reducer,
    powers: Vec<Vec<Limb>>,
    tmp: Vec<Limb>,
    scratch: Vec<Limb>,
}

impl WindowOps for ReducerOps<'_> {
    fn sqr(&mut self, acc: &mut [Limb]) {
        self.tmp.copy_from_slice(acc);
        // k-limb buffers by construction: no length checks per product.
        self.r.sqr_unchecked(acc, &self.tmp, &mut self.scratch);
    }
    fn mul_power(&mut self, acc: &mut [Limb], idx: usize) {
        self.tmp.copy_from_slice(acc);
        self.r
            .mul_unchecked(acc, &self.tmp, &self.powers[idx], &mut self.scratch);
    }
    fn power(&self, idx: usize) -> &[Limb] {
        &self.powers[idx]
    }
}

/// Window ops of the "Table" method: residue table for squarings, constant tables for products.
struct TableOps {
    residue: TableResidue,
    powers: Vec<Vec<Limb>>,
    fixed: Vec<FixedMultiplier>,
    prod: Vec<Limb>,
    tmp: Vec<Limb>,
    scratch: Vec<Limb>,
}

impl WindowOps for TableOps {
    fn sqr(&mut self, acc: &mut [Limb]) {
        arith::sqr_karatsuba(&mut self.prod, acc, &mut self.scratch);
        self.residue
            .reduce_into_vartime(acc, &self.prod, &mut self.scratch);
    }
    fn mul_power(&mut self, acc: &mut [Limb], idx: usize) {
        self.tmp.copy_from_slice(acc);
        self.fixed[idx].mul_into_vartime(acc, &self.tmp, &mut self.scratch);
    }
    fn power(&self, idx: usize) -> &[Limb] {
        &self.powers[idx]
    }
}

/// `g^e mod m` by sliding-window exponentiation with window `w` (1..=[`MAX_WINDOW`]) where
/// every reduction uses `method` (see the module docs). Errors: zero modulus, a modulus the
/// method does not accept (even for Montgomery, non-special for `diminished-radix`, beyond
/// `crate::tuning::TABLE_MAX_BITS` for the table methods), a window out of range, tables
/// that cannot be reserved ([`Error::TooLarge`]).
/// Leaks: variable time: the reduction of `g` (a division), the window scan over `e` and the
/// reduction method's own leaks (the table methods' corrections are data dependent).
pub fn pow_window_vartime(
    method: WindowMethod,
    g: &Natural,
    e: &Natural,
    m: &Natural,
    w: usize,
) -> Result<Natural> {
    if w == 0 || w > MAX_WINDOW {
        return Err(Error::InvalidParameter(format!(
            "window size must be in 1..={MAX_WINDOW} (got {w})"
        )));
    }
    let ml = check_modulus("table-window", false, m.limbs())?;
    let k = ml.len();
    let npow = 1usize << (w - 1);
    let mut gl = arith::rem_vartime(g.limbs(), ml);
    gl.resize(k, 0);
    let e = e.limbs();
    let mut acc = vec![0; k];
    let kind = match method {
        WindowMethod::Reducer(kind) => kind,
        WindowMethod::Table => return pow_table(gl, e, ml, w),
    };
    crate::alloc::ensure_available("the window's powers", bytes_of(&[npow, k, 8]))?;
    let r = reduce::build(kind, m)?;
    let mut ops = ReducerOps {
        r: &*r,
        powers: Vec::with_capacity(npow),
        tmp: vec![0; k],
        scratch: vec![0; r.scratch_len()],
    };
    let mut g_repr = vec![0; k];
    r.to_repr(&mut g_repr, &gl, &mut ops.scratch);
    let mut g2 = vec![0; k];
    r.sqr(&mut g2, &g_repr, &mut ops.scratch);
    ops.powers.push(g_repr);
    for i in 1..npow {
        let mut p = vec![0; k];
        r.mul(&mut p, &ops.powers[i - 1], &g2, &mut ops.scratch);
        ops.powers.push(p);
    }
    if e.is_empty() {
        acc.copy_from_slice(r.one());
    } else {
        slide(&mut ops, e, w, &mut acc);
    }
    let mut out = vec![0; k];
    r.from_repr(&mut out, &acc, &mut ops.scratch);
    Ok(Natural::from_limbs(out))
}

/// [`pow_window_vartime`] by [`WindowMethod::Table`]: `g < m` (k limbs), `m` trimmed.
/// Leaks: variable time, as [`pow_window_vartime`].
fn pow_table(gl: Vec<Limb>, e: &[Limb], ml: &[Limb], w: usize) -> Result<Natural> {
    let k = ml.len();
    let npow = 1usize << (w - 1);
    let mut acc = vec![0; k];
    // The residue table and one constant table per power: (npow + 1) k^2 limbs.
    reduce::check_table(TABLE_NAME, ml, bytes_of(&[npow + 1, k, k]))?;
    let residue = TableResidue::new(ml)?;
    let mut ops = TableOps {
        powers: Vec::with_capacity(npow),
        fixed: Vec::with_capacity(npow),
        prod: vec![0; 2 * k],
        tmp: vec![0; k],
        scratch: vec![0; (2 * k + 5).max(arith::karatsuba_scratch_len(k))],
        residue,
    };
    // g^2 by the residue table, then g^(2i+1) = g^(2i-1) g^2 by the table of g^2.
    let mut g2 = gl.clone();
    ops.sqr(&mut g2);
    let fixed_g2 = FixedMultiplier::new(&g2, ml)?;
    let mut p = gl;
    for i in 0..npow {
        if i > 0 {
            let prev = p.clone();
            fixed_g2.mul_into_vartime(&mut p, &prev, &mut ops.scratch);
        }
        ops.fixed.push(FixedMultiplier::new(&p, ml)?);
        ops.powers.push(p.clone());
    }
    if e.is_empty() {
        return Ok(Natural::from_slice(ops.residue.one()));
    }
    slide(&mut ops, e, w, &mut acc);
    Ok(Natural::from_limbs(acc))
}
