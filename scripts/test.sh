#!/usr/bin/env bash
# Every check CI runs: formatting, lints, rustdoc warnings, the whole test suite, the
# operation-count tests (cargo feature `count`) and the Python package's tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
fi

# A clean build gains nothing from incremental compilation's caches, and writing them costs
# time (the library's test build alone writes ~170 MB of them); a caller may still set it.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# Each step prints the seconds the one before took and the total so far (CI's budget is 45 min).
step_start=$SECONDS
step() {
    printf '\n(%d s; %d s in all)\n==> %s\n' "$((SECONDS - step_start))" "$SECONDS" "$*"
    step_start=$SECONDS
}

step "cargo fmt --all -- --check (and cross/aarch64, its own workspace)"
cargo fmt --all -- --check
cargo fmt --manifest-path cross/aarch64/Cargo.toml -- --check

# The library's tests need GMP and OpenSSL (dev-dependencies), which do not cross-build; the
# crate cross/aarch64 (its own workspace and target/) runs every reducer and exponentiation
# method against num-bigint on aarch64, under qemu-user: about 9 minutes of one core alone
# (modred at opt-level 2 for aarch64, then its tests under emulation). It runs in the background
# from here, beside the steps up to the fuzzing, and its output follows at its own step below
# (2-vCPU runs: 46-50 min in all against 47-51 in line, within the noise between runs).
aarch64_tests() {
    local start=$SECONDS
    if rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu \
        && command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 \
        && command -v qemu-aarch64 >/dev/null 2>&1; then
        cd cross/aarch64
        export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
        export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
        cargo clippy --locked --all-targets --target aarch64-unknown-linux-gnu -- -D warnings
        cargo test --locked --target aarch64-unknown-linux-gnu
    else
        echo "SKIPPED: needs the aarch64-unknown-linux-gnu target, aarch64-linux-gnu-gcc and qemu-aarch64 (scripts/setup.sh installs them)"
    fi
    echo "(cross/aarch64 took $((SECONDS - start)) s in the background)"
}
mkdir -p target
aarch64_log=target/aarch64-tests.log
(set -e; aarch64_tests) > "$aarch64_log" 2>&1 &
aarch64_pid=$!
# A failing step ends the script: stop the background build with it.
trap 'if kill -0 "$aarch64_pid" 2>/dev/null; then pkill -TERM -P "$aarch64_pid"; kill "$aarch64_pid"; fi 2>/dev/null || true' EXIT

step "cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

# The CLI binary's crate is also named modred; it has doc = false, so a plain `cargo doc` leaves
# the library's pages in target/doc/modred alone. Naming it, as here, checks its doc comments
# and writes its pages over the library's (CI keeps neither).
step "RUSTDOCFLAGS='-D warnings' cargo doc --no-deps (the library, then the CLI binary)"
RUSTDOCFLAGS='-D warnings' cargo doc -p modred --no-deps
RUSTDOCFLAGS='-D warnings' cargo doc -p modred-cli --no-deps --bin modred

# The other targets the README names: the library and the `modred` binary (no C dependencies;
# the report crate builds GMP and OpenSSL in C, which do not cross-compile) must build there
# without warnings; the library also with `internals`, as the report uses it.
# Type checks only: linking for macOS or Windows needs their toolchains.
for target in aarch64-unknown-linux-gnu aarch64-apple-darwin x86_64-apple-darwin x86_64-pc-windows-gnu; do
    step "cargo check --target $target: modred --lib [--features internals], modred-cli (-D warnings)"
    if rustup target list --installed 2>/dev/null | grep -qx "$target"; then
        RUSTFLAGS='-D warnings' cargo check -p modred --lib --target "$target"
        RUSTFLAGS='-D warnings' cargo check -p modred --lib --features internals --target "$target"
        RUSTFLAGS='-D warnings' cargo check -p modred-cli --bin modred --target "$target"
    else
        echo "SKIPPED: the $target target is not installed (scripts/setup.sh adds it)"
    fi
done

step "cargo test --workspace"
cargo test --workspace

# The default run above takes the best kernel tier this CPU has; these cap it (modred::cpu).
# `--workspace` keeps the features the run above unified, so these reuse its build.
step "MODRED_CPU=portable cargo test --workspace --lib --test exp --test rsa (portable kernels only)"
MODRED_CPU=portable cargo test --workspace --lib --test exp --test rsa

step "MODRED_CPU=adx cargo test --workspace --lib --test exp --test rsa (MULX/ADX kernels, no IFMA)"
MODRED_CPU=adx cargo test --workspace --lib --test exp --test rsa

# The counts do not depend on optimisation, and modred at opt-level 2 with feature `count` is a
# second full build of the library (9m51s in a 2-core CI run); at opt-level 0 it took 18 s here.
step "CARGO_PROFILE_TEST_OPT_LEVEL=0 cargo test -p modred-report --features count --test opcount"
CARGO_PROFILE_TEST_OPT_LEVEL=0 cargo test -p modred-report --features count --test opcount

# One seed stream per CPU: 30 s on each of 2 CPUs is the 60 s of cases one stream ran before.
step "differential fuzzing against num-bigint, 30 s on every CPU (5 s more ran in the workspace tests) (MODRED_FUZZ_SECONDS for longer runs)"
MODRED_FUZZ_SECONDS=30 cargo test --workspace --test fuzz -- --nocapture

step "cross/aarch64: every reducer and method on aarch64 under qemu-aarch64 (run in the background since the start; waiting for it)"
aarch64_status=0
wait "$aarch64_pid" || aarch64_status=$?
cat "$aarch64_log"
if [ "$aarch64_status" -ne 0 ]; then
    echo "FAILED: cross/aarch64 (exit $aarch64_status)" >&2
    exit 1
fi

# Both builds below leave a core idle much of the time (ctgrind's release build compiles modred
# as one codegen unit), so on 2 cores the two steps run side by side; the Python step's output
# follows when both are done.
step "constant time on the machine code (scripts/ctgrind.sh, valgrind memcheck) and, beside it, the Python package (python/run_tests.sh: release build, pytest)"
mkdir -p target
python_log=target/python-tests.log
bash python/run_tests.sh > "$python_log" 2>&1 &
python_pid=$!
ctgrind_status=0
bash scripts/ctgrind.sh || ctgrind_status=$?
python_status=0
wait "$python_pid" || python_status=$?
echo "--- python/run_tests.sh (exit $python_status):"
cat "$python_log"
if [ "$ctgrind_status" -ne 0 ] || [ "$python_status" -ne 0 ]; then
    echo "FAILED: scripts/ctgrind.sh exit $ctgrind_status, python/run_tests.sh exit $python_status" >&2
    exit 1
fi

step "all checks passed"
