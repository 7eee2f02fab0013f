//! Child tiers (`--tiers`): the report re-runs its tier-dependent sections (those with
//! [`Section::tiers`](crate::sections::Section), e.g. `scaling`) in child processes of itself
//! capped to lower kernel tiers, so one run on an IFMA machine also shows what a CPU without
//! IFMA gets.
//!
//! The child is this executable with the hidden option `--tier-child <tier>`, the section as
//! `--only <id>`, the parent's measurement options, and in its environment `MODRED_CPU=<tier>`
//! (modred reads it once per process) and `OPENSSL_ia32cap` clearing the instructions the tier
//! lacks, so OpenSSL loses them too ([`openssl_cap`]). It prints [`ChildOutput`] as JSON on
//! stdout; its progress lines (stderr) are read by the parent and shown as its own progress.
//! The parent suffixes the tables' ids with the tier (`scaling-mul-adx`) and says the tier in
//! their titles and first note. A child that cannot start, fails, or prints unreadable JSON is
//! an error message for the report's warnings, never a panic.

use crate::table::Table;
use crate::{harness, sections, Ctx, ReportArgs};
use modred::cpu::Tier;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

/// What a child prints on stdout.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChildOutput {
    /// The tier the child ran at (`modred::cpu::tier()` there).
    pub tier: String,
    pub tables: Vec<Table>,
}

/// Stderr lines of a failed child quoted in its error message.
const STDERR_TAIL: usize = 8;

/// The child tiers `--tiers` selects, highest first. Default (no `--tiers`): every tier below
/// the process's own ([`modred::cpu::tier`]) except `portable` (e.g. `adx` on an IFMA machine);
/// `none`: no child. A tier at or above the process's own is a usage error.
pub fn select(arg: Option<&[String]>) -> Result<Vec<Tier>, String> {
    let own = modred::cpu::tier();
    let below: Vec<Tier> = modred::cpu::available()
        .into_iter()
        .rev()
        .filter(|&t| t < own)
        .collect();
    let Some(list) = arg else {
        return Ok(below.into_iter().filter(|&t| t > Tier::Portable).collect());
    };
    let names = |ts: &[Tier]| {
        if ts.is_empty() {
            "none".to_string()
        } else {
            ts.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
        }
    };
    if list.iter().any(|s| s.trim() == "none") {
        return if list.len() == 1 {
            Ok(Vec::new())
        } else {
            Err("--tiers none cannot be combined with tiers".to_string())
        };
    }
    let mut out = Vec::new();
    for s in list {
        let t: Tier = s.parse().map_err(|_| {
            format!("--tiers {s}: not a kernel tier (one of portable, adx, ifma, or none)")
        })?;
        if t >= own {
            return Err(format!(
                "--tiers {t}: the report itself runs at tier {own}; child tiers must be below it \
                 (available: {})",
                names(&below)
            ));
        }
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out.sort_by(|a, b| b.cmp(a));
    Ok(out)
}

/// `OPENSSL_ia32cap` for a child at `tier`: the second word masks CPUID leaf 7 EBX, AVX512IFMA
/// (bit 21) below `ifma`, and also BMI2 (bit 8) and ADX (bit 19) at `portable`.
pub fn openssl_cap(tier: Tier) -> Option<&'static str> {
    match tier {
        Tier::Ifma => None,
        Tier::Adx => Some(":~0x200000"),
        Tier::Portable => Some(":~0x280100"),
    }
}

/// The command that runs section `id` at `tier` with the parent's measurement options.
pub fn child_command(args: &ReportArgs, tier: Tier, id: &str) -> Result<Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["--tier-child", tier.name(), "--only", id]);
    if args.quick {
        cmd.arg("--quick");
    }
    if let Some(sizes) = &args.sizes {
        let list: Vec<String> = sizes.iter().map(ToString::to_string).collect();
        cmd.args(["--sizes", &list.join(",")]);
    }
    if let Some(r) = args.rounds {
        cmd.args(["--rounds", &r.to_string()]);
    }
    if let Some(ms) = args.sample_ms {
        cmd.args(["--sample-ms", &ms.to_string()]);
    }
    cmd.args([
        "--clock",
        match args.clock {
            harness::Clock::Cpu => "cpu",
            harness::Clock::Wall => "wall",
        },
    ]);
    cmd.env("MODRED_CPU", tier.name())
        .env_remove("MODRED_NO_ASM");
    match openssl_cap(tier) {
        Some(cap) => cmd.env("OPENSSL_ia32cap", cap),
        None => cmd.env_remove("OPENSSL_ia32cap"),
    };
    Ok(cmd)
}

/// A progress line of the child without its `report [   1.2 s] ` prefix.
fn strip_progress(line: &str) -> &str {
    line.strip_prefix("report [")
        .and_then(|rest| rest.split_once(" s] "))
        .map_or(line, |(_, msg)| msg)
        .trim()
}

/// Run `cmd` (a child), passing each stderr line to `progress`, and read its tables: an error
/// message if it cannot start, exits with failure (quoting its last stderr lines), or prints
/// anything but [`ChildOutput`] for `tier`.
pub fn run_child(
    mut cmd: Command,
    tier: Tier,
    progress: &dyn Fn(&str),
) -> Result<Vec<Table>, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the child process: {e}"))?;
    let (Some(mut stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err("the child process has no pipes".to_string());
    };
    // stdout on its own thread, so neither pipe can fill up and block the child.
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).map(|_| buf)
    });
    let mut tail: VecDeque<String> = VecDeque::new();
    let mut lines = BufReader::new(stderr);
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match lines.read_until(b'\n', &mut raw) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&raw);
                let msg = strip_progress(line.trim_end());
                if msg.is_empty() {
                    continue;
                }
                progress(msg);
                if tail.len() == STDERR_TAIL {
                    tail.pop_front();
                }
                tail.push_back(msg.to_string());
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for the child: {e}"))?;
    let out = match reader.join() {
        Ok(Ok(buf)) => buf,
        Ok(Err(e)) => return Err(format!("reading the child's output: {e}")),
        Err(_) => return Err("reading the child's output: the reader thread failed".into()),
    };
    let last = || {
        if tail.is_empty() {
            String::new()
        } else {
            format!(
                "; its last messages: {}",
                tail.iter().cloned().collect::<Vec<_>>().join(" | ")
            )
        }
    };
    if !status.success() {
        return Err(format!("the child process failed ({status}){}", last()));
    }
    let doc: ChildOutput = serde_json::from_slice(&out).map_err(|e| {
        format!(
            "the child's output is not the expected JSON ({e}; {} bytes){}",
            out.len(),
            last()
        )
    })?;
    if doc.tier != tier.name() {
        return Err(format!(
            "the child ran at tier {} instead of {tier}",
            doc.tier
        ));
    }
    Ok(doc.tables)
}

/// Mark a child's table: id and plot file suffixed with the tier, the tier in the title, and
/// a first note on how the child was capped.
pub fn retag(t: &mut Table, tier: Tier) {
    t.id = format!("{}-{tier}", t.id);
    t.title = format!("{} — {tier} tier", t.title);
    if let Some(p) = &mut t.plot {
        let stem = p.file.strip_suffix(".svg").unwrap_or(&p.file);
        p.file = format!("{stem}-{tier}.svg");
    }
    let ossl = match openssl_cap(tier) {
        Some(cap) => format!(
            " and `OPENSSL_ia32cap=\"{cap}\"` (OpenSSL loses {} too)",
            if tier == Tier::Portable {
                "AVX-512 IFMA, ADX and BMI2"
            } else {
                "AVX-512 IFMA"
            }
        ),
        None => String::new(),
    };
    t.notes.insert(
        0,
        format!(
            "Measured by a child process of the report (`--tiers`) with `MODRED_CPU={tier}`{ossl}: \
             modred's kernel tier {tier}, as on a CPU without the tiers above it. GMP keeps the \
             kernels it was built with for this CPU."
        ),
    );
}

/// The tables of section `id` at `tier` from a child process, retagged ([`retag`]); its
/// progress goes to `ctx`'s.
pub fn run_section(
    args: &ReportArgs,
    ctx: &Ctx,
    tier: Tier,
    id: &str,
) -> Result<Vec<Table>, String> {
    let cmd = child_command(args, tier, id)?;
    let mut tables = run_child(cmd, tier, &|msg| ctx.step(format!("[{tier}] {msg}")))?;
    if tables.is_empty() {
        return Err("the child returned no tables".to_string());
    }
    for t in &mut tables {
        retag(t, tier);
    }
    Ok(tables)
}

/// The child's side (`--tier-child <tier>`): run the tier-dependent sections named by
/// `--only` (exact ids) and return [`ChildOutput`] as JSON. Errors: a tier that does not
/// parse or is not the one this process runs at (`MODRED_CPU` not set to it), or no such
/// section.
pub fn child_main(args: &ReportArgs, tier: &str) -> Result<String, String> {
    let want: Tier = tier
        .parse()
        .map_err(|_| format!("--tier-child {tier}: not a kernel tier"))?;
    let own = modred::cpu::tier();
    if own != want {
        return Err(format!(
            "--tier-child {want}: this process runs at tier {own}; set MODRED_CPU={want} in \
             its environment"
        ));
    }
    let selected: Vec<sections::Section> = sections::all()
        .into_iter()
        .filter(|s| s.tiers && args.only.iter().any(|o| o == s.id))
        .collect();
    if selected.is_empty() {
        let known: Vec<&str> = sections::all()
            .into_iter()
            .filter(|s| s.tiers)
            .map(|s| s.id)
            .collect();
        return Err(format!(
            "--tier-child needs --only with a tier-dependent section: {}",
            known.join(", ")
        ));
    }
    let mut ctx = crate::context(args, selected.len());
    let mut tables = Vec::new();
    for (i, s) in selected.iter().enumerate() {
        ctx.progress.section(i, selected.len(), s.id);
        tables.extend((s.run)(&mut ctx));
    }
    ctx.progress.finish();
    let doc = ChildOutput {
        tier: own.name().to_string(),
        tables,
    };
    serde_json::to_string(&doc).map_err(|e| format!("serialising the tables: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(s: &[&str]) -> Vec<String> {
        s.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn tiers_are_checked() {
        let own = modred::cpu::tier();
        assert_eq!(select(Some(&list(&["none"]))), Ok(vec![]));
        assert!(select(Some(&list(&["none", "adx"])))
            .unwrap_err()
            .contains("none"));
        assert!(select(Some(&list(&["fast"])))
            .unwrap_err()
            .contains("--tiers fast"));
        // ifma is the top tier: never below the process's own.
        assert!(select(Some(&list(&["ifma"])))
            .unwrap_err()
            .contains("below"));
        let default = select(None).unwrap();
        assert!(default.iter().all(|&t| t < own && t > Tier::Portable));
        if own > Tier::Portable {
            assert_eq!(
                select(Some(&list(&["portable", "portable"]))),
                Ok(vec![Tier::Portable])
            );
        }
        if own == Tier::Ifma {
            assert_eq!(default, vec![Tier::Adx]);
            assert_eq!(
                select(Some(&list(&["portable", "adx"]))),
                Ok(vec![Tier::Adx, Tier::Portable])
            );
        }
    }

    #[test]
    fn progress_prefix_is_stripped() {
        assert_eq!(
            strip_progress("report [   3.1 s]   scaling mul 4096 bits"),
            "scaling mul 4096 bits"
        );
        assert_eq!(strip_progress("modred: warning"), "modred: warning");
    }

    #[cfg(unix)]
    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[cfg(unix)]
    #[test]
    fn child_failures_are_messages() {
        let seen = std::cell::RefCell::new(Vec::new());
        let progress = |m: &str| seen.borrow_mut().push(m.to_string());
        let e = run_child(
            sh("echo 'report [ 0.1 s] section 1/1: scaling' >&2; echo boom >&2; exit 3"),
            Tier::Adx,
            &progress,
        )
        .unwrap_err();
        assert!(
            e.contains("failed") && e.contains('3') && e.contains("boom"),
            "{e}"
        );
        assert_eq!(seen.borrow()[0], "section 1/1: scaling");
        let e = run_child(sh("echo not json"), Tier::Adx, &progress).unwrap_err();
        assert!(e.contains("not the expected JSON"), "{e}");
        let e = run_child(
            sh(r#"echo '{"tier":"portable","tables":[]}'"#),
            Tier::Adx,
            &progress,
        )
        .unwrap_err();
        assert!(e.contains("instead of adx"), "{e}");
        let ok = run_child(
            sh(r#"echo '{"tier":"adx","tables":[]}'"#),
            Tier::Adx,
            &progress,
        );
        assert_eq!(ok.map(|t| t.len()), Ok(0));
        let e = run_child(
            Command::new("/nonexistent/modred-report"),
            Tier::Adx,
            &progress,
        )
        .unwrap_err();
        assert!(e.contains("cannot start"), "{e}");
    }

    #[test]
    fn retag_suffixes_id_plot_and_title() {
        let mut t = Table::new("scaling-mul", "multiplication", "scaling", "µs", "bits");
        t.plot = Some(crate::table::PlotSpec {
            file: "scaling-mul.svg".into(),
            x_label: String::new(),
            y_label: String::new(),
            log_x: true,
        });
        t.note("first");
        retag(&mut t, Tier::Adx);
        assert_eq!(t.id, "scaling-mul-adx");
        assert!(t.title.ends_with("adx tier"));
        assert_eq!(
            t.plot.as_ref().map(|p| p.file.as_str()),
            Some("scaling-mul-adx.svg")
        );
        assert!(t.notes[0].contains("MODRED_CPU=adx") && t.notes[0].contains(":~0x200000"));
        assert_eq!(t.notes[1], "first");
    }
}
