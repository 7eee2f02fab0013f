//! x86_64 row kernels using MULX (BMI2) and the two independent carry chains of ADCX/ADOX
//! (ADX), run on the [`crate::cpu::Tier::Adx`] tier and above. The portable kernels in `arith`
//! are always built; tests compare the two on random and extreme inputs.
//!
//! `addmul_1`: per limb, `mulx` gives (hi_i, lo_i) = a_i b; the OF chain (adox) adds the previous
//! high word to lo_i and the CF chain (adcx) adds r_i, so neither chain waits for the other.
//! Loop control uses `lea` and `jrcxz`, which leave both flags alone.
//!
//! Constant time: the instruction sequence depends only on the length.

use crate::limb::Limb;

/// `addmul_1_adx` and `submul_1_adx` from one description: per limb, `mulx` gives
/// (hi_i, lo_i) = a_i b, the OF chain (adox) adds the previous high word to lo_i, and the CF
/// chain (adcx) adds r_i, to lo_i (addition) or to its complement (subtraction, below). The
/// `len % 4` low limbs run one at a time (the head loop), the rest four limbs per iteration;
/// both loops keep the two chains alive (`mov`, `lea` and `jrcxz` leave the flags alone).
/// `$negate` is empty for the addition and `not` of the product limb for the subtraction;
/// `$setup` and `$finish` set and read CF accordingly.
macro_rules! mul_row_adx {
    (
        $(#[$doc:meta])*
        $name:ident, setup: $setup:literal, negate: [$n0:literal, $n2:literal],
        finish: [$($finish:literal),+]
    ) => {
        $(#[$doc])*
        #[target_feature(enable = "bmi2,adx")]
        pub unsafe fn $name(r: &mut [Limb], a: &[Limb], b: Limb, c: Limb) -> Limb {
            debug_assert_eq!(r.len(), a.len());
            let mut rp = r.as_mut_ptr();
            let mut ap = a.as_ptr();
            let mut count = a.len() % 4;
            let blocks = a.len() / 4;
            let mut hi = c;
            // SAFETY: the loops touch exactly a.len() limbs of `a` and `r`: `count` single
            // limbs, then `blocks` blocks of 4.
            unsafe {
                core::arch::asm!(
                    "xor {t0:e}, {t0:e}", // clear CF and OF
                    $setup,
                    "jrcxz 3f",
                    "2:",
                    "mulx {t1}, {t0}, qword ptr [{ap}]",
                    "adox {t0}, {hi}",
                    $n0,
                    "adcx {t0}, qword ptr [{rp}]",
                    "mov qword ptr [{rp}], {t0}",
                    "mov {hi}, {t1}",
                    "lea {ap}, [{ap} + 8]",
                    "lea {rp}, [{rp} + 8]",
                    "lea rcx, [rcx - 1]",
                    "jrcxz 3f",
                    "jmp 2b",
                    "3:",
                    "mov rcx, {blocks}",
                    "jrcxz 5f",
                    "4:",
                    "mulx {t1}, {t0}, qword ptr [{ap}]",
                    "adox {t0}, {hi}",
                    $n0,
                    "adcx {t0}, qword ptr [{rp}]",
                    "mov qword ptr [{rp}], {t0}",
                    "mulx {hi}, {t2}, qword ptr [{ap} + 8]",
                    "adox {t2}, {t1}",
                    $n2,
                    "adcx {t2}, qword ptr [{rp} + 8]",
                    "mov qword ptr [{rp} + 8], {t2}",
                    "mulx {t1}, {t0}, qword ptr [{ap} + 16]",
                    "adox {t0}, {hi}",
                    $n0,
                    "adcx {t0}, qword ptr [{rp} + 16]",
                    "mov qword ptr [{rp} + 16], {t0}",
                    "mulx {hi}, {t2}, qword ptr [{ap} + 24]",
                    "adox {t2}, {t1}",
                    $n2,
                    "adcx {t2}, qword ptr [{rp} + 24]",
                    "mov qword ptr [{rp} + 24], {t2}",
                    "lea {ap}, [{ap} + 32]",
                    "lea {rp}, [{rp} + 32]",
                    "lea rcx, [rcx - 1]",
                    "jrcxz 5f",
                    "jmp 4b",
                    "5:",
                    "mov {t0:e}, 0",
                    "adox {hi}, {t0}",
                    $($finish,)+
                    ap = inout(reg) ap,
                    rp = inout(reg) rp,
                    hi = inout(reg) hi,
                    blocks = in(reg) blocks,
                    t0 = out(reg) _,
                    t1 = out(reg) _,
                    t2 = out(reg) _,
                    inout("rcx") count,
                    in("rdx") b,
                    options(nostack),
                );
            }
            let _ = (ap, rp, count);
            hi
        }
    };
}

mul_row_adx! {
    /// `r += a * b + c` for any length (empty included), returning the carry limb. The carry
    /// out is hi + OF + CF, which cannot overflow (the total fits n + 1 limbs).
    /// Leaks: nothing but the lengths (constant time).
    ///
    /// # Safety
    /// The CPU must support BMI2 and ADX; `r.len() == a.len()`.
    addmul_1_adx, setup: "", negate: ["", ""], finish: ["adcx {hi}, {t0}"]
}

/// `r = a * b + carry` for any length (empty included), returning the high limb: one CF
/// chain, the `len % 4` low limbs one at a time, then blocks of four.
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// The CPU must support BMI2 and ADX; `r.len() == a.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn mul_1_adx(r: &mut [Limb], a: &[Limb], b: Limb, carry: Limb) -> Limb {
    debug_assert_eq!(r.len(), a.len());
    let mut rp = r.as_mut_ptr();
    let mut ap = a.as_ptr();
    let mut count = a.len() % 4;
    let blocks = a.len() / 4;
    let mut hi = carry;
    // SAFETY: the loops touch exactly a.len() limbs of `a` and `r`.
    unsafe {
        core::arch::asm!(
            "xor {t0:e}, {t0:e}",
            "jrcxz 3f",
            "2:",
            "mulx {t1}, {t0}, qword ptr [{ap}]",
            "adcx {t0}, {hi}",
            "mov qword ptr [{rp}], {t0}",
            "mov {hi}, {t1}",
            "lea {ap}, [{ap} + 8]",
            "lea {rp}, [{rp} + 8]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "mov rcx, {blocks}",
            "jrcxz 5f",
            "4:",
            "mulx {t1}, {t0}, qword ptr [{ap}]",
            "adcx {t0}, {hi}",
            "mov qword ptr [{rp}], {t0}",
            "mulx {hi}, {t2}, qword ptr [{ap} + 8]",
            "adcx {t2}, {t1}",
            "mov qword ptr [{rp} + 8], {t2}",
            "mulx {t1}, {t0}, qword ptr [{ap} + 16]",
            "adcx {t0}, {hi}",
            "mov qword ptr [{rp} + 16], {t0}",
            "mulx {hi}, {t2}, qword ptr [{ap} + 24]",
            "adcx {t2}, {t1}",
            "mov qword ptr [{rp} + 24], {t2}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 5f",
            "jmp 4b",
            "5:",
            "mov {t0:e}, 0",
            "adcx {hi}, {t0}",
            ap = inout(reg) ap,
            rp = inout(reg) rp,
            hi = inout(reg) hi,
            blocks = in(reg) blocks,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            inout("rcx") count,
            in("rdx") b,
            options(nostack),
        );
    }
    let _ = (ap, rp, count);
    hi
}

/// The end of a loop over blocks (label 2, counter rcx; `lea` and `jrcxz` leave CF alone),
/// then CF into `{c}` (0 or 1).
macro_rules! next_block_then_carry {
    () => {
        "lea rcx, [rcx - 1]\njrcxz 3f\njmp 2b\n3:\nmov {c:e}, 0\nsetc {c:l}"
    };
}

/// `add_blocks` and `sub_blocks` from one description: `r = a ± b ± carry` over `blocks` blocks of
/// four limbs with one ADC (SBB) chain, the carry (borrow) in CF from `bt` to `setc`; loop
/// control by `lea` and `jrcxz`, which leave CF alone. Four limbs per iteration run at about
/// one limb a cycle, where the compiled loop carries CF through `setb` and a re-add.
macro_rules! add_sub_blocks {
    ($(#[$doc:meta])* $name:ident, $op:literal) => {
        $(#[$doc])*
        pub(crate) unsafe fn $name(
            r: *mut Limb,
            a: *const Limb,
            b: *const Limb,
            blocks: usize,
            carry: Limb,
        ) -> Limb {
            debug_assert!(blocks > 0 && carry <= 1);
            let (mut rp, mut ap, mut bp, mut count) = (r, a, b, blocks);
            let mut c = carry;
            // SAFETY: the caller guarantees 4 blocks limbs behind each pointer; the loop
            // touches exactly those.
            unsafe {
                core::arch::asm!(
                    "bt {c:e}, 0",
                    "2:",
                    "mov {t0}, qword ptr [{ap}]",
                    concat!($op, " {t0}, qword ptr [{bp}]"),
                    "mov qword ptr [{rp}], {t0}",
                    "mov {t1}, qword ptr [{ap} + 8]",
                    concat!($op, " {t1}, qword ptr [{bp} + 8]"),
                    "mov qword ptr [{rp} + 8], {t1}",
                    "mov {t0}, qword ptr [{ap} + 16]",
                    concat!($op, " {t0}, qword ptr [{bp} + 16]"),
                    "mov qword ptr [{rp} + 16], {t0}",
                    "mov {t1}, qword ptr [{ap} + 24]",
                    concat!($op, " {t1}, qword ptr [{bp} + 24]"),
                    "mov qword ptr [{rp} + 24], {t1}",
                    "lea {ap}, [{ap} + 32]",
                    "lea {bp}, [{bp} + 32]",
                    "lea {rp}, [{rp} + 32]",
                    next_block_then_carry!(),
                    ap = inout(reg) ap,
                    bp = inout(reg) bp,
                    rp = inout(reg) rp,
                    c = inout(reg) c,
                    t0 = out(reg) _,
                    t1 = out(reg) _,
                    inout("rcx") count,
                    options(nostack),
                );
            }
            let _ = (ap, bp, rp, count);
            c
        }
    };
}

add_sub_blocks! {
    /// `r = a + b + carry` over 4 `blocks` limbs (`carry` 0 or 1); returns the carry out.
    /// `r` may be `a` (in place). Leaks: nothing but the length (constant time).
    ///
    /// # Safety
    /// `blocks > 0`; `r`, `a` and `b` point to 4 `blocks` limbs each, `r` writable, and `r`
    /// overlaps neither input except by being equal to `a`.
    add_blocks, "adc"
}

add_sub_blocks! {
    /// `r = a - b - borrow` over 4 `blocks` limbs (`borrow` 0 or 1); returns the borrow out.
    /// `r` may be `a` (in place). Leaks: nothing but the length (constant time).
    ///
    /// # Safety
    /// As [`add_blocks`].
    sub_blocks, "sbb"
}

/// One description for the three fused halvings of the Toom interpolations
/// (`super::toom::halve_sum` and the two differences): over `blocks` blocks of four limbs from
/// limb i (`x` and `y` point at limb i), d = x ± y (or y - x) on one ADC (SBB) chain, the
/// carry (borrow) in CF from `bt`, and each limb i + j - 1 of x becomes (d_(i+j-1) >> 1) |
/// (d_(i+j) << 63), the lower of the two held in `low` on entry (d_(i-1), unshifted). The
/// shifts are `shrx` / `shlx` and the OR a `lea` (the two parts share no bit), none of which
/// touch the flags, so the chain runs through. Returns (`low`, carry): d's last limb, unshifted,
/// and the carry (borrow) out of it.
/// Leaks: nothing but the length (constant time).
macro_rules! halve_blocks {
    ($(#[$doc:meta])* $name:ident, $first:literal, $op:literal, $second:literal) => {
        $(#[$doc])*
        #[target_feature(enable = "bmi2")]
        pub(crate) unsafe fn $name(
            x: *mut Limb,
            y: *const Limb,
            blocks: usize,
            low: Limb,
            carry: Limb,
        ) -> (Limb, Limb) {
            debug_assert!(blocks > 0 && carry <= 1);
            let (mut xp, mut yp, mut count, mut low, mut c) = (x, y, blocks, low, carry);
            // SAFETY: the caller guarantees 4 blocks limbs behind `x` and `y` and one more
            // writable limb of `x` before them; the loop touches exactly those.
            unsafe {
                core::arch::asm!(
                    "mov {one:e}, 1",
                    "mov {top:e}, 63",
                    "bt {c:e}, 0",
                    "2:",
                    concat!("mov {d0}, qword ptr [{", $first, "}]"),
                    concat!($op, " {d0}, qword ptr [{", $second, "}]"),
                    concat!("mov {d1}, qword ptr [{", $first, "} + 8]"),
                    concat!($op, " {d1}, qword ptr [{", $second, "} + 8]"),
                    concat!("mov {d2}, qword ptr [{", $first, "} + 16]"),
                    concat!($op, " {d2}, qword ptr [{", $second, "} + 16]"),
                    concat!("mov {d3}, qword ptr [{", $first, "} + 24]"),
                    concat!($op, " {d3}, qword ptr [{", $second, "} + 24]"),
                    "shrx {low}, {low}, {one}",
                    "shlx {t}, {d0}, {top}",
                    "lea {low}, [{low} + {t}]",
                    "mov qword ptr [{xp} - 8], {low}",
                    "shrx {d0}, {d0}, {one}",
                    "shlx {t}, {d1}, {top}",
                    "lea {d0}, [{d0} + {t}]",
                    "mov qword ptr [{xp}], {d0}",
                    "shrx {d1}, {d1}, {one}",
                    "shlx {t}, {d2}, {top}",
                    "lea {d1}, [{d1} + {t}]",
                    "mov qword ptr [{xp} + 8], {d1}",
                    "shrx {d2}, {d2}, {one}",
                    "shlx {t}, {d3}, {top}",
                    "lea {d2}, [{d2} + {t}]",
                    "mov qword ptr [{xp} + 16], {d2}",
                    "mov {low}, {d3}",
                    "lea {xp}, [{xp} + 32]",
                    "lea {yp}, [{yp} + 32]",
                    next_block_then_carry!(),
                    xp = inout(reg) xp,
                    yp = inout(reg) yp,
                    low = inout(reg) low,
                    c = inout(reg) c,
                    one = out(reg) _,
                    top = out(reg) _,
                    t = out(reg) _,
                    d0 = out(reg) _,
                    d1 = out(reg) _,
                    d2 = out(reg) _,
                    d3 = out(reg) _,
                    inout("rcx") count,
                    options(nostack),
                );
            }
            let _ = (xp, yp, count);
            (low, c)
        }
    };
}

halve_blocks! {
    /// [`halve_blocks`] for d = x + y (ADC).
    ///
    /// # Safety
    /// BMI2 available; `blocks > 0`; `x` points to 4 `blocks` writable limbs with one more
    /// before them, `y` to 4 `blocks` readable limbs that overlap none of those.
    halve_sum_blocks, "xp", "adc", "yp"
}

halve_blocks! {
    /// [`halve_blocks`] for d = x - y (SBB).
    ///
    /// # Safety
    /// As [`halve_sum_blocks`].
    halve_difference_blocks, "xp", "sbb", "yp"
}

halve_blocks! {
    /// [`halve_blocks`] for d = y - x (SBB).
    ///
    /// # Safety
    /// As [`halve_sum_blocks`].
    halve_reversed_difference_blocks, "yp", "sbb", "xp"
}

/// The first pass of Karatsuba's recombination (`super::mul::karatsuba_combine`): with `r` =
/// [L0 L1 H0 ...] in pieces of h limbs, T = L1 + H0 on the CF chain (adcx) and U = T + L0 on
/// the OF chain (adox), limb by limb, for the first 4 floor(h / 4) limbs of each piece; U
/// replaces L1 and T replaces H0 (each limb is read before it is written, and no later limb is
/// written). Returns the carries (T's, U's) out of the last of those limbs.
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// BMI2 and ADX available; `h >= 4`; `r` points to 3h writable limbs.
#[target_feature(enable = "bmi2,adx")]
pub(crate) unsafe fn karatsuba_sums_adx(r: *mut Limb, h: usize) -> (Limb, Limb) {
    debug_assert!(h >= 4);
    let (mut p, mut count) = (r, h / 4);
    let half = h * 8;
    let (c_t, c_u): (Limb, Limb);
    // SAFETY: the loop reads and writes r[i], r[h + i], r[2h + i] for i < 4 floor(h / 4) only.
    unsafe {
        core::arch::asm!(
            "xor {t0:e}, {t0:e}",
            "2:",
            "mov {t0}, qword ptr [{p} + {hb}]",
            "adcx {t0}, qword ptr [{p} + 2*{hb}]",
            "mov qword ptr [{p} + 2*{hb}], {t0}",
            "adox {t0}, qword ptr [{p}]",
            "mov qword ptr [{p} + {hb}], {t0}",
            "mov {t1}, qword ptr [{p} + {hb} + 8]",
            "adcx {t1}, qword ptr [{p} + 2*{hb} + 8]",
            "mov qword ptr [{p} + 2*{hb} + 8], {t1}",
            "adox {t1}, qword ptr [{p} + 8]",
            "mov qword ptr [{p} + {hb} + 8], {t1}",
            "mov {t0}, qword ptr [{p} + {hb} + 16]",
            "adcx {t0}, qword ptr [{p} + 2*{hb} + 16]",
            "mov qword ptr [{p} + 2*{hb} + 16], {t0}",
            "adox {t0}, qword ptr [{p} + 16]",
            "mov qword ptr [{p} + {hb} + 16], {t0}",
            "mov {t1}, qword ptr [{p} + {hb} + 24]",
            "adcx {t1}, qword ptr [{p} + 2*{hb} + 24]",
            "mov qword ptr [{p} + 2*{hb} + 24], {t1}",
            "adox {t1}, qword ptr [{p} + 24]",
            "mov qword ptr [{p} + {hb} + 24], {t1}",
            "lea {p}, [{p} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "mov {t0:e}, 0",
            "mov {t1:e}, 0",
            "setc {t0:l}",
            "seto {t1:l}",
            p = inout(reg) p,
            hb = in(reg) half,
            t0 = out(reg) c_t,
            t1 = out(reg) c_u,
            inout("rcx") count,
            options(nostack),
        );
    }
    let _ = (p, count);
    (c_t, c_u)
}

/// The second pass of Karatsuba's recombination: with `t` = [T H1] (pieces of h limbs, T from
/// [`karatsuba_sums_adx`]), V = T + H1 on the CF chain and V + M1 (or V - M1 when
/// `subtract`, as V + !M1 + 1) on the OF chain replace T, M1 = `m`'s limbs, for the first
/// 4 floor(h / 4) limbs. Returns V's carry and M1's carry (addition) or borrow (subtraction)
/// out of the last of those limbs.
/// Leaks: nothing but the lengths and `subtract` (constant time for a given sign).
///
/// # Safety
/// BMI2 and ADX available; `h >= 4`; `t` points to 2h limbs, the first h writable, `m` to h
/// readable limbs that overlap neither.
#[target_feature(enable = "bmi2,adx")]
pub(crate) unsafe fn karatsuba_high_adx(
    t: *mut Limb,
    m: *const Limb,
    h: usize,
    subtract: bool,
) -> (Limb, Limb) {
    debug_assert!(h >= 4);
    let (mut p, mut mp, mut count) = (t, m, h / 4);
    let half = h * 8;
    let (c_v, c_m): (Limb, Limb);
    // Subtraction adds the complement with OF set on entry (0x7f + 1 overflows, CF stays 0);
    // its final OF is 1 when no borrow left limb h - 1.
    macro_rules! pass {
        ($setup:literal, $n0:literal, $n1:literal) => {
            // SAFETY: the loop reads t[i], t[h + i], m[i] and writes t[i] for i < h.
            unsafe {
                core::arch::asm!(
                    $setup,
                    "2:",
                    "mov {t0}, qword ptr [{p}]",
                    "adcx {t0}, qword ptr [{p} + {hb}]",
                    "mov {t1}, qword ptr [{mp}]",
                    $n1,
                    "adox {t0}, {t1}",
                    "mov qword ptr [{p}], {t0}",
                    "mov {t0}, qword ptr [{p} + 8]",
                    "adcx {t0}, qword ptr [{p} + {hb} + 8]",
                    "mov {t1}, qword ptr [{mp} + 8]",
                    $n1,
                    "adox {t0}, {t1}",
                    "mov qword ptr [{p} + 8], {t0}",
                    "mov {t0}, qword ptr [{p} + 16]",
                    "adcx {t0}, qword ptr [{p} + {hb} + 16]",
                    "mov {t1}, qword ptr [{mp} + 16]",
                    $n1,
                    "adox {t0}, {t1}",
                    "mov qword ptr [{p} + 16], {t0}",
                    "mov {t0}, qword ptr [{p} + 24]",
                    "adcx {t0}, qword ptr [{p} + {hb} + 24]",
                    "mov {t1}, qword ptr [{mp} + 24]",
                    $n1,
                    "adox {t0}, {t1}",
                    "mov qword ptr [{p} + 24], {t0}",
                    "lea {p}, [{p} + 32]",
                    "lea {mp}, [{mp} + 32]",
                    "lea rcx, [rcx - 1]",
                    "jrcxz 3f",
                    "jmp 2b",
                    "3:",
                    "mov {t0:e}, 0",
                    "mov {t1:e}, 0",
                    "setc {t0:l}",
                    $n0,
                    p = inout(reg) p,
                    mp = inout(reg) mp,
                    hb = in(reg) half,
                    t0 = out(reg) c_v,
                    t1 = out(reg) c_m,
                    inout("rcx") count,
                    options(nostack),
                );
            }
        };
    }
    if subtract {
        pass!(
            "xor {t0:e}, {t0:e}\nmov {t0:l}, 0x7f\nadd {t0:l}, 1",
            "setno {t1:l}",
            "not {t1}"
        );
    } else {
        pass!("xor {t0:e}, {t0:e}", "seto {t1:l}", "");
    }
    let _ = (p, mp, count);
    (c_v, c_m)
}

mul_row_adx! {
    /// `r -= a * b + c` for any length (c: the borrow in), returning the borrow limb (the
    /// amount still to subtract at position `a.len()`).
    ///
    /// The product chain runs on OF (adox) as in [`addmul_1_adx`]; the subtraction runs on CF as
    /// the addition of the complement, `r - s = r + !s + 1` over the row (CF set on entry: the
    /// + 1), since SBB would overwrite OF. The final CF is 1 when no borrow left the window, so
    /// the borrow out is hi + OF + (1 - CF) (`cmc`); hi < b <= 2^64 - 1: no overflow.
    /// Leaks: nothing but the lengths (constant time).
    ///
    /// # Safety
    /// The CPU must support BMI2 and ADX; `r.len() == a.len()`.
    submul_1_adx, setup: "stc", negate: ["not {t0}", "not {t2}"], finish: ["cmc", "adcx {hi}, {t0}"]
}

/// One limb of a row of `row_classes`: `mulx` of rdx by `ap[off]`,
/// the previous high word added on the OF chain and `rp[off]` on the CF chain, the sum stored
/// back. Even limbs take the high word in `hi` and leave theirs in `t1`, odd limbs the reverse.
macro_rules! row_limb {
    (even $off:literal) => {
        concat!(
            "mulx {t1}, {t0}, qword ptr [{ap} + ",
            $off,
            "]\n",
            "adox {t0}, {hi}\n",
            "adcx {t0}, qword ptr [{rp} + ",
            $off,
            "]\n",
            "mov qword ptr [{rp} + ",
            $off,
            "], {t0}\n",
        )
    };
    (odd $off:literal) => {
        concat!(
            "mulx {hi}, {t2}, qword ptr [{ap} + ",
            $off,
            "]\n",
            "adox {t2}, {t1}\n",
            "adcx {t2}, qword ptr [{rp} + ",
            $off,
            "]\n",
            "mov qword ptr [{rp} + ",
            $off,
            "], {t2}\n",
        )
    };
}

/// The rows of one length class of `row_classes`: rows of length
/// `8 q - skip` (q = `nblk` blocks of eight limbs, the first entered at limb `skip`). `$setup`,
/// `$top`, `$end` are the class's labels, `$jump` the jump to its entry label (empty when the
/// entry is the top), `$carry` the register limb `skip` reads its high word from (zeroed, which
/// also clears CF and OF), `$l0..$l7` the entry label before each limb (one of them non-empty),
/// `[$load, $abase, $finish]` the row text of `row_classes` and `$next` what follows the row
/// (nothing: fall into the next class, or a jump).
macro_rules! row_class {
    ($setup:literal, $top:literal, $end:literal, $skip:literal, $carry:literal, $jump:literal,
     [$l0:literal $l1:literal $l2:literal $l3:literal $l4:literal $l5:literal $l6:literal
      $l7:literal], [$load:literal, $abase:literal, $finish:expr], $next:literal) => {
        concat!(
            $setup, ":\n",
            $load,
            "mov rcx, {nblk}\n",
            "lea {ap}, [{", $abase, "} - ", $skip, "]\n",
            "lea {rp}, [{rprow} - ", $skip, "]\n",
            "xor {", $carry, ":e}, {", $carry, ":e}\n",
            $jump,
            $top, ":\n",
            $l0, row_limb!(even "0"),
            $l1, row_limb!(odd "8"),
            $l2, row_limb!(even "16"),
            $l3, row_limb!(odd "24"),
            $l4, row_limb!(even "32"),
            $l5, row_limb!(odd "40"),
            $l6, row_limb!(even "48"),
            $l7, row_limb!(odd "56"),
            "lea {ap}, [{ap} + 64]\n",
            "lea {rp}, [{rp} + 64]\n",
            "lea rcx, [rcx - 1]\n",
            "jrcxz ", $end, "f\n",
            "jmp ", $top, "b\n",
            $end, ":\n",
            $finish,
            $next,
        )
    };
}

/// The assembly text of rows of the two carry chains of [`addmul_1_adx`], eight limbs per
/// iteration: each row adds `ap[0..len] * rdx` at `rp`, leaving its high word in `{hi}` with
/// the chains' carries pending. Operands: rcx the first row's length mod 8 on entry, `{nblk}`
/// its blocks of eight (ceil(len / 8)), `{rprow}` where it adds; `$load` puts the row's
/// multiplier in rdx, `{$abase}` is where its `ap` starts, `$finish` ends the row and moves the
/// row pointers on, and `$n0`, `$n7`, ..., `$n1` follow the rows of each residue class: empty
/// to fall into the next class (rows one limb shorter), or a jump.
///
/// Eight loops, one per residue of the length mod 8, each entering its first block at the fixed
/// limb that skips the residue's missing limbs (the pointers moved back by them; the skipped
/// limbs are not touched): the class is chosen once at the start, not per row (the pattern of
/// GMP's `sqr_basecase` for Broadwell, whose rows fall by one limb so each loop falls into the
/// next).
macro_rules! row_classes {
    ($load:literal, $abase:literal, $finish:expr,
     [$n0:literal $n7:literal $n6:literal $n5:literal $n4:literal $n3:literal $n2:literal
      $n1:literal]) => {
        concat!(
            "cmp ecx, 1\n",
            "je 31f\n",
            "cmp ecx, 2\n",
            "je 32f\n",
            "cmp ecx, 3\n",
            "je 33f\n",
            "cmp ecx, 4\n",
            "je 34f\n",
            "cmp ecx, 5\n",
            "je 35f\n",
            "cmp ecx, 6\n",
            "je 36f\n",
            "cmp ecx, 7\n",
            "je 37f\n",
            row_class!("30", "40", "60", "0", "hi", "",
                ["50:\n" "" "" "" "" "" "" ""], [$load, $abase, $finish], $n0),
            row_class!("37", "47", "67", "8", "t1", "jmp 57f\n",
                ["" "57:\n" "" "" "" "" "" ""], [$load, $abase, $finish], $n7),
            row_class!("36", "46", "66", "16", "hi", "jmp 56f\n",
                ["" "" "56:\n" "" "" "" "" ""], [$load, $abase, $finish], $n6),
            row_class!("35", "45", "65", "24", "t1", "jmp 55f\n",
                ["" "" "" "55:\n" "" "" "" ""], [$load, $abase, $finish], $n5),
            row_class!("34", "44", "64", "32", "hi", "jmp 54f\n",
                ["" "" "" "" "54:\n" "" "" ""], [$load, $abase, $finish], $n4),
            row_class!("33", "43", "63", "40", "t1", "jmp 53f\n",
                ["" "" "" "" "" "53:\n" "" ""], [$load, $abase, $finish], $n3),
            row_class!("32", "42", "62", "48", "hi", "jmp 52f\n",
                ["" "" "" "" "" "" "52:\n" ""], [$load, $abase, $finish], $n2),
            row_class!("31", "41", "61", "56", "t1", "jmp 51f\n",
                ["" "" "" "" "" "" "" "51:\n"], [$load, $abase, $finish], $n1),
            "70:\n",
        )
    };
}

/// [`row_classes`] for a triangle: rows whose lengths fall by one from row to row, down to one
/// limb. Each class falls into the next; the block count falls when a row of length 8q + 1 is
/// followed by one of 8q, and the rows end when it reaches zero.
macro_rules! triangle_rows {
    ($load:literal, $abase:literal, $finish:expr) => {
        row_classes!($load, $abase, $finish,
            ["" "" "" "" "" "" "" "dec {nblk}\njnz 30b\n"])
    };
}

/// [`row_classes`] for a rectangle: `{rows}` rows of one length, all in one class, which loops
/// back to its own set-up and leaves for the end.
macro_rules! rectangle_rows {
    ($load:literal, $abase:literal, $finish:expr) => {
        row_classes!($load, $abase, $finish, [
            "dec {rows}\njnz 30b\njmp 70f\n"
            "dec {rows}\njnz 37b\njmp 70f\n"
            "dec {rows}\njnz 36b\njmp 70f\n"
            "dec {rows}\njnz 35b\njmp 70f\n"
            "dec {rows}\njnz 34b\njmp 70f\n"
            "dec {rows}\njnz 33b\njmp 70f\n"
            "dec {rows}\njnz 32b\njmp 70f\n"
            "dec {rows}\njnz 31b\n"
        ])
    };
}

/// A row's carry limb, hi + OF + CF, stored at `rp` (the limb after the row).
macro_rules! store_row_carry {
    () => {
        "mov {t0:e}, 0\nadox {hi}, {t0}\nadcx {hi}, {t0}\nmov qword ptr [{rp}], {hi}\n"
    };
}

/// `asm!` for a `row_classes` text: the first row's length mod 8 in rcx (`$residue`), the
/// text's own operands, then the scratch registers every row uses.
macro_rules! rows_asm {
    ($text:expr, $residue:expr, $($operands:tt)*) => {
        core::arch::asm!(
            $text,
            $($operands)*
            ap = out(reg) _,
            rp = out(reg) _,
            hi = out(reg) _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            inout("rcx") $residue => _,
            out("rdx") _,
            options(nostack),
        )
    };
}

/// The square's off-diagonal rows in one assembly block (`triangle_rows`): row j adds
/// `src[j..len] * src[j - 1]` (`len - j` limbs; row 0's multiplier is `src[-1]`) at `dst + 2 j`
/// and assigns its carry limb, hi + OF + CF < 2^64 (the row's sum fits `len - j + 1` limbs), to
/// `dst[len + j]`, for j = 0 .. len - 1.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// BMI2 and ADX available; `len > 0`; `dst` writable for `2 len` limbs, `src` readable from
/// index -1 to `len - 1`; `dst` overlaps neither.
#[target_feature(enable = "bmi2,adx")]
unsafe fn addmul_rows_triangle_adx(dst: *mut Limb, src: *const Limb, len: usize) {
    debug_assert!(len > 0);
    let (mut rprow, mut aprow, mut nblk) = (dst, src, len.div_ceil(8));
    // SAFETY: the caller guarantees `2 len` limbs of `dst` and `len + 1` of `src` from index
    // -1; row j reads src[j..len] and writes dst[2j..len + j] (moved back by its skipped limbs,
    // which it does not touch).
    unsafe {
        rows_asm!(
            triangle_rows!(
                "mov rdx, qword ptr [{aprow} - 8]\n",
                "aprow",
                concat!(
                    store_row_carry!(),
                    "lea {aprow}, [{aprow} + 8]\nlea {rprow}, [{rprow} + 16]\n"
                )
            ),
            len % 8,
            aprow = inout(reg) aprow,
            rprow = inout(reg) rprow,
            nblk = inout(reg) nblk,
        );
    }
    debug_assert_eq!(nblk, 0);
    let _ = (aprow, rprow);
}

/// The short product's rows in one assembly block (`triangle_rows`): row i adds
/// `a[..len - i] * b[i]` at `dst + i`, its carry out of `dst[len - 1]` dropped, for
/// i = 0 .. len - 1: `dst[..len] += (a b mod B^len)` mod B^len with the triangle's products.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// BMI2 and ADX available; `len > 0`; `dst` writable and `a`, `b` readable for `len` limbs;
/// `dst` overlaps neither.
#[target_feature(enable = "bmi2,adx")]
unsafe fn addmul_rows_mullo_adx(dst: *mut Limb, a: *const Limb, b: *const Limb, len: usize) {
    debug_assert!(len > 0);
    let (mut rprow, mut bp, mut nblk) = (dst, b, len.div_ceil(8));
    // SAFETY: row i reads a[..len - i] and b[i] and writes dst[i..len] (moved back by its
    // skipped limbs, which it does not touch); the caller guarantees `len` limbs of each.
    unsafe {
        rows_asm!(
            triangle_rows!(
                "mov rdx, qword ptr [{bp}]\n",
                "a",
                "lea {bp}, [{bp} + 8]\nlea {rprow}, [{rprow} + 8]\n"
            ),
            len % 8,
            a = in(reg) a,
            bp = inout(reg) bp,
            rprow = inout(reg) rprow,
            nblk = inout(reg) nblk,
        );
    }
    debug_assert_eq!(nblk, 0);
    let _ = (bp, rprow);
}

/// The rows of a schoolbook product in one assembly block (`rectangle_rows`): row j adds
/// `a[..len] * b[j]` at `dst + j` and assigns its carry limb, hi + OF + CF < 2^64 (the row's
/// sum fits `len + 1` limbs), to `dst[len + j]`, for j = 0 .. rows - 1.
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// BMI2 and ADX available; `len > 0`, `rows > 0`; `dst` writable for `len + rows` limbs, `a`
/// readable for `len` and `b` for `rows`; `dst` overlaps neither.
#[target_feature(enable = "bmi2,adx")]
unsafe fn addmul_rows_rectangle_adx(
    dst: *mut Limb,
    a: *const Limb,
    b: *const Limb,
    rows: usize,
    len: usize,
) {
    debug_assert!(len > 0 && rows > 0);
    let (mut rprow, mut bp, mut rows, nblk) = (dst, b, rows, len.div_ceil(8));
    // SAFETY: row j reads a[..len] and b[j] and writes dst[j..=len + j] (moved back by its
    // skipped limbs, which it does not touch); the caller guarantees the lengths.
    unsafe {
        rows_asm!(
            rectangle_rows!(
                "mov rdx, qword ptr [{bp}]\n",
                "a",
                concat!(
                    store_row_carry!(),
                    "lea {bp}, [{bp} + 8]\nlea {rprow}, [{rprow} + 8]\n"
                )
            ),
            len % 8,
            a = in(reg) a,
            bp = inout(reg) bp,
            rprow = inout(reg) rprow,
            rows = inout(reg) rows,
            nblk = in(reg) nblk,
        );
    }
    debug_assert_eq!(rows, 0);
    let _ = (bp, rprow);
}

/// Schoolbook `r = a * b` on the MULX/ADX rows (the contract of [`super::mul_basecase`]): row 0
/// by [`mul_1_adx`], the others in one assembly block, [`addmul_rows_rectangle_adx`], whose
/// loop enters every row at the limb the length calls for, chosen once. Against rows as
/// separate [`addmul_1_adx`] calls: 0.90 of their time at 8 limbs, 0.94 at 32, 1.00 at 64
/// (Intel model 167; `docs/performance.md`).
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// BMI2 and ADX available.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn mul_basecase_adx(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    debug_assert!(r.len() == n + b.len() && n > 0 && !b.is_empty());
    // SAFETY: features guaranteed by the caller; the rows write r[1..n + b.len()].
    unsafe {
        r[n] = mul_1_adx(&mut r[..n], a, b[0], 0);
        if b.len() > 1 {
            let (rp, bp) = (r[1..].as_mut_ptr(), b[1..].as_ptr());
            addmul_rows_rectangle_adx(rp, a.as_ptr(), bp, b.len() - 1, n);
        }
    }
}

/// `r = a b mod B^n` (n = `r.len()` = `a.len()` = `b.len()` >= 1) by the schoolbook
/// triangle on the MULX/ADX rows, in one function so the rows inline and the CPU check happens
/// once (the contract of `super::mullo`'s basecase): row i adds `a[..n - i] b_i` at limb i,
/// its carry out of limb n dropped. Reference: Mulders, "On short multiplications and
/// divisions", AAECC 11, 2000, §1 (the short product's n (n + 1) / 2 limb products).
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// BMI2 and ADX available.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn mullo_basecase_adx(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = r.len();
    debug_assert!(n > 0 && a.len() == n && b.len() == n);
    // SAFETY: features guaranteed by the caller.
    unsafe {
        mul_1_adx(r, a, b[0], 0);
        if n > 1 {
            addmul_rows_mullo_adx(r[1..].as_mut_ptr(), a.as_ptr(), b[1..].as_ptr(), n - 1);
        }
    }
}

/// `r = a^2` by the symmetric schoolbook method on the MULX/ADX kernels (the contract of
/// [`super::sqr_basecase`], which describes the method): the off-diagonal triangle by rows,
/// row i adding a_i * a[i+1..] at 2i + 1 (row 0 by [`mul_1_adx`], which also initialises
/// r[1..=n]; rows 1 to n - 2 by [`addmul_rows_triangle_adx`], row i assigning r[n + i], so every
/// limb a row adds to has been written), then [`sqr_diagonal_adx`]. `r.len() == 2 * a.len()`,
/// `a` not empty. Reference: Menezes, van Oorschot, Vanstone, *Handbook of Applied
/// Cryptography*, 1996, Algorithm 14.16; Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery
/// Multiplication Algorithms*, IEEE Micro 1996, §4.
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// BMI2 and ADX available.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn sqr_basecase_adx(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    assert!(n > 0 && r.len() == 2 * n);
    r[0] = 0;
    r[2 * n - 1] = 0;
    // SAFETY: features guaranteed by the caller; row i (1 <= i <= n - 2) writes
    // r[2i + 1 ..= n + i] and reads a[i + 1..n], within the lengths checked above.
    unsafe {
        r[n] = mul_1_adx(&mut r[1..n], &a[1..], a[0], 0);
        if n > 2 {
            addmul_rows_triangle_adx(r[3..].as_mut_ptr(), a[2..].as_ptr(), n - 2);
        }
        sqr_diagonal_adx(r, a);
    }
}

/// `r = 2 r + sum a_i^2 b^(2i)`, the last pass of the symmetric square, limb pair (2i, 2i + 1)
/// by limb pair, two per iteration: the doubling is `adcx t, t` on the CF chain (the bit
/// shifted out of a pair is the CF into the next), a_i^2 (`mulx`) is added on the OF chain.
/// `r` holds the off-diagonal triangle, < b^(2n-1) * b / 2, so the doubling loses no bit, and
/// the sum is a^2 < b^(2n): both chains end at zero (checked in debug builds).
/// `r.len() == 2 * a.len()`, `a` not empty.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// BMI2 and ADX available.
#[target_feature(enable = "bmi2,adx")]
unsafe fn sqr_diagonal_adx(r: &mut [Limb], a: &[Limb]) {
    debug_assert!(!a.is_empty() && r.len() == 2 * a.len());
    let odd = a.len() % 2;
    // Two limbs of `a` per iteration; an odd length enters at the second one, both pointers
    // moved back by a step that is never accessed.
    let mut rp = r.as_mut_ptr().wrapping_sub(2 * odd);
    let mut ap = a.as_ptr().wrapping_sub(odd);
    let mut count = a.len().div_ceil(2);
    let carries: Limb;
    // SAFETY: the loop reads a.len() limbs of `a` and rewrites 2 a.len() limbs of `r`.
    unsafe {
        core::arch::asm!(
            "test {odd}, {odd}",
            "jnz 5f",
            "xor {t0:e}, {t0:e}", // clear CF and OF
            "jmp 2f",
            "5:",
            "xor {t0:e}, {t0:e}",
            "jmp 4f",
            "2:",
            "mov rdx, qword ptr [{ap}]",
            "mulx {hi}, {lo}, rdx",
            "mov {t0}, qword ptr [{rp}]",
            "mov {t1}, qword ptr [{rp} + 8]",
            "adcx {t0}, {t0}",
            "adcx {t1}, {t1}",
            "adox {t0}, {lo}",
            "adox {t1}, {hi}",
            "mov qword ptr [{rp}], {t0}",
            "mov qword ptr [{rp} + 8], {t1}",
            "4:",
            "mov rdx, qword ptr [{ap} + 8]",
            "mulx {hi}, {lo}, rdx",
            "mov {t0}, qword ptr [{rp} + 16]",
            "mov {t1}, qword ptr [{rp} + 24]",
            "adcx {t0}, {t0}",
            "adcx {t1}, {t1}",
            "adox {t0}, {lo}",
            "adox {t1}, {hi}",
            "mov qword ptr [{rp} + 16], {t0}",
            "mov qword ptr [{rp} + 24], {t1}",
            "lea {ap}, [{ap} + 16]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "setc {t0:l}",
            "seto {t1:l}",
            "or {t0:l}, {t1:l}",
            "movzx {t0:e}, {t0:l}",
            ap = inout(reg) ap,
            rp = inout(reg) rp,
            odd = in(reg) odd,
            lo = out(reg) _,
            hi = out(reg) _,
            t0 = out(reg) carries,
            t1 = out(reg) _,
            inout("rcx") count,
            out("rdx") _,
            options(nostack),
        );
    }
    let _ = (ap, rp, count);
    debug_assert_eq!(carries, 0);
}

/// The k reduction rows of word-by-word Montgomery reduction (`montgomery::redc::redc`) on
/// the ADX rows: zeroes x[0..k] and returns the
/// carry `top` at position 2k, leaving x / b^k + top b^k.
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// BMI2 and ADX available; `x.len() == 2 * m.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn redc_rows_adx(x: &mut [Limb], m: &[Limb], n0: Limb) -> Limb {
    let k = m.len();
    let mut top: Limb = 0;
    for i in 0..k {
        let t = x[i].wrapping_mul(n0);
        // SAFETY: features guaranteed by the caller.
        let c = unsafe { addmul_1_adx(&mut x[i..i + k], m, t, 0) };
        let (s, c1) = x[i + k].overflowing_add(c);
        let (s, c2) = s.overflowing_add(top);
        x[i + k] = s;
        top = (c1 | c2) as Limb;
    }
    top
}

/// [`super::ct_select`] with SSE2 (baseline on x86-64): the entry index and `d` sit in all
/// four 32-bit lanes of two vectors, so one PCMPEQD gives the entry's mask in every lane, and
/// each pair of limbs costs one PAND and one POR. Every entry is read, and only lane-wise
/// compares and masks see `d` (`d` and the table length are below 2^31).
/// Leaks: nothing but the lengths and the number of entries (constant time).
///
/// # Safety
/// The CPU must support SSE2 (every x86-64 CPU does).
#[target_feature(enable = "sse2")]
#[inline]
pub fn ct_select_sse2<E: AsRef<[Limb]>>(sel: &mut [Limb], table: &[E], d: usize) {
    use core::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_and_si128, _mm_cmpeq_epi32, _mm_cvtsi128_si64, _mm_loadu_si128,
        _mm_or_si128, _mm_set1_epi32, _mm_setzero_si128, _mm_storeu_si128,
    };
    debug_assert!(table.len() < 1 << 31);
    let k = sel.len();
    sel.fill(0);
    let want = _mm_set1_epi32(d as i32);
    let one = _mm_set1_epi32(1);
    let mut index = _mm_setzero_si128();
    for entry in table {
        let entry = entry.as_ref();
        assert_eq!(entry.len(), k, "table entries are as long as sel");
        let mask = _mm_cmpeq_epi32(index, want);
        for (s, e) in sel.chunks_exact_mut(2).zip(entry.chunks_exact(2)) {
            // SAFETY: s and e are two limbs (16 bytes) each; unaligned loads and stores.
            unsafe {
                let x = _mm_loadu_si128(e.as_ptr().cast::<__m128i>());
                let acc = _mm_loadu_si128(s.as_ptr().cast::<__m128i>());
                let r = _mm_or_si128(acc, _mm_and_si128(x, mask));
                _mm_storeu_si128(s.as_mut_ptr().cast::<__m128i>(), r);
            }
        }
        if k % 2 == 1 {
            sel[k - 1] |= entry[k - 1] & _mm_cvtsi128_si64(mask) as Limb;
        }
        index = _mm_add_epi32(index, one);
    }
}

/// [`super::ct_select`] with AVX2: column blocks of 16 limbs (then 4, then single limbs) are
/// OR-ed over every entry in registers and stored once, and each entry's mask is one vector
/// compare of a running index with `d` (no scalar mask per entry, no store per entry). Every
/// entry is read, and only lane-wise compares and masks see `d`.
/// Leaks: nothing but the lengths and the number of entries (constant time).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn ct_select_avx2<E: AsRef<[Limb]>>(sel: &mut [Limb], table: &[E], d: usize) {
    use core::arch::x86_64::{_mm256_extract_epi64, _mm256_set1_epi64x};
    let k = sel.len();
    debug_assert!(table.iter().all(|e| e.as_ref().len() == k));
    let want = _mm256_set1_epi64x(d as i64);
    let mut at = 0;
    while at + 16 <= k {
        select_columns_avx2::<4, E>(&mut sel[at..at + 16], table, want, at);
        at += 16;
    }
    while at + 4 <= k {
        select_columns_avx2::<1, E>(&mut sel[at..at + 4], table, want, at);
        at += 4;
    }
    if at < k {
        use core::arch::x86_64::{_mm256_add_epi64, _mm256_cmpeq_epi64, _mm256_setzero_si256};
        sel[at..].fill(0);
        let mut index = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);
        for entry in table {
            // Behind the barrier the compiler cannot see that the mask is 0 or all ones, so it
            // cannot turn the AND into a branch (valgrind's ctgrind run caught one without it).
            let mask = crate::limb::value_barrier(_mm256_extract_epi64::<0>(_mm256_cmpeq_epi64(
                index, want,
            )) as Limb);
            for (s, &e) in sel[at..].iter_mut().zip(&entry.as_ref()[at..]) {
                *s |= e & mask;
            }
            index = _mm256_add_epi64(index, one);
        }
    }
}

/// Columns `at..at + 4V` of [`ct_select_avx2`] into `out` (4V limbs): V accumulators.
#[target_feature(enable = "avx2")]
#[inline]
fn select_columns_avx2<const V: usize, E: AsRef<[Limb]>>(
    out: &mut [Limb],
    table: &[E],
    want: core::arch::x86_64::__m256i,
    at: usize,
) {
    use core::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_storeu_si256,
    };
    debug_assert_eq!(out.len(), 4 * V);
    let one = _mm256_set1_epi64x(1);
    let mut index = _mm256_setzero_si256();
    let mut acc = [_mm256_setzero_si256(); V];
    for entry in table {
        let e = &entry.as_ref()[at..at + 4 * V];
        let mask = _mm256_cmpeq_epi64(index, want);
        for (v, a) in acc.iter_mut().enumerate() {
            // SAFETY: e has 4V limbs; unaligned load of limbs 4v..4v + 4.
            let x = unsafe { _mm256_loadu_si256(e.as_ptr().add(4 * v).cast::<__m256i>()) };
            *a = _mm256_or_si256(*a, _mm256_and_si256(x, mask));
        }
        index = _mm256_add_epi64(index, one);
    }
    for (v, a) in acc.iter().enumerate() {
        // SAFETY: out has 4V limbs; unaligned store of limbs 4v..4v + 4.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(4 * v).cast::<__m256i>(), *a) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{addmul_1_portable, mul_1_portable, submul_1_portable};

    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state ^ (*state >> 29)
    }

    #[test]
    fn adx_basecases_match_portable() {
        use crate::cpu::Tier;
        if crate::cpu::detected() < Tier::Adx {
            eprintln!("skipped: this CPU has no BMI2/ADX");
            return;
        }
        let mut s = 3;
        // Every row length mod 8 (the triangles' eight loops) with one to six blocks, and
        // row counts around the thresholds that use these basecases.
        for n in (1usize..=50).chain([63, 64, 65, 100]) {
            for pattern in 0..3 {
                let gen = |s: &mut u64| match pattern {
                    0 => lcg(s),
                    1 => u64::MAX,
                    _ => lcg(s) | 0xffff_ffff_0000_0000,
                };
                let a: Vec<u64> = (0..n).map(|_| gen(&mut s)).collect();
                let mut want = vec![0; 2 * n];
                crate::arith::sqr_basecase_on(Tier::Portable, &mut want, &a);
                let mut got = vec![Limb::MAX; 2 * n];
                // SAFETY: BMI2 and ADX (the test returned early without them).
                unsafe { sqr_basecase_adx(&mut got, &a) };
                assert_eq!(got, want, "sqr n={n} pattern={pattern}");
                let b: Vec<u64> = (0..n).map(|_| gen(&mut s)).collect();
                let mut full = vec![0; 2 * n];
                crate::arith::mul_basecase_on(Tier::Portable, &mut full, &a, &b);
                let mut got = vec![Limb::MAX; n];
                // SAFETY: as above.
                unsafe { mullo_basecase_adx(&mut got, &a, &b) };
                assert_eq!(got, full[..n], "mullo n={n} pattern={pattern}");
                for nb in [1, 2, 3, 4, 5, 7, 9, n] {
                    let b: Vec<u64> = (0..nb).map(|_| gen(&mut s)).collect();
                    let mut want = vec![0; n + nb];
                    crate::arith::mul_basecase_on(Tier::Portable, &mut want, &a, &b);
                    let mut got = vec![Limb::MAX; n + nb];
                    // SAFETY: as above.
                    unsafe { mul_basecase_adx(&mut got, &a, &b) };
                    assert_eq!(got, want, "mul n={n} x {nb} pattern={pattern}");
                }
            }
        }
    }

    /// The assembly recombination against the portable one and against num-bigint, mod
    /// B^(2 (h + hh)) (both drop carries and borrows out of the top), for halves hh = h and
    /// h + 1, h with and without a tail past its blocks of four, both signs of w_M and operands
    /// that make every carry and borrow (all ones, zeros, random).
    #[test]
    fn adx_karatsuba_combine_matches_portable() {
        use crate::arith::mul::{combine_halves_adx, karatsuba_combine_portable};
        use num_bigint::BigUint;
        if crate::cpu::detected() < crate::cpu::Tier::Adx {
            eprintln!("skipped: this CPU has no BMI2/ADX");
            return;
        }
        let big = |x: &[Limb]| {
            BigUint::from_slice(
                &x.iter()
                    .flat_map(|&l| [l as u32, (l >> 32) as u32])
                    .collect::<Vec<_>>(),
            )
        };
        let mut s = 11;
        for h in [4usize, 5, 6, 7, 8, 12, 16, 21, 22, 32, 43, 64] {
            for hh in [h, h + 1] {
                for pattern in 0..5 {
                    for subtract in [false, true] {
                        let gen = |s: &mut u64| match pattern {
                            0 => lcg(s),
                            1 => u64::MAX,
                            2 => 0,
                            3 => lcg(s) | 0xffff_ffff_0000_0000,
                            _ => lcg(s) & 1,
                        };
                        let r0: Vec<Limb> = (0..2 * (h + hh)).map(|_| gen(&mut s)).collect();
                        // w_M all ones or zero when the pattern is, else random.
                        let wm: Vec<Limb> = (0..2 * hh).map(|_| gen(&mut s)).collect();
                        let mut want = r0.clone();
                        karatsuba_combine_portable(&mut want, h, &wm, subtract);
                        let mut got = r0.clone();
                        // SAFETY: BMI2 and ADX (checked above); lengths 2 (h + hh) and 2 hh,
                        // h >= 4.
                        unsafe { combine_halves_adx(&mut got, h, &wm, subtract) };
                        let case = format!("h={h} hh={hh} pattern={pattern} subtract={subtract}");
                        assert_eq!(got, want, "{case}");
                        // r0 + (L + H -+ M) B^h mod B^(2 (h + hh)), L and H r0's 2h and 2hh
                        // limbs.
                        let modulus = BigUint::from(1u8) << (128 * (h + hh));
                        let (l, hi, m) = (big(&r0[..2 * h]), big(&r0[2 * h..]), big(&wm));
                        let middle = if subtract {
                            (l + hi + &modulus - m) % &modulus
                        } else {
                            (l + hi + m) % &modulus
                        };
                        let oracle = (big(&r0) + (middle << (64 * h))) % &modulus;
                        assert_eq!(big(&got), oracle, "num-bigint {case}");
                    }
                }
            }
        }
    }

    #[test]
    fn adx_rows_match_portable() {
        if crate::cpu::detected() < crate::cpu::Tier::Adx {
            eprintln!(
                "skipped: this CPU has no BMI2/ADX (the portable rows are tested everywhere)"
            );
            return;
        }
        let mut s = 7;
        for n in [
            0usize, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 31, 32, 64, 100, 101,
        ] {
            for pattern in 0..4 {
                let gen = |s: &mut u64| match pattern {
                    0 => lcg(s),
                    1 => u64::MAX,
                    2 => lcg(s) | 0xffff_ffff_0000_0000,
                    _ => lcg(s) & 3,
                };
                let a: Vec<u64> = (0..n).map(|_| gen(&mut s)).collect();
                let r0: Vec<u64> = (0..n).map(|_| gen(&mut s)).collect();
                let b = gen(&mut s);
                let carry = gen(&mut s);
                let (mut r1, mut r2) = (r0.clone(), r0.clone());
                // SAFETY: the test returned early unless the CPU has BMI2 and ADX.
                let c1 = unsafe { addmul_1_adx(&mut r1, &a, b, carry) };
                // portable with carry-in: add carry at position 0 first
                let mut c2 = addmul_1_portable(&mut r2, &a, b);
                c2 += crate::arith::add_1_in_place(&mut r2, carry);
                assert_eq!((c1, &r1), (c2, &r2), "addmul n={n} pattern={pattern}");
                let (mut r1, mut r2) = (vec![0; n], vec![0; n]);
                // SAFETY: as above.
                let c1 = unsafe { mul_1_adx(&mut r1, &a, b, carry) };
                let mut c2 = mul_1_portable(&mut r2, &a, b);
                c2 += crate::arith::add_1_in_place(&mut r2, carry);
                assert_eq!((c1, &r1), (c2, &r2), "mul n={n} pattern={pattern}");
                let (mut r1, mut r2) = (r0.clone(), r0.clone());
                // SAFETY: as above.
                let c1 = unsafe { submul_1_adx(&mut r1, &a, b, carry) };
                let mut c2 = submul_1_portable(&mut r2, &a, b);
                c2 += crate::arith::sub_1_in_place(&mut r2, carry);
                assert_eq!((c1, &r1), (c2, &r2), "submul n={n} pattern={pattern}");
            }
        }
        // No borrow in, on short rows and extreme multipliers.
        for n in 1..=13 {
            let a: Vec<u64> = (0..n).map(|_| lcg(&mut s)).collect();
            let r0: Vec<u64> = (0..n).map(|_| lcg(&mut s)).collect();
            for b in [0, 1, u64::MAX, lcg(&mut s)] {
                let (mut r1, mut r2) = (r0.clone(), r0.clone());
                // SAFETY: BMI2 and ADX (the test returned early without them).
                let c1 = unsafe { submul_1_adx(&mut r1, &a, b, 0) };
                let c2 = submul_1_portable(&mut r2, &a, b);
                assert_eq!((c1, &r1), (c2, &r2), "submul n={n} b={b}");
            }
        }
    }
}
