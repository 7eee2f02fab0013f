//! Kernel tiers: which CPU-specific kernels run, detected once per process.
//!
//! A [`Tier`] names a set of kernels; each tier includes the ones below it:
//! - [`Tier::Portable`]: plain Rust, every target (what aarch64 runs);
//! - [`Tier::Adx`]: x86-64 with BMI2 and ADX: the MULX/ADCX/ADOX row and fixed-size kernels;
//! - [`Tier::Ifma`]: additionally AVX-512F and AVX-512 IFMA: the radix-2^52 exponentiation.
//!
//! The tier in use ([`tier`]) is the best one this CPU has ([`detected`]), capped by the
//! environment:
//! - `MODRED_CPU=portable|adx|ifma` caps the tier (asking for more than the CPU has gives what
//!   it has). An empty value counts as unset. Any other value is reported once on stderr and
//!   treated as `portable`: a cap that cannot be read never enables more than it might have
//!   meant to allow.
//! - `MODRED_NO_ASM=1` (or `true`, `yes`, `on`) is an alias for `MODRED_CPU=portable`; `0`,
//!   `false`, `no`, `off` and the empty value leave the tier alone; any other value is
//!   reported on stderr and read as true.
//!
//! Both are read once, at the first use. The arithmetic on slices and the non-Montgomery
//! reducers follow [`tier`]; a Montgomery context keeps the tier it was built with
//! ([`crate::reduce::montgomery::Montgomery::with_tier`], [`crate::exp::Modulus::with_tier`]) for
//! all its products and exponentiations, so tests can run every tier of [`available`] in one
//! process. Builds with the `count` feature (every single-precision operation counted) and
//! non-x86-64 targets detect [`Tier::Portable`] only.
//!
//! Soundness: the kernels of a tier above `Portable` use CPU instructions this module detected.
//! The library hands its kernels only tiers from [`tier`] or [`cap`], both at most
//! [`detected`]; a tier a caller asks for reaches them only through [`cap`].

use crate::error::{Error, Result};
use core::fmt;
use core::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

/// A set of CPU-specific kernels, ordered: each tier includes the ones below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Portable Rust only.
    Portable,
    /// MULX (BMI2) and ADCX/ADOX (ADX) kernels.
    Adx,
    /// The ADX kernels plus the AVX-512 IFMA exponentiation.
    Ifma,
}

impl Tier {
    /// Every tier, in order.
    pub const ALL: [Tier; 3] = [Tier::Portable, Tier::Adx, Tier::Ifma];

    /// The name `MODRED_CPU` accepts.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Portable => "portable",
            Tier::Adx => "adx",
            Tier::Ifma => "ifma",
        }
    }

    /// The CPU feature flags (as in /proc/cpuinfo) the tier's kernels use.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            Tier::Portable => &[],
            Tier::Adx => &["bmi2", "adx"],
            Tier::Ifma => &["bmi2", "adx", "avx512f", "avx512ifma"],
        }
    }

    fn from_index(i: u8) -> Tier {
        Tier::ALL[usize::from(i)]
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Tier {
    type Err = Error;
    /// `portable`, `adx` or `ifma` (ASCII case ignored).
    fn from_str(s: &str) -> Result<Tier> {
        Tier::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| Error::UnknownName {
                what: "kernel tier",
                name: s.to_string(),
                known: Tier::ALL.map(Tier::name).join(", "),
            })
    }
}

/// The best tier this CPU has, by CPUID (no environment). Portable with the `count` feature
/// (its counters see only the portable kernels) and off x86-64.
fn detect_cpu() -> Tier {
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    {
        use std::arch::is_x86_feature_detected as has;
        // valgrind runs ADX but hides it from CPUID: the `ctgrind` build (examples/ctgrind/main.rs)
        // takes the word of scripts/ctgrind.sh, which sets this only when /proc/cpuinfo lists
        // bmi2 and adx. (valgrind has no AVX-512: IFMA stays undetected there.)
        #[cfg(feature = "ctgrind")]
        if std::env::var_os("MODRED_CTGRIND_ADX").is_some() && !has!("adx") {
            return Tier::Adx;
        }
        if has!("bmi2") && has!("adx") {
            return if has!("avx512f") && has!("avx512ifma") {
                Tier::Ifma
            } else {
                Tier::Adx
            };
        }
    }
    Tier::Portable
}

/// A warning on stderr, prefixed `modred: `; a failing stderr is ignored (never a panic).
fn warn(msg: core::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "modred: {msg}");
}

/// The cap the environment sets (see the module docs), `None` without one; an unreadable
/// `MODRED_CPU` gives a warning on stderr and the portable tier.
fn env_cap() -> Option<Tier> {
    let no_asm = std::env::var_os("MODRED_NO_ASM").and_then(|v| {
        let v = v.to_string_lossy().trim().to_ascii_lowercase();
        match v.as_str() {
            "" | "0" | "false" | "no" | "off" => None,
            "1" | "true" | "yes" | "on" => Some(Tier::Portable),
            _ => {
                warn(format_args!(
                    "MODRED_NO_ASM={v:?} is not 1/true/yes/on or 0/false/no/off; using the portable kernels"
                ));
                Some(Tier::Portable)
            }
        }
    });
    let cpu = match std::env::var("MODRED_CPU") {
        Ok(v) if v.trim().is_empty() => None,
        Ok(v) => Some(v.parse().unwrap_or_else(|e: Error| {
            warn(format_args!("MODRED_CPU: {e}; using the portable kernels"));
            Tier::Portable
        })),
        Err(std::env::VarError::NotPresent) => None,
        Err(std::env::VarError::NotUnicode(v)) => {
            warn(format_args!(
                "MODRED_CPU={v:?} is not one of portable, adx, ifma; using the portable kernels"
            ));
            Some(Tier::Portable)
        }
    };
    no_asm.into_iter().chain(cpu).min()
}

/// A tier computed once, with a relaxed atomic in front of the `OnceLock` (0: not yet, else
/// the tier's index + 1), so the per-call check of the slice kernels is one load.
#[inline]
fn cached(fast: &AtomicU8, slow: &'static OnceLock<Tier>, compute: fn() -> Tier) -> Tier {
    match fast.load(Ordering::Relaxed) {
        0 => {
            let t = *slow.get_or_init(compute);
            fast.store(t as u8 + 1, Ordering::Relaxed);
            t
        }
        i => Tier::from_index(i - 1),
    }
}

/// The best tier this CPU has (ignoring the environment), detected once.
pub fn detected() -> Tier {
    static FAST: AtomicU8 = AtomicU8::new(0);
    static SLOW: OnceLock<Tier> = OnceLock::new();
    cached(&FAST, &SLOW, detect_cpu)
}

/// The tiers this CPU has, in order (always starting with [`Tier::Portable`]).
pub fn available() -> Vec<Tier> {
    Tier::ALL.into_iter().filter(|&t| t <= detected()).collect()
}

/// The tier in use: [`detected`] capped by `MODRED_CPU` / `MODRED_NO_ASM`, read once.
#[inline]
pub fn tier() -> Tier {
    static FAST: AtomicU8 = AtomicU8::new(0);
    static SLOW: OnceLock<Tier> = OnceLock::new();
    cached(&FAST, &SLOW, || {
        env_cap().map_or(detected(), |cap| cap.min(detected()))
    })
}

/// Whether the CPU is Intel's (CPUID vendor `GenuineIntel`), read once: a few thresholds differ
/// between Intel and AMD cores of the same tier ([`crate::tuning`]). False off x86-64.
pub(crate) fn is_intel() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static INTEL: OnceLock<bool> = OnceLock::new();
        *INTEL.get_or_init(|| {
            // SAFETY: CPUID leaf 0 exists on every x86-64 CPU (`unsafe` for Rust before 1.94,
            // which made `__cpuid` safe to call).
            #[allow(unused_unsafe)]
            let id = unsafe { core::arch::x86_64::__cpuid(0) };
            // The vendor string is EBX, EDX, ECX: "Genu" "ineI" "ntel".
            (id.ebx, id.edx, id.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e)
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `requested` capped by what this CPU has (not by the environment): the tier an explicitly
/// built context runs.
pub fn cap(requested: Tier) -> Tier {
    requested.min(detected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order() {
        for t in Tier::ALL {
            assert_eq!(t.name().parse::<Tier>(), Ok(t));
            assert_eq!(t.to_string(), t.name());
        }
        assert_eq!(" IFMA ".parse::<Tier>(), Ok(Tier::Ifma));
        let err = "avx2".parse::<Tier>().unwrap_err().to_string();
        assert!(
            err.contains("avx2") && err.contains("portable, adx, ifma"),
            "{err}"
        );
        assert!(Tier::Portable < Tier::Adx && Tier::Adx < Tier::Ifma);
    }

    #[test]
    fn tiers_are_capped_by_the_cpu() {
        let best = detected();
        assert_eq!(available().first(), Some(&Tier::Portable));
        assert_eq!(available().last(), Some(&best));
        assert!(tier() <= best);
        for t in Tier::ALL {
            assert_eq!(cap(t), t.min(best));
        }
        // The flags name what the detection checked.
        assert!(Tier::Ifma.flags().starts_with(Tier::Adx.flags()));
    }
}
