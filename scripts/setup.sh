#!/usr/bin/env bash
# Install what a fresh Debian/Ubuntu machine lacks to build and test modred. Idempotent and
# quick when everything is present: apt-get runs only if a package is missing.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
fi

# --- System packages --------------------------------------------------------------------
# m4: builds GMP for the `rug` dev-dependency (the GMP oracle and benchmark competitor);
# libgmp-dev, libssl-dev, pkg-config: system GMP/OpenSSL for the comparison report;
# valgrind: the constant-time check on the machine code (scripts/ctgrind.sh);
# gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user: link and run the aarch64 tests
# (cross/aarch64) on an x86-64 machine.
missing=()
for pkg in m4 libgmp-dev libssl-dev pkg-config valgrind \
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user; do
    if ! dpkg -s "$pkg" >/dev/null 2>&1; then
        missing+=("$pkg")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "setup.sh: missing ${missing[*]} and no apt-get; install them by hand" >&2
        exit 1
    fi
    echo "setup.sh: installing ${missing[*]}"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
fi

# --- Rust toolchain ---------------------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1; then
    if [ -x "$HOME/.cargo/bin/cargo" ]; then
        export PATH="$HOME/.cargo/bin:$PATH"
    else
        echo "setup.sh: installing Rust with rustup"
        if ! command -v curl >/dev/null 2>&1; then
            $SUDO apt-get update
            DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y curl ca-certificates
        fi
        curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal \
            --component rustfmt,clippy
        export PATH="$HOME/.cargo/bin:$PATH"
    fi
fi
# rust-version in Cargo.toml: 1.89 (the AVX-512 intrinsics of the IFMA kernels).
if ! rustc --version | awk '{ split($2, v, "."); exit !(v[1] > 1 || v[2] >= 89) }'; then
    if command -v rustup >/dev/null 2>&1; then
        echo "setup.sh: $(rustc --version) is older than 1.89; updating with rustup"
        rustup update stable
    else
        echo "setup.sh: modred needs Rust 1.89 or newer; have $(rustc --version)" >&2
        exit 1
    fi
fi
for comp in rustfmt clippy; do
    if ! cargo "${comp/rustfmt/fmt}" --version >/dev/null 2>&1 && command -v rustup >/dev/null 2>&1; then
        rustup component add "$comp"
    fi
done

# The standard libraries of the other targets the README names, for test.sh's checks that the
# library builds there (the portable tier; macOS and Windows without the generated ELF
# kernels). A machine that cannot download them still runs every other check.
if command -v rustup >/dev/null 2>&1; then
    installed="$(rustup target list --installed 2>/dev/null || true)"
    for t in aarch64-unknown-linux-gnu aarch64-apple-darwin x86_64-apple-darwin x86_64-pc-windows-gnu; do
        if ! grep -qx "$t" <<<"$installed"; then
            rustup target add "$t" || echo "setup.sh: could not add the $t target; test.sh skips its check" >&2
        fi
    done
fi

# --- Python package (only once python/ exists) -------------------------------------------
# The PyO3 extension is built with maturin and tested with pytest + hypothesis; the Dask
# example (python/examples/dask_powmod.py) and its test need dask[distributed].
# (python/run_tests.sh installs the same into its own virtual environment.)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -d "$ROOT/python" ]; then
    PY="${PYTHON:-python3}"
    if ! "$PY" -c 'import maturin, pytest, hypothesis, dask.distributed' >/dev/null 2>&1; then
        echo "setup.sh: installing maturin, pytest, hypothesis, dask[distributed]"
        pydeps=(maturin pytest hypothesis "dask[distributed]")
        "$PY" -m pip install --quiet "${pydeps[@]}" \
            || "$PY" -m pip install --quiet --break-system-packages "${pydeps[@]}"
    fi
fi

echo "setup.sh: ok"
