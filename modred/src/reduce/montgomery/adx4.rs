//! 4-limb (256-bit) Montgomery product and square on MULX/ADX, each fully unrolled in one asm
//! block, beyond the source papers. Both run two carry chains at once: ADCX adds the low words and
//! ADOX the high words of the MULX products, so neither waits for the other.
//!
//! - [`mont_mul_4`]: CIOS (Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery
//!   Multiplication Algorithms*, IEEE Micro 1996, §5). Per word b_i, `t += a b_i`, then
//!   `t = (t + q m) / b` with q = t_0 n'0 mod b. The register roles rotate instead of shifting
//!   t: the zeroed t_0 becomes the next extra word. Invariant after each i: t < R + m for
//!   a, b < R (t < 2m for a, b < m), so the top word is 0 or 1. `a` comes in registers (the
//!   previous product of an exponentiation); all 14 general registers but rsp and rbp are
//!   needed, so they are named, and rbx (reserved by LLVM) is parked in xmm15.
//! - [`mont_sqr_4`]: SOS (Koç–Acar–Kaliski 1996 §4): the symmetric square (10 MULX) and four REDC
//!   rows (16 MULX), 26 MULX against CIOS's 32; measured 7% faster than CIOS squaring.
//!
//! Each comes in two forms: the `_raw` kernel returns the unreduced t + top b^4 (< R + m, for
//! operands below R = 2^256, not only below m), and `mont_mul_4` / `mont_sqr_4` reduce it below
//! m by the masked compare-and-select `fixed::sub_final_fixed`. The exponentiations finish the
//! raw kernels as every fixed size does (`fixed::finish_fixed`): below R, by a branch (taken in
//! 10-33% of products depending on m / R) in the variable-time scans, by a mask in `ct`.
//!
//! Used by `montgomery-fast`'s fused 256-bit exponentiation on the [`crate::cpu::Tier::Adx`]
//! tier and above; the portable [`super::fixed::cios_fixed`] is the fallback and the oracle of
//! the tests.

use super::fixed::{sub_final_fixed, Wide};
use crate::limb::Limb;

/// The operand block of [`mont_mul_4`] and [`mont_sqr_4`]: [b_0..b_3, m_0..m_3, n'0, n'1]
/// with n'0 + n'1 b = -m^{-1} mod b^2.
pub type Block4 = [Limb; 10];

/// Block for modulus `m` (odd, 4 limbs) with n'0 = -m^{-1} mod 2^64; b = 0.
pub fn block4(m: &[Limb], n0: Limb) -> Block4 {
    let mut p = [0; 10];
    p[4..8].copy_from_slice(m);
    p[8] = n0;
    // One Newton step lifts m^{-1} from mod 2^64 to mod 2^128: x (2 - m x).
    let m_lo = m[0] as u128 | (m[1] as u128) << 64;
    let x = n0.wrapping_neg() as u128;
    let inv = x.wrapping_mul(2u128.wrapping_sub(m_lo.wrapping_mul(x)));
    debug_assert_eq!(m_lo.wrapping_mul(inv), 1);
    let neg_inv = inv.wrapping_neg();
    debug_assert_eq!(neg_inv as Limb, n0);
    p[9] = (neg_inv >> 64) as Limb;
    p
}

/// An unreduced product: t_0..t_3 and the top bit (t + top b^4).
pub type Wide4 = Wide<4>;

/// The modulus of a block.
#[inline(always)]
pub fn modulus(p: &Block4) -> &[Limb; 4] {
    p[4..8].try_into().expect("4 limbs")
}

/// `a b R^{-1} mod m` (R = 2^256) for `a, b < m`, b = p[0..4], result `< m`.
/// Leaks: nothing (constant time: fixed instruction sequence, masked final subtraction).
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[target_feature(enable = "bmi2,adx")]
#[inline]
#[cfg_attr(not(test), allow(dead_code))] // the reduced form the tests check; fast.rs uses the raw one
pub unsafe fn mont_mul_4(a: &[Limb; 4], p: &Block4) -> [Limb; 4] {
    // SAFETY: the caller's guarantee.
    let (t, top) = unsafe { mont_mul_4_raw(a, p) };
    sub_final_fixed(&t, top, modulus(p))
}

/// `a^2 R^{-1} mod m` for `a < m`, result `< m`. See [`mont_sqr_4_raw`].
/// Leaks: nothing (constant time).
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[target_feature(enable = "bmi2,adx")]
#[inline]
#[cfg_attr(not(test), allow(dead_code))] // the reduced form the tests check; fast.rs uses the raw one
pub unsafe fn mont_sqr_4(a: &[Limb; 4], p: &Block4) -> [Limb; 4] {
    // SAFETY: the caller's guarantee.
    let (t, top) = unsafe { mont_sqr_4_raw(a, p) };
    sub_final_fixed(&t, top, modulus(p))
}

/// CIOS `a b R^{-1}` for `a, b < R`, b = p[0..4], unreduced: t + top b^4 < R + m (< 2m when
/// a, b < m), congruent to a b R^{-1} mod m.
/// Leaks: nothing (constant time: a fixed instruction sequence).
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[target_feature(enable = "bmi2,adx")]
#[inline]
pub unsafe fn mont_mul_4_raw(a: &[Limb; 4], p: &Block4) -> Wide4 {
    let (r0, r1, r2, r3, r4): (Limb, Limb, Limb, Limb, Limb);
    // SAFETY: reads p[0..9] (b, m, n'0); rbx, which no named register can be, is restored
    // from xmm15 (declared clobbered).
    unsafe {
        core::arch::asm!(
            // rbx is reserved by LLVM: park it in xmm15 and use it as the sixth t register
            "movq xmm15, rbx",
            // i = 0: t += a b_0
            "mov rdx, qword ptr [rsi]",
            "mulx rcx, rax, r8",
            "mulx rdi, r14, r9",
            "add rcx, r14",
            "mulx r12, r14, r10",
            "adc rdi, r14",
            "mulx r13, r14, r11",
            "adc r12, r14",
            "adc r13, 0",
            "xor rbx, rbx",
            // t = (t + q m) / b, q = t_0 n'0 mod b
            "mov rdx, rax",
            "imul rdx, qword ptr [rsi + 64]",
            "xor r14d, r14d",
            "mulx r15, r14, qword ptr [rsi + 32]",
            "adcx rax, r14",
            "adox rcx, r15",
            "mulx r15, r14, qword ptr [rsi + 40]",
            "adcx rcx, r14",
            "adox rdi, r15",
            "mulx r15, r14, qword ptr [rsi + 48]",
            "adcx rdi, r14",
            "adox r12, r15",
            "mulx r15, r14, qword ptr [rsi + 56]",
            "adcx r12, r14",
            "adox r13, r15",
            "adcx r13, rax",
            "adox rbx, rax",
            "adcx rbx, rax",
            // i = 1: t += a b_1
            "mov rdx, qword ptr [rsi + 8]",
            "xor r14d, r14d",
            "mulx r15, r14, r8",
            "adcx rcx, r14",
            "adox rdi, r15",
            "mulx r15, r14, r9",
            "adcx rdi, r14",
            "adox r12, r15",
            "mulx r15, r14, r10",
            "adcx r12, r14",
            "adox r13, r15",
            "mulx r15, r14, r11",
            "adcx r13, r14",
            "adox rbx, r15",
            "adcx rbx, rax",
            "adox rax, rax",
            "adc rax, 0",
            // t = (t + q m) / b, q = t_0 n'0 mod b
            "mov rdx, rcx",
            "imul rdx, qword ptr [rsi + 64]",
            "xor r14d, r14d",
            "mulx r15, r14, qword ptr [rsi + 32]",
            "adcx rcx, r14",
            "adox rdi, r15",
            "mulx r15, r14, qword ptr [rsi + 40]",
            "adcx rdi, r14",
            "adox r12, r15",
            "mulx r15, r14, qword ptr [rsi + 48]",
            "adcx r12, r14",
            "adox r13, r15",
            "mulx r15, r14, qword ptr [rsi + 56]",
            "adcx r13, r14",
            "adox rbx, r15",
            "adcx rbx, rcx",
            "adox rax, rcx",
            "adcx rax, rcx",
            // i = 2: t += a b_2
            "mov rdx, qword ptr [rsi + 16]",
            "xor r14d, r14d",
            "mulx r15, r14, r8",
            "adcx rdi, r14",
            "adox r12, r15",
            "mulx r15, r14, r9",
            "adcx r12, r14",
            "adox r13, r15",
            "mulx r15, r14, r10",
            "adcx r13, r14",
            "adox rbx, r15",
            "mulx r15, r14, r11",
            "adcx rbx, r14",
            "adox rax, r15",
            "adcx rax, rcx",
            "adox rcx, rcx",
            "adc rcx, 0",
            // t = (t + q m) / b, q = t_0 n'0 mod b
            "mov rdx, rdi",
            "imul rdx, qword ptr [rsi + 64]",
            "xor r14d, r14d",
            "mulx r15, r14, qword ptr [rsi + 32]",
            "adcx rdi, r14",
            "adox r12, r15",
            "mulx r15, r14, qword ptr [rsi + 40]",
            "adcx r12, r14",
            "adox r13, r15",
            "mulx r15, r14, qword ptr [rsi + 48]",
            "adcx r13, r14",
            "adox rbx, r15",
            "mulx r15, r14, qword ptr [rsi + 56]",
            "adcx rbx, r14",
            "adox rax, r15",
            "adcx rax, rdi",
            "adox rcx, rdi",
            "adcx rcx, rdi",
            // i = 3: t += a b_3
            "mov rdx, qword ptr [rsi + 24]",
            "xor r14d, r14d",
            "mulx r15, r14, r8",
            "adcx r12, r14",
            "adox r13, r15",
            "mulx r15, r14, r9",
            "adcx r13, r14",
            "adox rbx, r15",
            "mulx r15, r14, r10",
            "adcx rbx, r14",
            "adox rax, r15",
            "mulx r15, r14, r11",
            "adcx rax, r14",
            "adox rcx, r15",
            "adcx rcx, rdi",
            "adox rdi, rdi",
            "adc rdi, 0",
            // t = (t + q m) / b, q = t_0 n'0 mod b
            "mov rdx, r12",
            "imul rdx, qword ptr [rsi + 64]",
            "xor r14d, r14d",
            "mulx r15, r14, qword ptr [rsi + 32]",
            "adcx r12, r14",
            "adox r13, r15",
            "mulx r15, r14, qword ptr [rsi + 40]",
            "adcx r13, r14",
            "adox rbx, r15",
            "mulx r15, r14, qword ptr [rsi + 48]",
            "adcx rbx, r14",
            "adox rax, r15",
            "mulx r15, r14, qword ptr [rsi + 56]",
            "adcx rax, r14",
            "adox rcx, r15",
            "adcx rcx, r12",
            "adox rdi, r12",
            "adcx rdi, r12",
            "mov r12, rbx",
            "movq rbx, xmm15",
            in("r8") a[0],
            in("r9") a[1],
            in("r10") a[2],
            in("r11") a[3],
            in("rsi") p.as_ptr(),
            out("rax") r0,
            out("rcx") r1,
            out("rdi") r2,
            out("r12") r3,
            out("r13") r4,
            out("r14") _,
            out("r15") _,
            out("rdx") _,
            out("xmm15") _,
            options(pure, readonly, nostack),
        );
    }
    ([r4, r3, r0, r1], r2)
}

/// `a^2 R^{-1}` for `a < R` by the separated method (SOS, Koç–Acar–Kaliski 1996 §4): the symmetric
/// square (6 cross products doubled plus 4 squares: 10 MULX instead of 16) into s_0..s_7, then four
/// REDC rows, each leaving its carry word in the zeroed s_i for the next row; 26 MULX against
/// CIOS's 32. The rows' multipliers are computed two at a time, q_j + q_{j+1} b = (s_j + s_{j+1}
/// b)(-m^{-1}) mod b^2, so row j+1 does not wait for row j's sums. `a` is read from memory (a
/// store, load and add chain measured about one cycle here: the store-to-load step is not on
/// the critical path). Unreduced: t + top b^4 < R + m (< 2m when a < m), congruent to
/// a^2 R^{-1} mod m.
/// Leaks: nothing (constant time: a fixed instruction sequence).
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[target_feature(enable = "bmi2,adx")]
#[inline]
pub unsafe fn mont_sqr_4_raw(a: &[Limb; 4], p: &Block4) -> Wide4 {
    let (s3, s4, s5, s6, s7): (Limb, Limb, Limb, Limb, Limb);
    // SAFETY: reads a[0..4] and p[4..10]; writes only registers.
    unsafe {
        core::arch::asm!(
            // off-diagonal products a_i a_j (i < j) into s1..s7
            "mov rdx, qword ptr [{a}]",
            "mulx {s2}, {s1}, qword ptr [{a} + 8]",
            "mulx {s3}, {lo}, qword ptr [{a} + 16]",
            "add {s2}, {lo}",
            "mulx {s4}, {lo}, qword ptr [{a} + 24]",
            "adc {s3}, {lo}",
            "adc {s4}, 0",
            "mov rdx, qword ptr [{a} + 8]",
            "xor {s5:e}, {s5:e}",
            "mov {s6:e}, 0",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "adcx {s3}, {lo}",
            "adox {s4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adcx {s4}, {lo}",
            "adox {s5}, {hi}",
            "adcx {s5}, {s6}",
            "adox {s6}, {s6}",
            "adc {s6}, 0",
            "mov rdx, qword ptr [{a} + 16]",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "mov {s7:e}, 0",
            "add {s5}, {lo}",
            "adc {s6}, {hi}",
            "adc {s7}, 0",
            // double (CF chain) and add the squares a_i^2 at 2i (OF chain)
            "mov rdx, qword ptr [{a}]",
            "mulx {hi}, {s0}, rdx",
            "xor {lo:e}, {lo:e}",
            "adcx {s1}, {s1}",
            "adox {s1}, {hi}",
            "mov rdx, qword ptr [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {s2}, {s2}",
            "adox {s2}, {lo}",
            "adcx {s3}, {s3}",
            "adox {s3}, {hi}",
            "mov rdx, qword ptr [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {s4}, {s4}",
            "adox {s4}, {lo}",
            "adcx {s5}, {s5}",
            "adox {s5}, {hi}",
            "mov rdx, qword ptr [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {s6}, {s6}",
            "adox {s6}, {lo}",
            "adcx {s7}, {s7}",
            "adox {s7}, {hi}",
            // REDC row 0: s += q_0 m b^0; carry word c_0 into s0
            // q = (s_1 b + s_0) (n'0 + n'1 b) mod b^2 for rows 0 and 1 at once: the high word
            // needs only s_0, s_1, not row 0's result (a shorter dependency chain)
            "mov rdx, {s0}",
            "mulx {hi}, {lo}, qword ptr [{p} + 64]",
            "mov {a}, {s0}",
            "imul {a}, qword ptr [{p} + 72]",
            "add {hi}, {a}",
            "mov {a}, {s1}",
            "imul {a}, qword ptr [{p} + 64]",
            "add {a}, {hi}",
            "mov rdx, {lo}",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, qword ptr [{p} + 32]",
            "adcx {s0}, {lo}",
            "adox {s1}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 40]",
            "adcx {s1}, {lo}",
            "adox {s2}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 48]",
            "adcx {s2}, {lo}",
            "adox {s3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 56]",
            "adcx {s3}, {lo}",
            "adox {s4}, {hi}",
            "adcx {s4}, {s0}",
            "adox {s0}, {s0}",
            "adc {s0}, 0",
            // REDC row 1: s += q_1 m b^1; carry word c_1 into s1
            "mov rdx, {a}",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, qword ptr [{p} + 32]",
            "adcx {s1}, {lo}",
            "adox {s2}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 40]",
            "adcx {s2}, {lo}",
            "adox {s3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 48]",
            "adcx {s3}, {lo}",
            "adox {s4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 56]",
            "adcx {s4}, {lo}",
            "adox {s5}, {hi}",
            "adcx {s5}, {s0}",
            "adox {s1}, {s1}",
            "adc {s1}, 0",
            // REDC row 2: s += q_2 m b^2; carry word c_2 into s2
            // q = (s_3 b + s_2) (n'0 + n'1 b) mod b^2 for rows 2 and 3 at once: the high word
            // needs only s_2, s_3, not row 2's result (a shorter dependency chain)
            "mov rdx, {s2}",
            "mulx {hi}, {lo}, qword ptr [{p} + 64]",
            "mov {a}, {s2}",
            "imul {a}, qword ptr [{p} + 72]",
            "add {hi}, {a}",
            "mov {a}, {s3}",
            "imul {a}, qword ptr [{p} + 64]",
            "add {a}, {hi}",
            "mov rdx, {lo}",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, qword ptr [{p} + 32]",
            "adcx {s2}, {lo}",
            "adox {s3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 40]",
            "adcx {s3}, {lo}",
            "adox {s4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 48]",
            "adcx {s4}, {lo}",
            "adox {s5}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 56]",
            "adcx {s5}, {lo}",
            "adox {s6}, {hi}",
            "adcx {s6}, {s1}",
            "adox {s2}, {s2}",
            "adc {s2}, 0",
            // REDC row 3: s += q_3 m b^3; carry word c_3 into s3
            "mov rdx, {a}",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, qword ptr [{p} + 32]",
            "adcx {s3}, {lo}",
            "adox {s4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 40]",
            "adcx {s4}, {lo}",
            "adox {s5}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 48]",
            "adcx {s5}, {lo}",
            "adox {s6}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{p} + 56]",
            "adcx {s6}, {lo}",
            "adox {s7}, {hi}",
            "adcx {s7}, {s2}",
            "adox {s3}, {s3}",
            "adc {s3}, 0",
            a = inout(reg) a.as_ptr() => _,
            p = in(reg) p.as_ptr(),
            s0 = out(reg) _,
            s1 = out(reg) _,
            s2 = out(reg) _,
            s3 = out(reg) s3,
            s4 = out(reg) s4,
            s5 = out(reg) s5,
            s6 = out(reg) s6,
            s7 = out(reg) s7,
            lo = out(reg) _,
            hi = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    // (a^2 + q m) / R = s4..s7 + c_3 b^4 < (R^2 + R m) / R = R + m, c_3 in s3.
    ([s4, s5, s6, s7], s3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::{neg_inv_newton, xorshift64 as rng};
    use crate::reduce::montgomery::fixed::cios_fixed;

    /// Random and extreme moduli (top limb all ones, top limb 1, m just above b^3) and operands
    /// (0, 1, m - 1, random below m), against the portable CIOS.
    #[test]
    fn asm_matches_portable_cios() {
        if crate::cpu::detected() < crate::cpu::Tier::Adx {
            eprintln!("skipped: this CPU has no BMI2/ADX");
            return;
        }
        let mut s = 0x9e37_79b9_7f4a_7c15;
        for case in 0..3000 {
            let mut m = [rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s)];
            match case % 4 {
                0 => m[3] = Limb::MAX,
                1 => m[3] = 1,
                2 => m = [1, 0, 0, 1],
                _ => m[3] |= 1 << 63,
            }
            m[0] |= 1;
            let n0 = neg_inv_newton(m[0]);
            let below = |s: &mut u64| {
                let mut x = [rng(s), rng(s), rng(s), rng(s)];
                x[3] %= m[3];
                x
            };
            let mut m1 = m;
            m1[0] -= 1;
            for (a, b) in [
                (below(&mut s), below(&mut s)),
                (m1, m1),
                ([0; 4], m1),
                ([1, 0, 0, 0], below(&mut s)),
            ] {
                let mut p = block4(&m, n0);
                p[..4].copy_from_slice(&b);
                let want = cios_fixed::<4>(&a, &b, &m, n0);
                // SAFETY: the CPU has BMI2 and ADX (checked above).
                let got = unsafe { mont_mul_4(&a, &p) };
                assert_eq!(got, want, "mul m={m:x?} a={a:x?} b={b:x?}");
                let want = cios_fixed::<4>(&a, &a, &m, n0);
                // SAFETY: as above.
                assert_eq!(unsafe { mont_sqr_4(&a, &p) }, want, "sqr m={m:x?} a={a:x?}");
            }
        }
    }

    /// The raw kernels on operands below R = 2^256 but not below m (the lazily reduced
    /// residues of the variable-time scans), checked like the portable ones
    /// ([`super::super::fast::tests::check_raw`], against num-bigint).
    #[test]
    fn raw_kernels_on_unreduced_operands() {
        use crate::natural::Natural;
        use crate::reduce::montgomery::fast::tests::check_raw;
        if crate::cpu::detected() < crate::cpu::Tier::Adx {
            eprintln!("skipped: this CPU has no BMI2/ADX");
            return;
        }
        let big = |x: &[Limb]| Natural::from_limbs(x.to_vec()).to_biguint();
        let mut s = 0x2545_f491_4f6c_dd1d;
        let mut tops = 0;
        for case in 0..2000 {
            let mut m = [rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s)];
            match case % 3 {
                0 => m[3] = Limb::MAX,
                1 => m[3] |= 1 << 63,
                _ => m[3] = 1 + (m[3] >> 62),
            }
            m[0] |= 1;
            let n0 = neg_inv_newton(m[0]);
            let ones = [Limb::MAX; 4];
            let mut a = [rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s)];
            let b = if case % 5 == 0 {
                ones
            } else {
                [rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s)]
            };
            if case % 7 == 0 {
                a = ones;
            }
            let mut p = block4(&m, n0);
            p[..4].copy_from_slice(&b);
            let what = format!("m={m:x?} a={a:x?} b={b:x?}");
            // SAFETY: the CPU has BMI2 and ADX (checked above).
            let (mul, sqr) = unsafe { (mont_mul_4_raw(&a, &p), mont_sqr_4_raw(&a, &p)) };
            check_raw(mul, &(big(&a) * big(&b)), &m, &what);
            check_raw(sqr, &(big(&a) * big(&a)), &m, &what);
            tops += (mul.1 + sqr.1) as usize;
        }
        // check_raw compares the two finishes below R in both cases: carry-out set or not.
        assert!(tops > 100, "the carry-out was set in only {tops} products");
    }
}
