import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture
def llvm_mc():
    """Assembles text for a target with llvm-mc; returns (exit code, stderr)."""
    tool = os.environ.get("ROCISA_BRIDGE_LLVM_MC", "/usr/lib/llvm-22/bin/llvm-mc")

    def run(text, arch, tmp_path):
        source = tmp_path / f"{arch}.s"
        source.write_text(text)
        done = subprocess.run([tool, "-triple=amdgcn-amd-amdhsa", f"-mcpu={arch}",
                               "-filetype=obj", "-o", str(tmp_path / f"{arch}.o"), str(source)],
                              capture_output=True, text=True)
        return done.returncode, done.stderr
    return run
