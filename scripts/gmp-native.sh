#!/usr/bin/env bash
# Run the comparison report against GMP built for this CPU instead of rug's bundled GMP.
#
#   bash scripts/gmp-native.sh [report options]        e.g. --quick --only scaling
#
# Why: rug's gmp-mpfr-sys builds GMP with --enable-fat, and so do Debian's libgmp and the
# gmpy2 wheels. A fat GMP picks its kernels from the CPU's family and model at run time, and
# GMP 6.3 knows no Intel model after Kaby Lake: on Ice Lake, Rocket Lake, Sapphire Rapids and
# later it runs its generic x86-64 code (no MULX/ADX), 1.1-2x slower than the same GMP
# configured for the CPU (docs/performance.md). This script configures the GMP source that
# gmp-mpfr-sys ships (the version in Cargo.lock) without --enable-fat, so that GMP's own
# config.guess picks the kernels for this CPU, installs it under target/gmp-native, and builds
# the report with `gmp-mpfr-sys/use-system-libs` linked against it, in target/gmp-native/target.
# The report's header then names that build. On 2 cores GMP took 2 minutes to build and the
# report 6 (once each).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

prefix="$PWD/target/gmp-native"
if [ ! -f "$prefix/lib/libgmp.a" ]; then
    version=$(awk '/^name = "gmp-mpfr-sys"/ { getline; gsub(/"/, "", $3); print $3; exit }' \
        Cargo.lock)
    cargo fetch --locked >/dev/null
    src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"gmp-mpfr-sys-$version"/gmp-*-c \
        2>/dev/null | head -n 1 || true)
    if [ -z "$src" ]; then
        echo "gmp-native.sh: no GMP source of gmp-mpfr-sys $version in the cargo registry" >&2
        exit 1
    fi
    build="$PWD/target/gmp-native-build"
    rm -rf "$build"
    mkdir -p "$build"
    host=$("$src/config.guess")
    echo "gmp-native.sh: building $(basename "$src") for $host into $prefix"
    (
        cd "$build"
        # --with-pic: the static library goes into position-independent executables.
        "$src/configure" --disable-shared --with-pic --prefix="$prefix" >configure.log
        make -j"$(nproc)" >make.log
        make install >install.log
    )
    echo "$(basename "$src") for $host" >"$prefix/built-for"
fi

# The linker and gmp-mpfr-sys's check program find target/gmp-native before the system's
# libgmp; MODRED_REPORT_GMP labels the build in the report's header. A target directory of its
# own keeps the usual build (rug's bundled GMP) from being rebuilt after each run of this one.
LIBRARY_PATH="$prefix/lib${LIBRARY_PATH:+:$LIBRARY_PATH}" \
    C_INCLUDE_PATH="$prefix/include${C_INCLUDE_PATH:+:$C_INCLUDE_PATH}" \
    CARGO_TARGET_DIR="$prefix/target" \
    MODRED_REPORT_GMP="$(cat "$prefix/built-for"), static, by scripts/gmp-native.sh" \
    cargo run --release -p modred-report --features gmp-mpfr-sys/use-system-libs -- "$@"
