#!/usr/bin/env bash
# Every check CI runs: formatting, lints, the whole test suite, the operation-count tests
# (cargo feature `count`) and, once the Python package exists, its tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
fi

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --all -- --check"
cargo fmt --all -- --check

step "cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo test --workspace"
cargo test --workspace

step "cargo test -p modred --features count --test opcount"
cargo test -p modred --features count --test opcount

# --- Python tests (hook: runs once python/ exists) ----------------------------------------
if [ -d python ]; then
    step "python: build the extension and run pytest"
    PY="${PYTHON:-python3}"
    if [ -x python/test.sh ]; then
        bash python/test.sh
    else
        "$PY" -m pip install --quiet ./python \
            || "$PY" -m pip install --quiet --break-system-packages ./python
        "$PY" -m pytest -q python
    fi
fi

step "all checks passed"
