//! RSA private- and public-key operations (RSADP/RSASP1 and RSAEP/RSAVP1 of RFC 8017,
//! §5.1.1-5.1.2 and §5.2.1-5.2.2): the raw primitives, with no padding scheme.
//!
//! [`PrivateKey`] holds every context its operation needs (the Montgomery constants of n, p and
//! q, the two-at-once exponentiation of the CRT halves, the CRT coefficient in representation),
//! so a call does no set-up. [`PrivateKey::private_op`]:
//! 1. checks `c < n` (a full borrow chain; whether the input is valid shows),
//! 2. blinds it: `c' = c r^e mod n` for a random r kept with its inverse and renewed by
//!    squaring both after each use, fresh from the operating system every
//!    [`BLINDING_USES`] uses (as OpenSSL does),
//! 3. exponentiates `c' mod p` and `c' mod q` to `dp`, `dq` in constant time, both at once
//!    where a kernel runs them together ([`crate::exp::CtPair`]: one AVX-512 IFMA pass),
//! 4. recombines by Garner's formula `s = m2 + q (qinv (m1 - m2) mod p)`,
//! 5. checks `s^e = c' mod n` (the fault-attack countermeasure of OpenSSL's
//!    `rsa_ossl_mod_exp`): a mismatch is [`Error::FaultDetected`] and nothing is returned,
//! 6. unblinds: `s r^{-1} mod n`.
//!
//! Leaks: the private operation is constant time in the input, the blinding factor and every
//! secret of the key (p, q, d, dp, dq, qinv): steps 1-6 are constant-time products, reductions
//! and selections on fixed-length limb vectors; their lengths (the key's size) and the
//! verdicts of the two checks show. `scripts/ctgrind.sh` checks this on the machine code:
//! memcheck with the secrets marked undefined on the portable and MULX/ADX tiers
//! (examples/ctgrind/main.rs), and on the IFMA tier, which valgrind cannot run, the instruction
//! sequence under ptrace for two keys (examples/ctgrind/trace.rs: control flow, not addresses).
//! Creating a blinding factor inverts a random value blinded by a second one (`(r u)^{-1} u`, a
//! variable-time inverse of a value independent of r).
//! Loading a key (parsing, validation, the CRT constants, recovering p and q from d) is
//! variable time in the key; it runs once. The public operation is variable time (everything
//! in it is public).

mod encoding;
mod generate;
pub use generate::GENERATED_E;
mod recover;

use crate::arith;
use crate::error::{Error, Result};
use crate::exp::lanes::{FixedLanes, LANES};
use crate::exp::{self, CtPair, Modulus, PowOptions};
use crate::limb::{Choice, Limb};
use crate::natural::Natural;
use crate::reduce::{Reducer, ReducerKind, WideResult};
use crate::scan::ct::NoTrace;
use std::sync::{Arc, Mutex};

/// Smallest modulus served, in bits (below it RSA gives no security; 512 is kept for tests).
pub const MIN_BITS: usize = 512;
/// Largest modulus served, in bits.
pub const MAX_BITS: usize = 16384;
/// Inputs per pass of [`PrivateKey::private_op_many`]: two CRT halves each fill the lanes.
const LANES_PER_INPUT_GROUP: usize = LANES / 2;
/// Uses of one blinding factor (squared after each) before a fresh one is drawn (OpenSSL's
/// `BN_BLINDING_COUNTER`).
pub const BLINDING_USES: u32 = 32;

/// An RSA public key (n, e), with n's Montgomery context. `Clone + Send + Sync`.
#[derive(Clone, Debug)]
pub struct PublicKey {
    n: Natural,
    e: Natural,
    modulus: Modulus,
}

/// `x` as exactly `len` little-endian limbs from big-endian bytes, or `None` when it needs more.
/// Leaks: the length of `bytes` and the answer (no branch on the bytes' values beyond the
/// limbs past `len`, which must be zero).
fn limbs_from_be(bytes: &[u8], len: usize) -> Option<Vec<Limb>> {
    let mut limbs = vec![0; len.max(bytes.len().div_ceil(8))];
    for (i, &b) in bytes.iter().rev().enumerate() {
        limbs[i / 8] |= (b as Limb) << (8 * (i % 8));
    }
    let high = limbs.split_off(len);
    high.iter().all(|&l| l == 0).then_some(limbs)
}

/// `x` (little-endian limbs) as exactly `len` big-endian bytes; `x` must fit.
/// Leaks: the lengths only.
fn be_from_limbs(x: &[Limb], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    for i in 0..len.min(8 * x.len()) {
        out[len - 1 - i] = (x[i / 8] >> (8 * (i % 8))) as u8;
    }
    out
}

impl PublicKey {
    /// The key (n, e). Errors ([`Error::InvalidKey`]): n even or outside [`MIN_BITS`]..=
    /// [`MAX_BITS`] bits; e even, below 3 or not below n.
    /// Leaks: variable time in n and e (both public).
    pub fn new(n: &Natural, e: &Natural) -> Result<Self> {
        let bits = n.bits();
        if !(MIN_BITS..=MAX_BITS).contains(&bits) {
            return Err(Error::InvalidKey(format!(
                "modulus of {bits} bits; modred's RSA serves {MIN_BITS} to {MAX_BITS} bits"
            )));
        }
        if !n.is_odd() {
            return Err(Error::InvalidKey("the modulus n is even".into()));
        }
        if !e.is_odd() || e < &Natural::from(3u64) || e >= n {
            return Err(Error::InvalidKey(
                "the public exponent e must be odd, at least 3 and below n".into(),
            ));
        }
        Ok(Self {
            n: n.clone(),
            e: e.clone(),
            modulus: Modulus::new(n, ReducerKind::Auto)?,
        })
    }

    /// The public key in `data`: PEM ("RSA PUBLIC KEY", "PUBLIC KEY", or a private key's PEM)
    /// or DER (PKCS#1 `RSAPublicKey`, `SubjectPublicKeyInfo`, or a private key's DER).
    /// Errors: [`Error::InvalidKey`] for anything else, or for a key [`Self::new`] refuses.
    /// Leaks: variable time (parsing).
    pub fn from_pem_or_der(data: &[u8]) -> Result<Self> {
        let (n, e) = encoding::public_parts(data)?;
        Self::new(&n, &e)
    }

    /// The modulus n.
    pub fn n(&self) -> &Natural {
        &self.n
    }

    /// The public exponent e.
    pub fn e(&self) -> &Natural {
        &self.e
    }

    /// The bit length of n.
    pub fn bits(&self) -> usize {
        self.n.bits()
    }

    /// The length of n in bytes (of every output).
    pub fn size(&self) -> usize {
        self.bits().div_ceil(8)
    }

    fn check_below_n(&self, x: &[Limb]) -> Result<()> {
        if arith::lt_n_ct(x, self.n.limbs()).declassify() {
            Ok(())
        } else {
            Err(self.out_of_range())
        }
    }

    fn out_of_range(&self) -> Error {
        Error::InputOutOfRange(format!(
            "the input must be below the {}-bit modulus n",
            self.bits()
        ))
    }

    /// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2): `x^e mod n` for `x < n`
    /// ([`Error::InputOutOfRange`] otherwise).
    /// Leaks: variable time (x, e and n are public).
    pub fn public_op(&self, x: &Natural) -> Result<Natural> {
        if x >= &self.n {
            return Err(self.out_of_range());
        }
        self.modulus.pow_vartime(x, &self.e, &PowOptions::default())
    }

    /// [`Self::public_op`] on big-endian bytes (any length, leading zeros allowed); the result
    /// has [`Self::size`] bytes (I2OSP).
    /// Leaks: as [`Self::public_op`].
    pub fn public_op_bytes(&self, x: &[u8]) -> Result<Vec<u8>> {
        let y = self.public_op(&Natural::from_be_bytes(x))?;
        Ok(be_from_limbs(y.limbs(), self.size()))
    }
}

/// A blinding factor: r^e and r^{-1} mod n, in the representation of n's constant-time reducer.
struct Blinding {
    r_e: Vec<Limb>,
    r_inv: Vec<Limb>,
    uses: u32,
}

/// An RSA private key with two primes, ready for [`Self::private_op`]: every Montgomery
/// context and CRT constant computed once. `Clone + Send + Sync`; a clone shares the contexts
/// and draws its own blinding factors. `Debug` shows n's size and e only.
pub struct PrivateKey {
    public: PublicKey,
    d: Natural,
    primes: [Natural; 2],
    /// dp, dq as limbs of p's and q's length.
    crt_exps: [Vec<Limb>; 2],
    /// qinv = q^{-1} mod p in the representation of p's constant-time reducer.
    qinv: Vec<Limb>,
    /// n's constant-time reducer (blinding, the check).
    ct_n: Arc<dyn Reducer>,
    /// p's and q's constant-time reducers and the paired exponentiation.
    pair: CtPair,
    ct_pq: [Arc<dyn Reducer>; 2],
    /// The eight-lane exponentiation over (p, q, p, q, ...) for [`Self::private_op_many`],
    /// where the CPU and the primes' sizes allow it.
    lanes: Option<Arc<FixedLanes>>,
    /// Spare blinding factors (one per thread that ran concurrently).
    blinding: Mutex<Vec<Blinding>>,
}

impl Clone for PrivateKey {
    fn clone(&self) -> Self {
        Self {
            public: self.public.clone(),
            d: self.d.clone(),
            primes: self.primes.clone(),
            crt_exps: self.crt_exps.clone(),
            qinv: self.qinv.clone(),
            ct_n: self.ct_n.clone(),
            pair: self.pair.clone(),
            ct_pq: self.ct_pq.clone(),
            lanes: self.lanes.clone(),
            blinding: Mutex::new(Vec::new()),
        }
    }
}

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PrivateKey")
            .field("bits", &self.public.bits())
            .field("e", &self.public.e)
            .finish_non_exhaustive()
    }
}

fn invalid(what: &str) -> Error {
    Error::InvalidKey(what.to_string())
}

/// `x mod r's modulus` (k limbs) for any `x`, in constant time: Horner's rule over chunks of k
/// limbs from the top, each step `acc = (acc b^k + chunk) mod m`, as one Montgomery reduction
/// of the 2k-limb `acc b^k + chunk` (< m R since acc < m and chunk < R) followed by one
/// product with R^2 (`to_repr`), which undoes the reduction's R^{-1}.
/// Leaks: the lengths only, over a constant-time reducer.
fn reduce_ct(x: &[Limb], r: &dyn Reducer) -> Vec<Limb> {
    let k = r.len();
    let mut scratch = vec![0; r.scratch_len()];
    let mut acc = vec![0; k];
    let mut wide = vec![0; 2 * k];
    let mut t = vec![0; k];
    let chunks = x.len().div_ceil(k);
    for c in (0..chunks).rev() {
        let lo = c * k;
        let hi = (lo + k).min(x.len());
        wide[..k].fill(0);
        wide[..hi - lo].copy_from_slice(&x[lo..hi]);
        wide[k..].copy_from_slice(&acc);
        r.reduce_wide(&mut t, &mut wide, &mut scratch);
        if r.wide_result() == WideResult::MontgomeryReduced {
            r.to_repr(&mut acc, &t, &mut scratch);
        } else {
            acc.copy_from_slice(&t);
        }
    }
    acc
}

/// `x` as exactly `len` limbs (`x` must fit).
fn padded(x: &Natural, len: usize) -> Vec<Limb> {
    x.to_padded(len).expect("fits: checked by the caller")
}

impl PrivateKey {
    /// The key with modulus `n`, public exponent `e`, private exponent `d` and, when known,
    /// its primes `p` and `q` (without them, they are recovered from n, e and d as in NIST SP
    /// 800-56B rev. 2, Appendix C). dp, dq and qinv are computed. Errors
    /// ([`Error::InvalidKey`]): the checks of [`PublicKey::new`], p q != n, p = q, a prime
    /// even or below 3, d not below n, e d != 1 mod lcm(p - 1, q - 1), p and q not
    /// recoverable, or only one of them given.
    /// Leaks: variable time in the key (it runs once).
    pub fn from_components(
        n: &Natural,
        e: &Natural,
        d: &Natural,
        p: Option<&Natural>,
        q: Option<&Natural>,
    ) -> Result<Self> {
        let public = PublicKey::new(n, e)?;
        let (p, q) = match (p, q) {
            (Some(p), Some(q)) => (p.clone(), q.clone()),
            (None, None) => recover::primes(n, e, d)?,
            _ => return Err(invalid("give both primes p and q, or neither")),
        };
        Self::build(public, d, p, q, None)
    }

    /// The private key in `data`: PEM ("RSA PRIVATE KEY", PKCS#1, or "PRIVATE KEY", PKCS#8)
    /// or DER (either), unencrypted, with two primes. The stored dp, dq and qinv are checked
    /// against p, q and d. Errors: [`Error::InvalidKey`] naming what is wrong (not a key,
    /// encrypted, not RSA, more than two primes, or a failed check of [`Self::from_components`]).
    /// Leaks: variable time (parsing and validation).
    pub fn from_pem_or_der(data: &[u8]) -> Result<Self> {
        let k = encoding::private_parts(data)?;
        let public = PublicKey::new(&k.n, &k.e)?;
        Self::build(public, &k.d, k.p, k.q, Some([k.dp, k.dq, k.qinv]))
    }

    /// Validates the key (and the stored CRT values `crt`, (dp, dq, qinv), when given; else
    /// computes them) and builds its contexts.
    fn build(
        public: PublicKey,
        d: &Natural,
        p: Natural,
        q: Natural,
        crt: Option<[Natural; 3]>,
    ) -> Result<Self> {
        let n = &public.n;
        let one = Natural::one();
        let three = Natural::from(3u64);
        if p < three || q < three || !p.is_odd() || !q.is_odd() {
            return Err(invalid("the primes p and q must be odd and at least 3"));
        }
        if p == q {
            return Err(invalid("p = q (n must have two distinct prime factors)"));
        }
        if &(&p * &q) != n {
            return Err(invalid("p q != n"));
        }
        if d.is_zero() || d >= n {
            return Err(invalid(
                "the private exponent d must be positive and below n",
            ));
        }
        let pm1 = p.checked_sub_vartime(&one).expect("p >= 3");
        let qm1 = q.checked_sub_vartime(&one).expect("q >= 3");
        let g = exp::gcd_vartime(&pm1, &qm1);
        let lambda = (&pm1 * &qm1).div_rem_vartime(&g).expect("g > 0").0;
        if (&(&public.e * d) % &lambda) != one {
            return Err(invalid(
                "e d != 1 mod lcm(p - 1, q - 1): d does not match e",
            ));
        }
        let (dp, dq) = (d % &pm1, d % &qm1);
        let qinv = exp::inverse_vartime(&(&q % &p), &p)
            .map_err(|_| invalid("q is not invertible modulo p (p and q share a factor)"))?;
        if let Some([dp_stored, dq_stored, qinv_stored]) = crt {
            if dp_stored != dp || dq_stored != dq {
                return Err(invalid(
                    "the stored dp or dq is not d mod (p - 1), d mod (q - 1)",
                ));
            }
            if qinv_stored != qinv {
                return Err(invalid("the stored qinv is not the inverse of q modulo p"));
            }
        }
        let ctx = |m: &Natural| Modulus::new(m, ReducerKind::Auto);
        let (mp, mq) = (ctx(&p)?, ctx(&q)?);
        let pair = CtPair::new(&mp, &mq)?;
        let ct_pq = [mp.ct_reducer()?, mq.ct_reducer()?];
        let ct_n = public.modulus.ct_reducer()?;
        let kp = p.len();
        let mut qinv_repr = vec![0; kp];
        let mut scratch = vec![0; ct_pq[0].scratch_len()];
        ct_pq[0].to_repr(&mut qinv_repr, &padded(&qinv, kp), &mut scratch);
        let lanes =
            FixedLanes::new(core::array::from_fn(|l| [&p, &q][l % 2].limbs())).map(Arc::new);
        Ok(Self {
            crt_exps: [padded(&dp, kp), padded(&dq, q.len())],
            d: d.clone(),
            primes: [p, q],
            qinv: qinv_repr,
            ct_n,
            pair,
            ct_pq,
            lanes,
            blinding: Mutex::new(Vec::new()),
            public,
        })
    }

    /// The public half.
    pub fn public_key(&self) -> &PublicKey {
        &self.public
    }

    /// The private exponent d.
    pub fn d(&self) -> &Natural {
        &self.d
    }

    /// The primes (p, q), in the key's order.
    pub fn primes(&self) -> [&Natural; 2] {
        [&self.primes[0], &self.primes[1]]
    }

    /// Calls `f` on every buffer that holds a secret of the key: p, q, d, dp, dq, qinv, p's
    /// and q's copies in their reducers and the spare blinding factors (r^e, r^{-1}), for
    /// examples/ctgrind/main.rs to mark. Not covered: constants the reducers derived from p and q
    /// when the key was built (-p^{-1} mod 2^64, R^2 mod p, the IFMA digits), which the
    /// kernels read as they read p. Not an API (the `internals` feature).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn for_each_secret(&self, f: &mut dyn FnMut(&[Limb])) {
        for x in [&self.d, &self.primes[0], &self.primes[1]] {
            f(x.limbs());
        }
        for x in [&self.crt_exps[0], &self.crt_exps[1], &self.qinv] {
            f(x);
        }
        for r in &self.ct_pq {
            f(r.modulus());
        }
        if let Ok(spare) = self.blinding.lock() {
            for b in spare.iter() {
                f(&b.r_e);
                f(&b.r_inv);
            }
        }
    }

    /// RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1): `c^d mod n` for `c < n`, by the CRT with
    /// blinding and the check of the module docs. Errors: [`Error::InputOutOfRange`] for
    /// `c >= n`, [`Error::FaultDetected`], [`Error::Randomness`], [`Error::Cancelled`].
    /// Leaks: see the module docs: nothing of c, the blinding factor or the key's secrets.
    pub fn private_op(&self, c: &Natural) -> Result<Natural> {
        let kn = self.public.n.len();
        let x = c.to_padded(kn).ok_or_else(|| self.public.out_of_range())?;
        self.private_limbs(&x).map(Natural::from_limbs)
    }

    /// [`Self::private_op`] on big-endian bytes (any length, leading zeros allowed); the result
    /// has [`PublicKey::size`] bytes (I2OSP).
    /// Leaks: as [`Self::private_op`] (and the input's length in bytes).
    pub fn private_op_bytes(&self, c: &[u8]) -> Result<Vec<u8>> {
        let kn = self.public.n.len();
        let x = limbs_from_be(c, kn).ok_or_else(|| self.public.out_of_range())?;
        let s = self.private_limbs(&x)?;
        Ok(be_from_limbs(&s, self.public.size()))
    }

    /// The private operation on `c` (n's length in limbs).
    fn private_limbs(&self, c: &[Limb]) -> Result<Vec<Limb>> {
        self.public.check_below_n(c)?;
        let blinding = self.take_blinding()?;
        let (s, next) = self.private_blinded(c, blinding, &mut |_| {})?;
        self.return_blinding(next);
        Ok(s)
    }

    /// Steps 2-6 of the module docs with the given blinding factor; returns the result and the
    /// factor for the next call. `fault` sees the recombined value before the check (tests
    /// flip a bit there).
    /// Leaks: nothing but the lengths and the checks' verdicts (constant time).
    fn private_blinded(
        &self,
        c: &[Limb],
        b: Blinding,
        fault: &mut dyn FnMut(&mut [Limb]),
    ) -> Result<(Vec<Limb>, Option<Blinding>)> {
        let (blinded, halves) = self.blind(c, &b);
        let [m1, m2] = self.pair.pow_limbs(
            [&halves[0], &halves[1]],
            [&self.crt_exps[0], &self.crt_exps[1]],
            self.crt_exp_bits(),
            &mut NoTrace,
        );
        if crate::cancel::requested() {
            return Err(Error::Cancelled);
        }
        self.finish(&blinded, &m1, &m2, b, fault)
    }

    /// The scan lengths of dp and dq (their limb lengths, public).
    fn crt_exp_bits(&self) -> [usize; 2] {
        [0, 1].map(|i| 64 * self.crt_exps[i].len())
    }

    /// Step 2 and the CRT split: `c' = c r^e mod n` and `(c' mod p, c' mod q)`.
    /// Leaks: nothing but the lengths (constant time).
    fn blind(&self, c: &[Limb], b: &Blinding) -> (Vec<Limb>, [Vec<Limb>; 2]) {
        let n = &*self.ct_n;
        let mut scratch = vec![0; n.scratch_len()];
        // mul(repr(x), y) = x y for every reducer representation.
        let mut blinded = vec![0; n.len()];
        n.mul(&mut blinded, &b.r_e, c, &mut scratch);
        let halves = [0, 1].map(|i| reduce_ct(&blinded, &*self.ct_pq[i]));
        (blinded, halves)
    }

    /// Steps 4-6 for `blinded` = c' and its halves' powers m1 = c'^dp mod p, m2 = c'^dq mod q:
    /// the result and the factor for the next call.
    /// Leaks: nothing but the lengths and the check's verdict (constant time).
    fn finish(
        &self,
        blinded: &[Limb],
        m1: &[Limb],
        m2: &[Limb],
        b: Blinding,
        fault: &mut dyn FnMut(&mut [Limb]),
    ) -> Result<(Vec<Limb>, Option<Blinding>)> {
        let n = &*self.ct_n;
        let kn = n.len();
        let mut scratch = vec![0; n.scratch_len()];
        let mut s = self.garner(m1, m2, kn);
        fault(&mut s);
        // The check: s^e = c r^e mod n (e public; constant-time products, so s's value does not
        // show).
        let v =
            exp::ct::pow_public_exp(self.public.modulus.ct_first(), n, &s, self.public.e.limbs());
        let equal = v
            .iter()
            .zip(blinded)
            .fold(Choice::from_bit(1), |acc, (&x, &y)| acc & Choice::eq(x, y));
        if !equal.declassify() {
            return Err(Error::FaultDetected);
        }
        let mut out = vec![0; kn];
        n.mul(&mut out, &b.r_inv, &s, &mut scratch);
        Ok((out, self.next_blinding(b, &mut scratch)))
    }

    /// [`Self::private_op`] of every input, in parallel on the rayon pool: one result per input
    /// (an input `>= n` gets [`Error::InputOutOfRange`] in its place), or
    /// [`Error::Threads`] if no worker thread could be started. On the AVX-512 IFMA tier, for
    /// odd primes of 512 to 4096 bits each, four inputs run at once: their eight CRT halves
    /// in the eight lanes of one pass (`reduce::montgomery::ifma_lanes`), each input with its
    /// own blinding factor and fault check (from 2560-bit primes only where the lanes measure
    /// faster on this CPU, once per size). Elsewhere the inputs run one by one
    /// ([`Self::private_op`]'s two-at-once pass).
    /// Leaks: as [`Self::private_op`] for each input, and which inputs are valid.
    pub fn private_op_many(&self, cs: &[Natural]) -> Result<Vec<Result<Natural>>> {
        use rayon::prelude::*;
        let kn = self.public.n.len();
        let token = crate::cancel::Token::current();
        exp::batch::on_pool(|| {
            cs.par_chunks(LANES_PER_INPUT_GROUP)
                .flat_map_iter(|group| {
                    token.install(|| {
                        if crate::cancel::requested() {
                            return group.iter().map(|_| Err(Error::Cancelled)).collect();
                        }
                        let inputs: Vec<Result<Vec<Limb>>> = group
                            .iter()
                            .map(|c| {
                                let x =
                                    c.to_padded(kn).ok_or_else(|| self.public.out_of_range())?;
                                self.public.check_below_n(&x)?;
                                Ok(x)
                            })
                            .collect();
                        self.private_group(inputs)
                    })
                })
                .collect()
        })
    }

    /// The private operation of up to [`LANES_PER_INPUT_GROUP`] checked inputs (errors pass
    /// through in their place), in the lanes where the key has them.
    fn private_group(&self, inputs: Vec<Result<Vec<Limb>>>) -> Vec<Result<Natural>> {
        let one_by_one = |inputs: Vec<Result<Vec<Limb>>>| {
            inputs
                .into_iter()
                .map(|x| self.private_limbs(&x?).map(Natural::from_limbs))
                .collect()
        };
        let valid = inputs.iter().filter(|x| x.is_ok()).count();
        let Some(lanes) = self.lanes.as_deref().filter(|_| valid >= 2) else {
            return one_by_one(inputs);
        };
        // Each valid input: its blinding factor, c' and halves.
        let mut work = Vec::with_capacity(valid);
        for x in inputs.iter().flatten() {
            let b = match self.take_blinding() {
                Ok(b) => b,
                Err(err) => return inputs.iter().map(|_| Err(err.clone())).collect(),
            };
            let (blinded, halves) = self.blind(x, &b);
            work.push((b, blinded, halves));
        }
        // Lane 2i runs input i's half mod p, lane 2i + 1 its half mod q; unused lanes repeat
        // input 0's.
        let half = |l: usize| &work[(l / 2).min(work.len() - 1)].2[l % 2][..];
        let powers = lanes.pow_ct(
            core::array::from_fn(half),
            core::array::from_fn(|l| &self.crt_exps[l % 2][..]),
            self.crt_exp_bits().into_iter().max().unwrap_or(0),
        );
        if crate::cancel::requested() {
            return inputs.iter().map(|_| Err(Error::Cancelled)).collect();
        }
        let mut done = work.into_iter().enumerate().map(|(i, (b, blinded, _))| {
            let (s, next) =
                self.finish(&blinded, &powers[2 * i], &powers[2 * i + 1], b, &mut |_| {})?;
            self.return_blinding(next);
            Ok(Natural::from_limbs(s))
        });
        inputs
            .into_iter()
            .map(|x| match x {
                Ok(_) => done.next().unwrap_or(Err(Error::Cancelled)),
                Err(err) => Err(err),
            })
            .collect()
    }

    /// Garner's recombination `m2 + q (qinv (m1 - m2) mod p)` as n's length in limbs, for
    /// `m1 < p`, `m2 < q`.
    /// Leaks: nothing but the lengths (constant time).
    fn garner(&self, m1: &[Limb], m2: &[Limb], kn: usize) -> Vec<Limb> {
        let p = &*self.ct_pq[0];
        let q = self.primes[1].limbs();
        let kp = p.len();
        let m2_mod_p = reduce_ct(m2, p);
        let mut diff = vec![0; kp];
        arith::sub_mod(&mut diff, m1, &m2_mod_p, p.modulus());
        let mut h = vec![0; kp];
        let mut scratch = vec![0; p.scratch_len()];
        p.mul(&mut h, &self.qinv, &diff, &mut scratch);
        // s = m2 + h q < q + (p - 1) q = n: the product's top limbs beyond n's length are 0.
        let mut s = vec![0; kp + q.len()];
        arith::mul_basecase(&mut s, &h, q);
        let mut carry = arith::add_n_in_place(&mut s[..m2.len()], m2);
        for limb in &mut s[m2.len()..] {
            (*limb, carry) = crate::limb::adc(*limb, 0, carry);
        }
        debug_assert_eq!(carry, 0);
        debug_assert!(s[kn..].iter().all(|&l| l == 0));
        s.truncate(kn);
        s
    }

    /// A blinding factor from the spare ones, or a fresh one.
    fn take_blinding(&self) -> Result<Blinding> {
        let spare = self.blinding.lock().ok().and_then(|mut v| v.pop());
        match spare {
            Some(b) => Ok(b),
            None => self.fresh_blinding(),
        }
    }

    fn return_blinding(&self, b: Option<Blinding>) {
        if let (Some(b), Ok(mut spare)) = (b, self.blinding.lock()) {
            spare.push(b);
        }
    }

    /// The factor after `b`: (r^2)^e and r^{-2}, or none once it has served
    /// [`BLINDING_USES`] times.
    fn next_blinding(&self, mut b: Blinding, scratch: &mut [Limb]) -> Option<Blinding> {
        b.uses += 1;
        if b.uses >= BLINDING_USES {
            return None;
        }
        let n = &*self.ct_n;
        let mut t = vec![0; n.len()];
        n.sqr(&mut t, &b.r_e, scratch);
        core::mem::swap(&mut t, &mut b.r_e);
        n.sqr(&mut t, &b.r_inv, scratch);
        core::mem::swap(&mut t, &mut b.r_inv);
        Some(b)
    }

    /// A fresh factor: r uniform in [1, n) from the operating system, r^e by the constant-time
    /// scan, r^{-1} as (r u)^{-1} u with u random too, so the variable-time inverse sees only
    /// r u, independent of r.
    fn fresh_blinding(&self) -> Result<Blinding> {
        let n = &*self.ct_n;
        let kn = n.len();
        let mut scratch = vec![0; n.scratch_len()];
        let (r, u) = (self.random_below_n()?, self.random_below_n()?);
        let mut ru = vec![0; kn];
        let mut r_repr = vec![0; kn];
        n.to_repr(&mut r_repr, &r, &mut scratch);
        n.mul(&mut ru, &r_repr, &u, &mut scratch);
        let Ok(ru_inv) = exp::inverse_vartime(&Natural::from_slice(&ru), &self.public.n) else {
            // gcd(r u, n) > 1 (r u = 0, or a factor of n drawn at random): try again.
            return self.fresh_blinding();
        };
        let mut r_inv = vec![0; kn];
        let mut u_repr = vec![0; kn];
        n.to_repr(&mut u_repr, &u, &mut scratch);
        n.mul(&mut r_inv, &u_repr, &padded(&ru_inv, kn), &mut scratch);
        let r_e =
            exp::ct::pow_public_exp(self.public.modulus.ct_first(), n, &r, self.public.e.limbs());
        let mut r_e_repr = vec![0; kn];
        n.to_repr(&mut r_e_repr, &r_e, &mut scratch);
        let mut r_inv_repr = vec![0; kn];
        n.to_repr(&mut r_inv_repr, &r_inv, &mut scratch);
        Ok(Blinding {
            r_e: r_e_repr,
            r_inv: r_inv_repr,
            uses: 0,
        })
    }

    /// A uniform value in [1, n) as n's length in limbs: random bits of n's length, drawn
    /// again when not in range (each draw is independent, so retries show nothing).
    fn random_below_n(&self) -> Result<Vec<Limb>> {
        let n = self.public.n.limbs();
        let bits = self.public.bits();
        let mut bytes = vec![0u8; 8 * n.len()];
        loop {
            getrandom::fill(&mut bytes).map_err(|e| Error::Randomness(e.to_string()))?;
            let mut x: Vec<Limb> = bytes
                .chunks_exact(8)
                .map(|c| Limb::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect();
            let top_bits = bits - 64 * (n.len() - 1);
            if top_bits < 64 {
                x[n.len() - 1] &= (1 << top_bits) - 1;
            }
            if !arith::is_zero(&x) && arith::lt_n_ct(&x, n).to_bool_vartime() {
                return Ok(x);
            }
        }
    }
}

#[cfg(test)]
mod tests;
