//! The report header: machine, kernel tier, library versions, date and protocol.

use super::harness::Protocol;
use serde::{Deserialize, Serialize};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Header {
    pub cpu: String,
    pub cores: usize,
    /// The kernel tier modred ran on (`modred::cpu::tier`: the CPU's best, capped by
    /// `MODRED_CPU`).
    #[serde(default)]
    pub kernel_tier: String,
    /// The tiers this CPU has.
    #[serde(default)]
    pub cpu_tiers: Vec<String>,
    /// The CPU feature flags the kernel tier uses.
    #[serde(default)]
    pub cpu_flags: Vec<String>,
    pub gmp: String,
    pub openssl: String,
    pub modred: String,
    pub date_utc: String,
    pub profile: String,
    pub quick: bool,
    pub protocol: String,
    pub wall_seconds: f64,
    /// Wall time per section, in run order (a child tier's run as `id (tier)`).
    pub section_seconds: Vec<(String, f64)>,
    /// The lower tiers the tier-dependent sections also ran at, in child processes
    /// (`--tiers`), highest first; empty when none gave tables.
    #[serde(default)]
    pub child_tiers: Vec<String>,
    /// What went wrong without stopping the report (a child tier that failed).
    #[serde(default)]
    pub warnings: Vec<String>,
}

impl Header {
    pub fn collect(
        proto: &Protocol,
        quick: bool,
        wall: Duration,
        section_seconds: Vec<(String, f64)>,
    ) -> Self {
        Self {
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            kernel_tier: modred::cpu::tier().to_string(),
            cpu_tiers: modred::cpu::available()
                .iter()
                .map(ToString::to_string)
                .collect(),
            cpu_flags: modred::cpu::tier()
                .flags()
                .iter()
                .map(ToString::to_string)
                .collect(),
            gmp: format!(
                "GMP {}.{}.{} ({})",
                gmp_mpfr_sys::gmp::VERSION,
                gmp_mpfr_sys::gmp::VERSION_MINOR,
                gmp_mpfr_sys::gmp::VERSION_PATCHLEVEL,
                gmp_build()
            ),
            openssl: format!("{} (system libcrypto)", openssl::version::version()),
            modred: format!("modred {}", env!("CARGO_PKG_VERSION")),
            date_utc: date_utc(SystemTime::now()),
            profile: if cfg!(debug_assertions) {
                "debug (timings not meaningful: use --release)".into()
            } else {
                "release".into()
            },
            quick,
            protocol: proto.describe(),
            wall_seconds: wall.as_secs_f64(),
            section_seconds,
            child_tiers: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// How the GMP the report links was built: the label `scripts/gmp-native.sh` sets at compile
/// time for a GMP configured for this CPU, else rug's bundled fat build, whose run-time
/// dispatch may not know this CPU (GMP 6.3 knows no Intel model after Kaby Lake and then runs
/// its generic x86-64 kernels: `docs/performance.md`).
fn gmp_build() -> &'static str {
    option_env!("MODRED_REPORT_GMP").unwrap_or(
        "bundled by gmp-mpfr-sys via rug: a fat build, generic kernels on CPUs its dispatch \
         does not know; scripts/gmp-native.sh compares with GMP built for this CPU",
    )
}

/// `model name` of /proc/cpuinfo, or "unknown".
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_else(|| format!("unknown ({})", std::env::consts::ARCH))
}

/// `YYYY-MM-DD HH:MM UTC` from the system clock (civil-from-days, proleptic Gregorian).
pub fn date_utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_utc(UNIX_EPOCH), "1970-01-01 00:00 UTC");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_350_000); // 2026-11-22 ...
        assert!(date_utc(t).starts_with("2026-11-22"), "{}", date_utc(t));
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(date_utc(leap), "2000-02-29 00:00 UTC");
    }
}
