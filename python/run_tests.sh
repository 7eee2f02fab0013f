#!/usr/bin/env bash
# Build the modred Python package (release profile) and run its test suite.
#
# Works from any directory (the repository root included) on a fresh machine with CPython >= 3.8
# and a Rust toolchain: creates the virtual environment python/.venv if missing (override the
# interpreter with PYTHON=...), installs maturin, pytest, hypothesis, mypy (stubtest) and
# dask[distributed] (for the Dask example's test) into it, builds and installs the package with `pip install ./python` (maturin backend, release build, incremental
# in python/target or $CARGO_TARGET_DIR), then runs pytest on python/tests.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
vpy="$venv/bin/python"
"$vpy" -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2" pytest hypothesis mypy \
    "dask[distributed]"
# The tests check behaviour, not speed: unless the caller sets them, build without the release
# profile's fat LTO and single codegen unit (minutes less on 2 cores; pip install ./python, for
# use, keeps them).
export CARGO_PROFILE_RELEASE_LTO="${CARGO_PROFILE_RELEASE_LTO:-false}"
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}"
# The build backend is the maturin just installed (no isolated build environment to download).
"$vpy" -m pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall \
    --no-deps "$here"
# The pytest script (not `python -m pytest`) keeps the current directory off sys.path, so the
# installed package is tested, never the source tree python/modred/.
cd "$here"
exec "$venv/bin/pytest" -q -p no:cacheprovider "$here/tests"
