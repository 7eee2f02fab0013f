#!/usr/bin/env bash
# Constant time checked on the machine code (issue 16): examples/ctgrind/main.rs under
# valgrind memcheck with the base and the exponent of `ct` exponentiations, and the secrets of
# RSA private-key operations (its check_rsa), marked undefined; any conditional jump or memory
# address depending on them is an error (exit 1). Covers the portable and the ADX kernels
# (valgrind cannot run AVX-512); the same binary's `ctgrind trace` (examples/ctgrind/trace.rs)
# compares the instruction sequences of RSA private operations on the IFMA tier.
# About 7 minutes on 2 cores, build included.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v valgrind >/dev/null 2>&1; then
    echo "ctgrind.sh: valgrind is not installed (scripts/setup.sh installs it)" >&2
    exit 1
fi
cargo build --release -p modred --features ctgrind --example ctgrind
bin=target/release/examples/ctgrind
# The IFMA tier, which valgrind cannot run: `ctgrind trace` single-steps the RSA private
# operation under ptrace and requires the same instruction sequence for two keys (control flow
# only; see its docs). RSA-1024 and -2048 (the pair kernel at 3 and 5 vectors), and
# private_op_many of four RSA-1024 inputs (the eight-lane kernel), in a process beside the
# valgrind runs below (single-stepping is one core's work: 1-3 minutes for RSA-2048, about 45 s
# for the four inputs). On a CPU without IFMA it checks the best tier the CPU has.
"$bin" trace 2048 many 1024 > target/ctrace-2048.log 2>&1 &
ctrace_2048=$!
trap 'kill "$ctrace_2048" 2>/dev/null || true' EXIT
vg=(valgrind --quiet --error-exitcode=1 --track-origins=yes --num-callers=30)
# The example runs every tier modred::cpu::available() lists: portable, and ADX when the
# CPU has it (valgrind's CPUID hides it; /proc/cpuinfo does not).
if grep -qw adx /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
    export MODRED_CTGRIND_ADX=1
fi
# The check's own check: a variable-time exponentiation must be reported.
if "${vg[@]}" "$bin" --leaky >/dev/null 2>&1; then
    echo "ctgrind.sh: memcheck saw no secret-dependent branch in binary exponentiation: the check is blind" >&2
    exit 1
fi
"${vg[@]}" "$bin"
# The RSA private operation again on the portable kernels (the run above took the ADX tier
# where the CPU has it).
MODRED_CPU=portable "${vg[@]}" "$bin" --rsa-only
"$bin" trace 1024
status=0
wait "$ctrace_2048" || status=$?
cat target/ctrace-2048.log
exit "$status"
