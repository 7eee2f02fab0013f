//! Generator of the MULX/ADX Montgomery kernels (x86-64 assembly, Intel syntax), one pair of
//! functions per modulus size k: `modred_adx_mul_{k}` (integrated product and reduction) and
//! `modred_adx_sqr_{k}` (dedicated square, then the reduction rows). Up to
//! `ADX_MONT_UNROLLED_MAX_LIMBS` (64) every row is emitted straight-line for its k (no inner
//! loop counter, no branch on the row's length) and only the passes over the rows loop at run
//! time; larger kernels run each row as a few straight-line limbs and a loop over blocks of
//! eight ([`Layout::Looped`]), which keeps 65-128 limbs at a few KB of code per size. The
//! Karatsuba squares' half squares are subroutines shared by the sizes with the same half; those
//! of the looped kernels loop their rows too (straight-line, the 60-64-limb halves were 40-45 KB
//! of code and made the squares 10-25% slower at 118-128 limbs). From `Opts::tiled_min` limbs
//! (multiples of 8) the square's reduction and the whole product run in register tiles
//! ([`tiles`]).
//!
//! Both compute the almost-Montgomery product (Gueron, "Efficient software implementations of
//! modular exponentiation", J. Cryptogr. Eng. 2(1), 2012): for a, b < R = 2^(64k) and an odd
//! m < R, out = a b R^{-1} mod m up to one m, with out < R. The unreduced value is t + top R
//! < R + m; m is subtracted under the mask -top, by MULX with rdx = top (MULX leaves the flags
//! alone, so the borrow chain survives). Nothing branches on data: constant time.
//!
//! Rows run on two carry chains, ADOX (OF) adding each product's high word into the next
//! position and ADCX (CF) adding the accumulator (Gopal, Guilford, Ozturk, Wolrich, Feghali,
//! Dixon, Karakoyunlu, "Fast and constant-time implementation of modular exponentiation",
//! Intel white paper, 2009). The accumulator lives in memory (the stack frame): on AMD Zen 4
//! whole rows this way measured 1.39-1.43 cycles per MULX at 24-64 limbs against 1.69-1.71
//! with OpenSSL `mulx4x`-style four-limb blocks holding the partial sums in registers, whose
//! block-boundary carry absorptions cost two ALU operations per eight MULX (see
//! `src/tuning.rs`, `ADX_MONT_MIN_LIMBS`).
//!
//! ABI: System V AMD64 (`extern "sysv64"`); rbx, rbp, r12-r15 saved.

use std::fmt::Write;

/// Assembly text being built.
struct Asm(String);

impl Asm {
    fn i(&mut self, line: impl AsRef<str>) {
        self.0.push_str("    ");
        self.0.push_str(line.as_ref());
        self.0.push('\n');
    }
    fn label(&mut self, l: &str) {
        writeln!(self.0, "{l}:").unwrap();
    }
    fn function_start(&mut self, name: &str, frame: usize) {
        writeln!(
            self.0,
            ".p2align 6\n.globl {name}\n.hidden {name}\n.type {name},@function\n{name}:"
        )
        .unwrap();
        for r in SAVED {
            self.i(format!("push {r}"));
        }
        self.i(format!("sub rsp, {frame}"));
    }
    fn function_end(&mut self, name: &str, frame: usize) {
        self.i(format!("add rsp, {frame}"));
        for r in SAVED.iter().rev() {
            self.i(format!("pop {r}"));
        }
        self.i("ret");
        writeln!(self.0, ".size {name}, .-{name}").unwrap();
    }
}

/// Callee-saved registers the kernels use.
const SAVED: [&str; 6] = ["rbx", "rbp", "r12", "r13", "r14", "r15"];

/// `qword ptr [base + 8 i]`.
fn at(base: &str, i: usize) -> String {
    if i == 0 {
        format!("qword ptr [{base}]")
    } else {
        format!("qword ptr [{base} + {}]", 8 * i)
    }
}

/// One row on the two chains: for j in 0..len, `acc[j] (+)= lo(rdx src[j]) + hi(rdx src[j-1])`
/// with the sum stored at `dst[j - shift]` (j >= shift; the lower ones are known to be zero
/// modulo 2^64 and only carry). High words go on OF, the accumulator on CF; `acc = None` means
/// the accumulator is zero (a first row: no CF chain). Returns the register holding the last
/// high word, into which the caller absorbs the chains. Uses rax/rbx and r9/r10.
fn row(a: &mut Asm, len: usize, src: &str, acc: Option<&str>, dst: &str, shift: usize) -> String {
    row_saving(a, Layout::Unrolled, len, src, acc, dst, shift, None)
}

/// How a row of `len` limbs is emitted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Straight-line: every limb its own instructions.
    Unrolled,
    /// The first [`looped_head`] limbs straight-line, the rest in blocks of [`BLOCK`] limbs
    /// run by a loop on the counter rcx (-blocks up to 0); LEA and JRCXZ leave CF and OF
    /// alone, so the chains run through the loop. The operands stay base + displacement (with
    /// rcx as an index instead, exponentiations at 65-128 limbs measured 1.3-1.4x slower on
    /// Zen 4, the stores taking most of the samples): each base register
    /// steps by a block per iteration and is stepped back after the loop, except that the
    /// frame (rsp) is walked by [`FRAME_CURSOR`]. Clobbers rcx.
    Looped,
}

/// Limbs per block of a [`Layout::Looped`] row.
const BLOCK: usize = 8;

/// The shortest row [`sq_core`] runs as a loop in [`Layout::Looped`]: a head and one block.
const LOOPED_ROW_MIN: usize = 2 + BLOCK;

/// The register that walks operands in the frame in [`Layout::Looped`] rows.
const FRAME_CURSOR: &str = "r13";

/// Limbs of a [`Layout::Looped`] row of `len` limbs emitted before its blocks: 2 to 9, so the
/// first limb (no high word yet) and the saved limb stay straight-line.
fn looped_head(len: usize) -> usize {
    2 + (len - 2) % BLOCK
}

/// `qword ptr [base + off]` for a signed byte offset.
fn at_bytes(base: &str, off: isize) -> String {
    match off {
        0 => format!("qword ptr [{base}]"),
        o if o < 0 => format!("qword ptr [{base} - {}]", -o),
        o => format!("qword ptr [{base} + {o}]"),
    }
}

/// A fresh local label.
fn fresh_label(what: &str) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(".Lmodred_{what}_{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The blocks of a [`Layout::Looped`] pass over limbs `head..len` of the operands at the
/// register bases `bases` (each `(base, limb offset)`): `body(asm, t, operands)` emits limb t
/// of a block, `operands[b]` addressing base b's limb (block start + t + its offset).
fn block_loop<'b>(
    a: &mut Asm,
    len: usize,
    head: usize,
    bases: &[(&'b str, isize)],
    mut body: impl FnMut(&mut Asm, usize, &[String]),
) {
    let blocks = (len - head) / BLOCK;
    debug_assert!(blocks > 0 && head + blocks * BLOCK == len);
    // The cursors: each base register itself, or FRAME_CURSOR for rsp (and the same register
    // only once), placed at limb `head`.
    let mut cursors: Vec<&'b str> = vec![];
    let mut operand = |base: &'b str, off: isize| -> (String, isize) {
        let cur = if base == "rsp" { FRAME_CURSOR } else { base };
        if !cursors.contains(&cur) {
            cursors.push(cur);
        }
        (cur.to_string(), off)
    };
    let ops: Vec<(String, isize)> = bases.iter().map(|&(b, o)| operand(b, o)).collect();
    for &cur in &cursors {
        let from = if cur == FRAME_CURSOR { "rsp" } else { cur };
        a.i(format!("lea {cur}, [{from} + {}]", 8 * head));
    }
    let (top, done) = (fresh_label("block"), fresh_label("done"));
    a.i(format!("mov rcx, -{blocks}")); // MOV leaves the flags alone
    a.label(&top);
    for t in 0..BLOCK {
        let addrs: Vec<String> = ops
            .iter()
            .map(|(c, o)| at_bytes(c, 8 * (t as isize + o)))
            .collect();
        body(a, t, &addrs);
    }
    for &cur in &cursors {
        a.i(format!("lea {cur}, [{cur} + {}]", 8 * BLOCK));
    }
    a.i("lea rcx, [rcx + 1]");
    a.i(format!("jrcxz {done}"));
    a.i(format!("jmp {top}"));
    a.label(&done);
    for &cur in cursors.iter().filter(|&&c| c != FRAME_CURSOR) {
        a.i(format!("lea {cur}, [{cur} - {}]", 8 * len));
    }
}

/// [`row`] in `layout` (a looped row also uses rcx, and [`FRAME_CURSOR`] for operands in the
/// frame), also copying the sum at `save.0` into the register `save.1` (for the next
/// reduction multiplier, which then does not wait for a store and a load).
#[allow(clippy::too_many_arguments)]
fn row_saving(
    a: &mut Asm,
    layout: Layout,
    len: usize,
    src: &str,
    acc: Option<&str>,
    dst: &str,
    shift: usize,
    save: Option<(usize, &str)>,
) -> String {
    const LO: [&str; 2] = ["rax", "rbx"];
    const HI: [&str; 2] = ["r9", "r10"];
    // One limb: its operands' addresses, whether to store and save it.
    let limb = |a: &mut Asm,
                parity: usize,
                hprev: Option<&'static str>,
                s: String,
                c: Option<String>,
                d: Option<String>,
                keep: Option<&str>| {
        let l = LO[parity];
        let hout = if hprev == Some(HI[0]) { HI[1] } else { HI[0] };
        a.i(format!("mulx {hout}, {l}, {s}"));
        if let Some(h) = hprev {
            a.i(format!("adox {l}, {h}"));
        }
        if let Some(c) = c {
            a.i(format!("adcx {l}, {c}"));
        }
        if let Some(d) = d {
            a.i(format!("mov {d}, {l}"));
        }
        if let Some(r) = keep {
            a.i(format!("mov {r}, {l}"));
        }
        hout
    };
    let head = match layout {
        Layout::Unrolled => len,
        Layout::Looped => looped_head(len),
    };
    debug_assert!(shift < head && save.is_none_or(|(s, _)| s < head));
    let mut hprev: Option<&'static str> = None;
    for j in 0..head {
        let keep = save.filter(|&(s, _)| s == j).map(|(_, r)| r);
        let d = (j >= shift).then(|| at(dst, j - shift));
        hprev = Some(limb(
            a,
            j % 2,
            hprev,
            at(src, j),
            acc.map(|c| at(c, j)),
            d,
            keep,
        ));
    }
    if head < len {
        let mut bases = vec![(src, 0), (dst, -(shift as isize))];
        bases.extend(acc.map(|c| (c, 0)));
        block_loop(a, len, head, &bases, |a, t, ops| {
            let (s, d, c) = (ops[0].clone(), Some(ops[1].clone()), ops.get(2).cloned());
            hprev = Some(limb(a, (head + t) % 2, hprev, s, c, d, None));
        });
    }
    hprev.expect("rows are not empty").to_string()
}

/// The final step, in place on the k limbs of `[out]` (the last row wrote them), with top
/// (0 or 1) in rdx: out + top R < R + m brought below R. With the `lazy` argument (its frame
/// slot non-zero) m is subtracted only when top is set, by a branch (variable time: for the
/// variable-time scans); without, m & -top is subtracted, m_j top by MULX, which leaves the
/// borrow chain's CF alone (constant time). Clobbers r9-r11 (and rcx when looped).
fn finish(a: &mut Asm, layout: Layout, k: usize, m: &str, out: &str, lazy_slot: usize) {
    let (lazy, end) = (fresh_label("lazy"), fresh_label("end"));
    let head = match layout {
        Layout::Unrolled => k,
        Layout::Looped => 1 + (k - 1) % BLOCK,
    };
    let op = |j: usize| if j == 0 { "sub" } else { "sbb" };
    let masked = |a: &mut Asm, mj: String, oj: String, j: usize| {
        a.i(format!("mulx r9, r10, {mj}"));
        a.i(format!("mov r11, {oj}"));
        a.i(format!("{} r11, r10", op(j)));
        a.i(format!("mov {oj}, r11"));
    };
    let unmasked = |a: &mut Asm, mj: String, oj: String, j: usize| {
        a.i(format!("mov r11, {oj}"));
        a.i(format!("{} r11, {mj}", op(j)));
        a.i(format!("mov {oj}, r11"));
    };
    a.i(format!("cmp qword ptr [rsp + {lazy_slot}], 0"));
    a.i(format!("jne {lazy}"));
    for j in 0..head {
        masked(a, at(m, j), at(out, j), j);
    }
    if head < k {
        block_loop(a, k, head, &[(m, 0), (out, 0)], |a, _, ops| {
            masked(a, ops[0].clone(), ops[1].clone(), 1)
        });
    }
    a.i(format!("jmp {end}"));
    a.label(&lazy);
    a.i("test rdx, rdx");
    a.i(format!("jz {end}"));
    for j in 0..head {
        unmasked(a, at(m, j), at(out, j), j);
    }
    if head < k {
        block_loop(a, k, head, &[(m, 0), (out, 0)], |a, _, ops| {
            unmasked(a, ops[0].clone(), ops[1].clone(), 1)
        });
    }
    a.label(&end);
}

/// `modred_adx_mul_{k}(out, a, b, m, n0, lazy)`: CIOS (Koç, Acar, Kaliski, *Analyzing and
/// Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996, §5).
/// Pass i: the row x = t + a b_i (x stored over t; its top word x_k + x_{k+1} 2^64 in r14,
/// r13), then q = x_0 n0 mod 2^64 and the row t = (x + q m) / 2^64, stored one limb down (the
/// last pass straight into `out`); the two top words join with the running top (r12).
/// Invariant after pass i: t + top 2^(64k) < (a + m) < 2R for a < R, so top <= 1 and
/// x_{k+1} <= 1. Then [`finish`].
///
/// Registers: rsi a, rbp &b_i, m in rcx (unrolled rows) or r8 (looped rows, whose counter is
/// rcx), r15 zero, r12 top, rdx the MULX operand; rows use rax, rbx, r9, r10.
fn mul_kernel(k: usize, o: &Opts) -> String {
    assert!(k >= 2);
    let name = format!("{}mul_{k}", o.prefix);
    let layout = o.layout(k);
    let m = if layout == Layout::Looped {
        "r8"
    } else {
        "rcx"
    };
    let n0 = 8 * k;
    let out = n0 + 8;
    let blast = out + 8;
    let lazy = blast + 8;
    let x_top = lazy + 8;
    let frame = x_top + 8;
    // x_{k+1}: r13, or a frame slot when looped rows walk the frame with r13.
    let x_top = if layout == Layout::Looped {
        assert_eq!(FRAME_CURSOR, "r13");
        at_bytes("rsp", x_top as isize)
    } else {
        "r13".to_string()
    };
    let mut a = Asm(String::new());
    a.function_start(&name, frame);
    a.i(format!("mov qword ptr [rsp + {out}], rdi"));
    a.i(format!("mov qword ptr [rsp + {n0}], r8"));
    a.i(format!("mov qword ptr [rsp + {lazy}], r9"));
    if m != "rcx" {
        a.i(format!("mov {m}, rcx"));
    }
    a.i("mov rbp, rdx");
    a.i(format!("lea rax, [rbp + {}]", 8 * (k - 1)));
    a.i(format!("mov qword ptr [rsp + {blast}], rax"));
    a.i("xor r15d, r15d");
    a.i("xor r12d, r12d");
    let pass = format!(".L{name}_pass");
    // Pass 0 (t = 0), passes 1..k-1 in a loop, pass k-1 into out.
    for which in 0..3 {
        if which == 1 {
            if k == 2 {
                continue;
            }
            a.label(&pass);
        }
        // x = t + a b_i.
        a.i("mov rdx, qword ptr [rbp]");
        a.i("xor r11d, r11d"); // CF = OF = 0
        let acc = (which > 0).then_some("rsp");
        let c = row_saving(&mut a, layout, k, "rsi", acc, "rsp", 0, Some((0, "r11")));
        a.i(format!("adox {c}, r15"));
        if which > 0 {
            a.i(format!("adcx {c}, r15"));
        }
        // x_k + r13 2^64 = c + top.
        a.i("xor r13d, r13d");
        a.i(format!("add {c}, r12"));
        a.i("adc r13, 0");
        if x_top != "r13" {
            a.i(format!("mov {x_top}, r13"));
        }
        a.i(format!("mov r14, {c}"));
        // q, then t = (x + q m) / 2^64.
        a.i("mov rdx, r11");
        a.i(format!("imul rdx, qword ptr [rsp + {n0}]"));
        a.i("test rdx, rdx"); // CF = OF = 0 after imul
        let dst = if which == 2 {
            a.i(format!("mov rdi, qword ptr [rsp + {out}]"));
            "rdi"
        } else {
            "rsp"
        };
        let c = row_saving(&mut a, layout, k, m, Some("rsp"), dst, 1, None);
        a.i(format!("adox {c}, r15"));
        a.i(format!("adcx {c}, r15"));
        a.i("xor r12d, r12d");
        a.i(format!("add {c}, r14"));
        a.i(format!("adc r12, {x_top}"));
        a.i(format!("mov {}, {c}", at(dst, k - 1)));
        if which < 2 {
            a.i("add rbp, 8");
        }
        if which == 1 {
            a.i(format!("cmp rbp, qword ptr [rsp + {blast}]"));
            a.i(format!("jne {pass}"));
        }
    }
    a.i("mov rdx, r12");
    finish(&mut a, layout, k, m, "rdi", lazy);
    a.function_end(&name, frame);
    a.0
}

/// The square w = a^2 of h limbs (a at `[a_base]`, the 2h limbs of w at `[w_base]`), by the
/// symmetric method (Menezes, van Oorschot, Vanstone, Handbook of Applied Cryptography, 1996,
/// Algorithm 14.16; Koç–Acar–Kaliski 1996 §4): h(h-1)/2 + h MULX.
/// 1. Triangle: w = sum_{i<j} a_i a_j 2^(64(i+j)); row i (a_i times a_{i+1..h}) accumulates
///    at position 2i+1 (row 0 stores) and stores its carry word at the fresh position i+h.
/// 2. w = 2w + sum a_i^2 2^(128i): the doubling on CF (ADCX w, w), the squares on OF; both
///    chains end at zero since a^2 < 2^(128h).
///
/// `zero` holds 0. Uses rdx, rax, rbx, r8-r11; leaves CF = OF = 0. With `layout`
/// [`Layout::Looped`] the rows of at least [`LOOPED_ROW_MIN`] limbs run as loops (cursors rdi
/// and rbp, counter rcx: also clobbered), which keeps the half squares of the 65-128-limb
/// kernels at a fraction of their straight-line size.
fn sq_core(a: &mut Asm, layout: Layout, h: usize, a_base: &str, w_base: &str, zero: &str) {
    for i in 0..h - 1 {
        // A zeroing idiom clears CF and OF without waiting for the previous row's chains
        // (1-2% faster squares at 9-16 limbs than letting the absorptions clear them).
        a.i("xor r11d, r11d");
        a.i(format!("mov rdx, {}", at(a_base, i)));
        let len = h - 1 - i;
        let c = if layout == Layout::Looped && len >= LOOPED_ROW_MIN {
            a.i(format!("lea rdi, [{a_base} + {}]", 8 * (i + 1)));
            a.i(format!("lea rbp, [{w_base} + {}]", 8 * (2 * i + 1)));
            let acc = (i > 0).then_some("rbp");
            row_saving(a, Layout::Looped, len, "rdi", acc, "rbp", 0, None)
        } else {
            let src = format!("{a_base} + {}", 8 * (i + 1));
            let dst = format!("{w_base} + {}", 8 * (2 * i + 1));
            row(a, len, &src, (i > 0).then_some(dst.as_str()), &dst, 0)
        };
        a.i(format!("adox {c}, {zero}"));
        if i > 0 {
            a.i(format!("adcx {c}, {zero}"));
        }
        a.i(format!("mov {}, {c}", at(w_base, i + h)));
    }
    a.i(format!("mov {}, {zero}", at(w_base, 0)));
    a.i(format!("mov {}, {zero}", at(w_base, 2 * h - 1)));
    a.i("xor eax, eax");
    for i in 0..h {
        a.i(format!("mov rdx, {}", at(a_base, i)));
        a.i("mulx r9, r8, rdx");
        a.i(format!("mov r10, {}", at(w_base, 2 * i)));
        a.i(format!("mov r11, {}", at(w_base, 2 * i + 1)));
        a.i("adcx r10, r10");
        a.i("adcx r11, r11");
        a.i("adox r10, r8");
        a.i("adox r11, r9");
        a.i(format!("mov {}, r10", at(w_base, 2 * i)));
        a.i(format!("mov {}, r11", at(w_base, 2 * i + 1)));
    }
}

/// Where [`karatsuba_sq`] finds w and its buffers: w (4h limbs) at byte offset `w_off` from
/// the register `w_base` (with `w_slot`, r13, reloaded from that frame slot after each call, as
/// the calls take r13), the buffers at byte offsets from rsp: `ahp` a_h padded to h limbs (odd
/// k), `d` |a_l - a_h| (h limbs), `s1` d^2 (2h), `mid` the middle term (2h).
struct KaratsubaFrame<'s> {
    w_base: &'s str,
    w_off: usize,
    w_slot: Option<usize>,
    ahp: usize,
    d: usize,
    s1: usize,
    mid: usize,
}

/// w = a^2 (a at rsi, k limbs; w 4h limbs) by one Karatsuba level (Karatsuba and Ofman 1962;
/// Lim, Hwang, Lee, *Fast Modular Reduction With Precomputation*, JW-ISC '97, §1) over halves
/// of h >= k/2 limbs, a = a_l + a_h 2^(64h):
/// a^2 = a_l^2 + (a_l^2 + a_h^2 - (a_l - a_h)^2) 2^(64h) + a_h^2 2^(128h), the three squares of
/// h limbs by calls to `sq` (r12 the operand, r13 the result, r14 zero), |a_l - a_h| by a
/// masked negation (no branch on its sign). Uses rax, rbx, rdx, rbp, r12, r13 and what `sq`
/// uses; constant time.
fn karatsuba_sq(a: &mut Asm, k: usize, h: usize, f: &KaratsubaFrame, sq: &str) {
    let l = k - h; // a_h has l <= h limbs
    let wj = |j: usize| at_bytes(f.w_base, (f.w_off + 8 * j) as isize);
    let call = |a: &mut Asm| {
        a.i(format!("call {sq}"));
        if let Some(slot) = f.w_slot {
            a.i(format!("mov r13, qword ptr [rsp + {slot}]"));
        }
    };
    let (ahp, d, s1, mid) = (f.ahp, f.d, f.s1, f.mid);
    // a_l^2 at w_0, a_h^2 at w_{2h}.
    a.i("mov r12, rsi");
    a.i(format!("lea r13, [{} + {}]", f.w_base, f.w_off));
    call(a);
    if l == h {
        a.i(format!("lea r12, [rsi + {}]", 8 * h));
    } else {
        for j in 0..h {
            if j < l {
                a.i(format!("mov rax, {}", at("rsi", h + j)));
                a.i(format!("mov qword ptr [rsp + {}], rax", ahp + 8 * j));
            } else {
                a.i(format!("mov qword ptr [rsp + {}], r14", ahp + 8 * j));
            }
        }
        a.i(format!("lea r12, [rsp + {ahp}]"));
    }
    a.i(format!("lea r13, [{} + {}]", f.w_base, f.w_off + 16 * h));
    call(a);
    // d = a_l - a_h; then d = (d ^ s) - s with s = -borrow: |a_l - a_h|.
    for j in 0..h {
        a.i(format!("mov rax, {}", at("rsi", j)));
        a.i(format!(
            "{} rax, {}",
            if j == 0 { "sub" } else { "sbb" },
            at("r12", j)
        ));
        a.i(format!("mov qword ptr [rsp + {}], rax", d + 8 * j));
    }
    // s, and -s (0 or 1, added back below); the complement and the increment are two
    // passes, as XOR clears CF.
    a.i("sbb rbp, rbp");
    a.i("mov rdx, rbp");
    a.i("neg rdx");
    for j in 0..h {
        a.i(format!("xor qword ptr [rsp + {}], rbp", d + 8 * j));
    }
    for j in 0..h {
        let op = if j == 0 { "add" } else { "adc" };
        let v = if j == 0 { "rdx" } else { "r14" };
        a.i(format!("mov rax, qword ptr [rsp + {}]", d + 8 * j));
        a.i(format!("{op} rax, {v}"));
        a.i(format!("mov qword ptr [rsp + {}], rax", d + 8 * j));
    }
    a.i(format!("lea r12, [rsp + {d}]"));
    a.i(format!("lea r13, [rsp + {s1}]"));
    call(a);
    // mid = a_l^2 + a_h^2 - d^2 (2h limbs and a top bit in rbp): + on CF, - as + ~d^2 + 1
    // on OF (OF = 1 at the start: 0x7f + 1 overflows).
    a.i("mov al, 0x7f");
    a.i("add al, 1");
    for j in 0..2 * h {
        a.i(format!("mov rax, {}", wj(j)));
        a.i(format!("adcx rax, {}", wj(2 * h + j)));
        a.i(format!("mov rbx, qword ptr [rsp + {}]", s1 + 8 * j));
        a.i("not rbx");
        a.i("adox rax, rbx");
        a.i(format!("mov qword ptr [rsp + {}], rax", mid + 8 * j));
    }
    // top = CF + OF - 1 (OF = 0 would be a borrow, which 2 a_l a_h >= 0 rules out).
    a.i("setc al");
    a.i("seto bl");
    a.i("movzx ebp, al");
    a.i("movzx ebx, bl");
    a.i("lea rbp, [rbp + rbx - 1]");
    // w += mid 2^(64h), the carry running to the end of w (a^2 < 2^(128k)).
    for j in 0..4 * h - h {
        // Through a register: an ADC on memory would put a store-to-load round trip on
        // the carry chain.
        a.i(format!("mov rax, {}", wj(h + j)));
        if j < 2 * h {
            let op = if j == 0 { "add" } else { "adc" };
            a.i(format!("{op} rax, qword ptr [rsp + {}]", mid + 8 * j));
        } else if j == 2 * h {
            a.i("adc rax, rbp");
        } else {
            a.i("adc rax, r14");
        }
        a.i(format!("mov {}, rax", wj(h + j)));
    }
}

/// The subroutine `.L{prefix}ksq_{h}` (r12 = a, r13 = w, r14 = 0, as [`sq_core_label`]'s):
/// w = a^2 of h limbs by [`karatsuba_sq`] over halves of [`Opts::karatsuba_half`]`(h)`
/// limbs, squared by their [`sq_core`] subroutine; keeps rsi, r12 and r13.
fn karatsuba_subroutine(o: &Opts, h: usize) -> String {
    let h2 = o.karatsuba_half(h);
    // The quarters are squared straight-line: one nesting level only.
    assert!(
        !o.nested(h2),
        "adx_mont: quarter square of {h2} limbs would nest again"
    );
    let (ahp, d, s1, mid) = (0, 8 * h2, 16 * h2, 32 * h2);
    let w_slot = 48 * h2;
    let frame = w_slot + 8;
    let mut a = Asm(String::from(".p2align 6\n"));
    a.label(&half_square_label(o, h));
    for r in ["rsi", "r12", "r13"] {
        a.i(format!("push {r}"));
    }
    a.i(format!("sub rsp, {frame}"));
    a.i(format!("mov qword ptr [rsp + {w_slot}], r13"));
    a.i("mov rsi, r12");
    let f = KaratsubaFrame {
        w_base: "r13",
        w_off: 0,
        w_slot: Some(w_slot),
        ahp,
        d,
        s1,
        mid,
    };
    karatsuba_sq(&mut a, h, h2, &f, &sq_core_label(o, h2));
    a.i(format!("add rsp, {frame}"));
    for r in ["r13", "r12", "rsi"] {
        a.i(format!("pop {r}"));
    }
    a.i("ret");
    a.0
}

/// `modred_adx_sqr_{k}(out, a, m, n0, lazy)`: w = a^2, then word-by-word Montgomery reduction
/// (SOS, Koç–Acar–Kaliski 1996 §4; Dusse and Kaliski, EUROCRYPT '90): rows
/// i = 0..k, q = w_i n0, w += q m 2^(64i); each row's carry word (below 2^64 with both chains
/// absorbed: k limbs plus a k-limb by 1-limb product) joins position i+k with the running top
/// bit (r8); the last row writes `out`. Result w_{k..2k} + top R < R + m for a < R; then
/// [`finish`].
///
/// The square: below `karatsuba_min` limbs [`sq_core`] on the whole of a (k(k-1)/2 + k MULX);
/// from it, [`karatsuba_sq`] over halves of h = [`Opts::karatsuba_half`]`(k)` limbs, the three
/// half squares by one subroutine ([`half_square_label`]): [`sq_core`] (3h(h+1)/2 MULX), or
/// from `karatsuba_nested_min` a second Karatsuba level ([`karatsuba_subroutine`]).
fn sqr_kernel(k: usize, o: &Opts) -> String {
    let name = format!("{}sqr_{k}", o.prefix);
    let layout = o.layout(k);
    // m: rcx for unrolled rows, r15 for looped ones (rcx their counter) and the tiled REDC.
    let m = if layout == Layout::Looped || o.tiled(k) {
        "r15"
    } else {
        "rcx"
    };
    let karatsuba = k >= o.karatsuba_min;
    let h = o.karatsuba_half(k);
    // Frame: w (2k limbs; 4h with Karatsuba), then the Karatsuba buffers, then the slots.
    let w = 0;
    let wlen = if karatsuba { 4 * h } else { 2 * k };
    let ahp = 8 * wlen; // a_h padded to h limbs (odd k)
    let d = ahp + 8 * h; // |a_l - a_h|
    let s1 = d + 8 * h; // d^2
    let mid = s1 + 16 * h; // a_l^2 + a_h^2 - d^2
    let slots = if karatsuba { mid + 16 * h } else { ahp };
    let out = slots;
    let lazy = out + 8;
    let tiled = o.tiled(k);
    // Then the tiled REDC's slots (n0 among them, at TILE_N0), or the row REDC's n0 and
    // &w_{k-1}.
    let tail = lazy + 8;
    let (n0, frame) = if tiled {
        (tail + TILE_N0, tail + TILE_SLOTS)
    } else {
        (tail, tail + 16)
    };
    let mut a = Asm(String::new());
    a.function_start(&name, frame);
    a.i(format!("mov qword ptr [rsp + {out}], rdi"));
    a.i(format!("mov qword ptr [rsp + {n0}], rcx"));
    a.i(format!("mov qword ptr [rsp + {lazy}], r8"));
    a.i(format!("mov {m}, rdx"));
    a.i("xor r14d, r14d");
    if !karatsuba {
        sq_core(&mut a, Layout::Unrolled, k, "rsi", "rsp", "r14");
    } else {
        let frame = KaratsubaFrame {
            w_base: "rsp",
            w_off: w,
            w_slot: None,
            ahp,
            d,
            s1,
            mid,
        };
        karatsuba_sq(&mut a, k, h, &frame, &half_square_label(o, h));
    }
    if tiled {
        tiles(&mut a, TilePass::Reduce, k, w, tail);
        copy_out_finish(&mut a, k, w, out, tail, lazy);
        a.function_end(&name, frame);
        return a.0;
    }
    let wlast = n0 + 8;
    // Reduction rows 0..k-1, looped: rbp = &w_i; row k-1 writes out.
    a.i(format!("lea rbp, [rsp + {w}]"));
    a.i(format!("lea rax, [rsp + {}]", w + 8 * (k - 1)));
    a.i(format!("mov qword ptr [rsp + {wlast}], rax"));
    a.i("xor r8d, r8d");
    // q_0; each row leaves w_{i+1} in r11 and q_{i+1} = w_{i+1} n0 is formed at its end.
    a.i("mov r11, qword ptr [rbp]");
    a.i(format!("imul r11, qword ptr [rsp + {n0}]"));
    let row_label = format!(".L{name}_row");
    for last in [false, true] {
        if !last {
            a.label(&row_label);
        } else {
            a.i(format!("mov rdi, qword ptr [rsp + {out}]"));
        }
        a.i("mov rdx, r11");
        a.i("xor eax, eax"); // CF = OF = 0
        let (dst, shift) = if last { ("rdi", 1) } else { ("rbp", 0) };
        let save = (!last).then_some((1, "r11"));
        let c = row_saving(&mut a, layout, k, m, Some("rbp"), dst, shift, save);
        a.i(format!("adox {c}, r14"));
        a.i(format!("adcx {c}, r14"));
        // w_{i+k} += c + top; top = the carry out (at most one in all).
        a.i(format!("add {c}, r8"));
        a.i("mov r8d, 0");
        a.i("adc r8, 0");
        if !last {
            a.i(format!("add {}, {c}", at("rbp", k)));
            a.i("adc r8, 0");
            a.i(format!("imul r11, qword ptr [rsp + {n0}]"));
            a.i("add rbp, 8");
            a.i(format!("cmp rbp, qword ptr [rsp + {wlast}]"));
            a.i(format!("jne {row_label}"));
        } else {
            a.i(format!("add {c}, {}", at("rbp", k)));
            a.i("adc r8, 0");
            a.i(format!("mov {}, {c}", at("rdi", k - 1)));
        }
    }
    a.i("mov rdx, r8");
    finish(&mut a, layout, k, m, "rdi", lazy);
    a.function_end(&name, frame);
    a.0
}

/// The accumulator registers of [`tiles`]: position p of a tile in `TILE_ACC[p % 9]`.
const TILE_ACC: [&str; 9] = ["rcx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13"];
/// Limbs per tile side of [`tiles`].
const TILE: usize = 8;
/// [`tiles`]' frame slots, byte offsets from its base: the band's eight multipliers, a zero,
/// the carry into the next band's top position, n0, `&y[k - 8]`, `&w[k]`, the cursor over the
/// multipliers of a product, and the carry of a tile's addition of w.
const TILE_Q: usize = 0;
const TILE_ZERO: usize = 8 * TILE;
const TILE_TOP: usize = TILE_ZERO + 8;
const TILE_N0: usize = TILE_TOP + 8;
const TILE_YLAST: usize = TILE_N0 + 8;
const TILE_WEND: usize = TILE_YLAST + 8;
const TILE_X: usize = TILE_WEND + 8;
const TILE_CARRY: usize = TILE_X + 8;
const TILE_SLOTS: usize = TILE_CARRY + 8;

/// What a [`tiles`] pass adds to w.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TilePass {
    /// The product x y (x at the cursor in the slot [`TILE_X`]) into a zero w.
    Product,
    /// The Montgomery reduction Q m, Q = -w m^{-1} mod R (n0 in the slot [`TILE_N0`]).
    Reduce,
}

/// w += x y or w += Q m (`pass`), on the 2k-limb w at `[rsp + w]`, y (m or the product's
/// other factor) in r15, k a multiple of 8 and at least 16, in tiles of 8 x 8 limb products
/// whose partial sums stay in registers (as OpenSSL's `__bn_sqrx8x_reduction`,
/// `crypto/bn/asm/x86_64-mont5.pl`: operand scanning, Koç–Acar–Kaliski 1996 §4, in blocks).
/// Per eight MULX: one load of the multiplier, one store and one flag-clearing XOR, where a row
/// loads and stores the accumulator at every MULX.
///
/// Band b (b = 0..k/8) adds x_{8b+s} y 2^(64(8b+s)) for s = 0..8 (x = Q when reducing). Its
/// first tile loads w_{8b..8b+8}; when reducing it forms each q_{8b+s} = w_{8b+s} n0 as its row
/// s reaches position 8b+s, which the row makes zero. Tile j >= 1 adds w_{P..P+8}
/// (P = 8b + 8j) and the previous tile's carry (into position P) to the eight partial sums the
/// previous tile left; the carry out of position P+7 waits in the slot [`TILE_CARRY`] for the
/// next tile. Then the rows s = 0..8 of x_{8b+s} y_{8j..8j+8}: row s adds into positions
/// P+s..P+s+8, after which position P+s is final for the band (no later tile reaches it) and is
/// stored. Bound: a row's nine registers, eight limbs and a fresh zero, plus the product, are at
/// most (2^512 - 1) + (2^64 - 1)(2^512 - 1) < 2^576, so the fresh register absorbs both chains
/// with no carry out (were the addition's carry put in the fresh register instead, all-ones
/// operands would overflow it). Band end: the last partial sums, w_{8b+k..8b+k+8}, the last
/// carry and the previous top make at most 2^513 - 2 + 1 + top, stored, with the next top (the
/// carry into position 8b+k+8) at most 2 by induction; the last band's top is at most 1, as
/// w + Q m < 2 R^2, and it is zero throughout a product (x y < R^2). Reducing w < R^2 leaves
/// w_{k..2k} + top R = (w + Q m) / R < R + m, top in the slot [`TILE_TOP`], as the row REDC.
///
/// Registers: [`TILE_ACC`], rdx the multiplier, rax and rbx the product halves, rbp the w
/// cursor (&w_P), r14 the y cursor (&y_{8j}); r15 is kept.
fn tiles(a: &mut Asm, pass: TilePass, k: usize, w: usize, slots: usize) {
    assert!(k.is_multiple_of(TILE) && k >= 2 * TILE);
    let acc = |p: usize| TILE_ACC[p % 9];
    let slot = |off: usize| format!("qword ptr [rsp + {}]", slots + off);
    let q = |s: usize| slot(TILE_Q + 8 * s);
    let reduce = pass == TilePass::Reduce;
    // Row s of a tile: positions s..s+8 += rdx y_{8j..8j+8} (y_{8j} at [r14]), CF and OF clear
    // on entry; both chains end in acc(s + 8).
    let row = |a: &mut Asm, s: usize| {
        for t in 0..TILE {
            a.i(format!("mulx rbx, rax, {}", at("r14", t)));
            a.i(format!("adcx {}, rax", acc(s + t)));
            a.i(format!("adox {}, rbx", acc(s + t + 1)));
        }
        a.i(format!("adcx {}, {}", acc(s + TILE), slot(TILE_ZERO)));
    };
    // The fresh register of row s, zeroed by the idiom that also clears CF and OF.
    let fresh = |a: &mut Asm, s: usize| {
        let r = low32(acc(s + TILE));
        a.i(format!("xor {r}, {r}"));
    };
    // The partial sums += w_{P..P+8} + the carry (slot TILE_CARRY) into position P; the carry
    // out of position P+7 left in CF.
    let add_w_carry = |a: &mut Asm| {
        a.i(format!("mov rax, {}", slot(TILE_CARRY)));
        a.i("add rax, -1"); // CF = carry
        for t in 0..TILE {
            a.i(format!("adc {}, {}", acc(t), at("rbp", t)));
        }
    };
    // After a tile's rows, positions 8..16 are in acc(8..16); move them to acc(0..8).
    let rotate = |a: &mut Asm| {
        for t in (0..TILE).rev() {
            a.i(format!("mov {}, {}", acc(t), acc(t + TILE)));
        }
    };
    a.i(format!("mov {}, 0", slot(TILE_ZERO)));
    a.i(format!("mov {}, 0", slot(TILE_TOP)));
    a.i(format!("lea rax, [r15 + {}]", 8 * (k - TILE)));
    a.i(format!("mov {}, rax", slot(TILE_YLAST)));
    a.i(format!("lea rax, [rsp + {}]", w + 8 * k));
    a.i(format!("mov {}, rax", slot(TILE_WEND)));
    a.i(format!("lea rbp, [rsp + {w}]"));
    let (band, tile) = (fresh_label("band"), fresh_label("tile"));
    a.label(&band);
    a.i("mov r14, r15");
    if !reduce {
        a.i(format!("mov rbx, {}", slot(TILE_X)));
        for s in 0..TILE {
            a.i(format!("mov rax, {}", at("rbx", s)));
            a.i(format!("mov {}, rax", q(s)));
        }
        a.i(format!("add rbx, {}", 8 * TILE));
        a.i(format!("mov {}, rbx", slot(TILE_X)));
    }
    // Tile 0.
    for t in 0..TILE {
        a.i(format!("mov {}, {}", acc(t), at("rbp", t)));
    }
    for s in 0..TILE {
        if reduce {
            a.i(format!("mov rdx, {}", acc(s)));
            a.i(format!("imul rdx, {}", slot(TILE_N0)));
            a.i(format!("mov {}, rdx", q(s)));
        } else {
            a.i(format!("mov rdx, {}", q(s)));
        }
        fresh(a, s);
        row(a, s);
        if !reduce {
            a.i(format!("mov {}, {}", at("rbp", s), acc(s)));
        }
    }
    rotate(a);
    a.i(format!("mov {}, 0", slot(TILE_CARRY)));
    // Tiles 1..k/8.
    a.label(&tile);
    a.i(format!("lea rbp, [rbp + {}]", 8 * TILE));
    a.i(format!("lea r14, [r14 + {}]", 8 * TILE));
    add_w_carry(a);
    a.i("mov eax, 0");
    a.i("adc eax, 0");
    a.i(format!("mov {}, rax", slot(TILE_CARRY)));
    for s in 0..TILE {
        a.i(format!("mov rdx, {}", q(s)));
        fresh(a, s);
        row(a, s);
        a.i(format!("mov {}, {}", at("rbp", s), acc(s)));
    }
    rotate(a);
    a.i(format!("cmp r14, {}", slot(TILE_YLAST)));
    a.i(format!("jne {tile}"));
    // Positions 8b+k..8b+k+8: the partial sums + w + the carry + the previous top (both at
    // position 8b+k); the carry out of position 8b+k+7 is the next top.
    a.i(format!("lea rbp, [rbp + {}]", 8 * TILE));
    add_w_carry(a);
    a.i("mov ebx, 0");
    a.i("adc ebx, 0");
    a.i(format!("add {}, {}", acc(0), slot(TILE_TOP)));
    for t in 1..TILE {
        a.i(format!("adc {}, 0", acc(t)));
    }
    a.i("adc rbx, 0");
    for t in 0..TILE {
        a.i(format!("mov {}, {}", at("rbp", t), acc(t)));
    }
    a.i(format!("mov {}, rbx", slot(TILE_TOP)));
    // Next band: &w_{8b+8}.
    a.i(format!("lea rbp, [rbp - {}]", 8 * (k - TILE)));
    a.i(format!("cmp rbp, {}", slot(TILE_WEND)));
    a.i(format!("jne {band}"));
}

/// `modred_adx_mul_{k}(out, a, b, m, n0, lazy)` for the sizes [`Opts::tiled`] picks: the
/// product a b and then its reduction, both by [`tiles`] (2k^2 MULX, as CIOS), the result
/// copied to out, then [`finish`]. out may alias a or b (both are read before out is written).
fn mul_kernel_tiled(k: usize, o: &Opts) -> String {
    let name = format!("{}mul_{k}", o.prefix);
    let w = 0;
    let out = 16 * k;
    let lazy = out + 8;
    let m = lazy + 8;
    let slots = m + 8;
    let frame = slots + TILE_SLOTS;
    let mut a = Asm(String::new());
    a.function_start(&name, frame);
    a.i(format!("mov qword ptr [rsp + {out}], rdi"));
    a.i(format!("mov qword ptr [rsp + {lazy}], r9"));
    a.i(format!("mov qword ptr [rsp + {m}], rcx"));
    a.i(format!("mov qword ptr [rsp + {}], r8", slots + TILE_N0));
    a.i(format!("mov qword ptr [rsp + {}], rdx", slots + TILE_X));
    a.i("mov r15, rsi");
    a.i("xor eax, eax");
    block_loop(&mut a, 2 * k, 0, &[("rsp", w as isize / 8)], |a, _, ops| {
        a.i(format!("mov {}, rax", ops[0]))
    });
    tiles(&mut a, TilePass::Product, k, w, slots);
    a.i(format!("mov r15, qword ptr [rsp + {m}]"));
    tiles(&mut a, TilePass::Reduce, k, w, slots);
    copy_out_finish(&mut a, k, w, out, slots, lazy);
    a.function_end(&name, frame);
    a.0
}

/// After a reducing [`tiles`] pass (m in r15): w_{k..2k} to out, then [`finish`] with its top.
fn copy_out_finish(a: &mut Asm, k: usize, w: usize, out: usize, slots: usize, lazy: usize) {
    a.i(format!("mov rdi, qword ptr [rsp + {out}]"));
    let w_high = (w / 8 + k) as isize;
    block_loop(a, k, 0, &[("rsp", w_high), ("rdi", 0)], |a, _, ops| {
        a.i(format!("mov rax, {}", ops[0]));
        a.i(format!("mov {}, rax", ops[1]));
    });
    a.i(format!("mov rdx, qword ptr [rsp + {}]", slots + TILE_TOP));
    finish(a, Layout::Looped, k, "r15", "rdi", lazy);
}

/// The 32-bit name of a 64-bit register (its zeroing idiom).
fn low32(r: &str) -> String {
    match r {
        "rax" | "rbx" | "rcx" | "rdx" | "rsi" | "rdi" | "rbp" => format!("e{}", &r[1..]),
        _ => format!("{r}d"),
    }
}

/// Generation options.
pub struct Opts {
    /// Symbol prefix, e.g. `modred_adx_`.
    pub prefix: &'static str,
    /// Squares of at least this many limbs take one Karatsuba level.
    pub karatsuba_min: usize,
    /// Kernels of at most this many limbs have unrolled rows, larger ones looped rows.
    pub unrolled_max: usize,
    /// Kernels of at least this many limbs, a multiple of 8, run [`tiles`].
    pub tiled_min: usize,
    /// The Karatsuba squares' halves of at least this many limbs take a second Karatsuba level.
    pub karatsuba_nested_min: usize,
}

impl Opts {
    /// Whether the kernels of k limbs run [`tiles`]: the square's reduction, and the product
    /// as a whole.
    fn tiled(&self, k: usize) -> bool {
        k >= self.tiled_min && k.is_multiple_of(TILE)
    }

    /// Whether the Karatsuba squares' halves of h limbs take a second Karatsuba level.
    fn nested(&self, h: usize) -> bool {
        h >= self.karatsuba_nested_min
    }

    fn layout(&self, k: usize) -> Layout {
        if k <= self.unrolled_max {
            Layout::Unrolled
        } else {
            Layout::Looped
        }
    }

    /// The half size h of the Karatsuba square of k limbs (a = a_l + a_h 2^(64h), a_h of
    /// k - h <= h limbs zero-padded to h): ceil(k/2), rounded up to even for looped kernels so
    /// that two sizes in four share one h-limb square (the padding costs at most
    /// (h + 1)^2 / h^2 of the squares, under 2% of a kernel at h = 33).
    fn karatsuba_half(&self, k: usize) -> usize {
        let h = k.div_ceil(2);
        match self.layout(k) {
            Layout::Unrolled => h,
            Layout::Looped => h + h % 2,
        }
    }
}

/// The label of the shared h-limb [`sq_core`] subroutine (r12 = a, r13 = w, r14 = 0).
fn sq_core_label(o: &Opts, h: usize) -> String {
    format!(".L{}sq_core_{h}", o.prefix)
}

/// The label of the subroutine that squares the h-limb halves of the Karatsuba squares (r12 =
/// a, r13 = w, r14 = 0): [`sq_core`]'s, or from `karatsuba_nested_min` limbs
/// [`karatsuba_subroutine`]'s.
fn half_square_label(o: &Opts, h: usize) -> String {
    if o.nested(h) {
        format!(".L{}ksq_{h}", o.prefix)
    } else {
        sq_core_label(o, h)
    }
}

/// The assembly of every kernel for `sizes`, and the Rust declarations and dispatch tables
/// (`MUL`, `SQR`, indexed by k) that go with it.
pub fn generate(sizes: std::ops::RangeInclusive<usize>, o: &Opts) -> (String, String) {
    let p = o.prefix;
    let mut asm = String::from(".text\n");
    let mut rs = String::from("// Generated by modred/build/adx_mont.rs: do not edit.\n");
    rs.push_str("extern \"sysv64\" {\n");
    // The half squares of the Karatsuba kernels, one subroutine per size.
    let halves: std::collections::BTreeSet<usize> = sizes
        .clone()
        .filter(|&k| k >= o.karatsuba_min)
        .map(|k| o.karatsuba_half(k))
        .collect();
    // The halves squared by a second Karatsuba level, and the [`sq_core`] subroutines.
    let (nested, direct): (Vec<usize>, Vec<usize>) = halves.into_iter().partition(|&h| o.nested(h));
    let cores: std::collections::BTreeSet<usize> = direct
        .into_iter()
        .chain(nested.iter().map(|&h| o.karatsuba_half(h)))
        .collect();
    for &h in &nested {
        asm.push_str(&karatsuba_subroutine(o, h));
    }
    for h in cores {
        let mut a = Asm(String::from(".p2align 6\n"));
        a.label(&sq_core_label(o, h));
        // Looped only for the halves of looped kernels, whose rcx, rdi and rbp are free here.
        sq_core(&mut a, o.layout(2 * h), h, "r12", "r13", "r14");
        a.i("ret");
        asm.push_str(&a.0);
    }
    for k in sizes.clone() {
        asm.push_str(&if o.tiled(k) {
            mul_kernel_tiled(k, o)
        } else {
            mul_kernel(k, o)
        });
        asm.push_str(&sqr_kernel(k, o));
        writeln!(
            rs,
            "    fn {p}mul_{k}(out: *mut u64, a: *const u64, b: *const u64, m: *const u64, n0: u64, lazy: u64);\n    fn {p}sqr_{k}(out: *mut u64, a: *const u64, m: *const u64, n0: u64, lazy: u64);"
        )
        .unwrap();
    }
    rs.push_str("}\n");
    let n = *sizes.end() + 1;
    for (table, f, ty) in [("MUL", "mul", "MulFn"), ("SQR", "sqr", "SqrFn")] {
        writeln!(rs, "pub(crate) static {table}: [Option<{ty}>; {n}] = [").unwrap();
        for k in 0..n {
            if sizes.contains(&k) {
                writeln!(rs, "    Some({p}{f}_{k}),").unwrap();
            } else {
                rs.push_str("    None,\n");
            }
        }
        rs.push_str("];\n");
    }
    (asm, rs)
}
