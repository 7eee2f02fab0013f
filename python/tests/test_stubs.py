"""The type stubs (modred/_modred.pyi) agree with the native module: mypy stubtest checks
the package modred and its submodule modred._modred."""

import subprocess
import sys
import tempfile


def test_stubtest():
    with tempfile.TemporaryDirectory() as cwd:  # away from the source tree's modred/
        proc = subprocess.run(
            [sys.executable, "-m", "mypy.stubtest", "modred"],
            cwd=cwd, capture_output=True, text=True, timeout=300,
        )
    assert proc.returncode == 0, proc.stdout + proc.stderr
