# -*- Python -*-
# lit configuration for StinkyTofu. Loaded by the lit.site.cfg.py that CMake
# generates in the build tree (<build>/tests/lit), which sets the paths used
# below. Run: lit -sv <build>/tests/lit

import os
import shutil
import sys
from pathlib import Path

import lit.formats

config.name = "StinkyTofu"

# lit's internal shell: the same behaviour everywhere, no bash needed.
config.test_format = lit.formats.ShTest(execute_external=False)

config.suffixes = [".s", ".stir", ".test"]
# Inputs folders hold files that tests read; they are not tests themselves.
# The kernels (tests/kernels/*.cl) live outside this suite; name them anyway
# in case the folder is ever moved under it.
config.excludes = ["Inputs", "kernels"]

config.test_source_root = os.path.dirname(__file__)
if not getattr(config, "test_exec_root", None):
    config.test_exec_root = os.path.join(config.stinkytofu_obj_root, "tests", "lit")

# Our tools first, then LLVM's, then whatever the caller had.
config.environment["PATH"] = os.pathsep.join(
    [config.stinkytofu_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
)


# Every program a test runs comes from a package scripts/bootstrap.sh
# installs: a missing one is a broken set-up, never an unsupported feature.
sys.path.insert(0, os.path.join(config.stinkytofu_src_root, "tests", "setup"))
from check_test_tools import test_tools as read_test_tools  # noqa: E402

test_tools = read_test_tools(Path(config.stinkytofu_src_root))
missing_tools = sorted(
    "%s (Debian package %s)" % (name, package)
    for name, package in test_tools.items()
    # A data file (device-library bitcode) is named by its path, a program by its name.
    if not (os.path.isfile(name) if os.path.isabs(name)
            else shutil.which(name, path=config.environment["PATH"])))
if missing_tools:
    lit_config.fatal("tools the tests run are missing: %s; scripts/bootstrap.sh installs them"
                     % ", ".join(missing_tools))


def tool(directory, name):
    return os.path.join(directory, name)


def bare_tool(name):
    # Matches `name` as a whole command word: not inside a path, a longer
    # name or an option (e.g. leaves `--FileCheck-foo` and `x/FileCheck` alone).
    return r"(?<![-.\w/\\])" + name.replace("-", r"\-") + r"(?![-.\w/])"


# Keys are regular expressions; no %-key is a prefix of another.
config.substitutions.append(
    ("%stinkytofu-opt", tool(config.stinkytofu_tools_dir, "stinkytofu-opt"))
)
config.substitutions.append(
    ("%sqtt-funcmap", tool(config.stinkytofu_tools_dir, "sqtt-funcmap"))
)
config.substitutions.append(
    ("%sqtt-trace", tool(config.stinkytofu_tools_dir, "sqtt-trace"))
)
config.substitutions.append(
    ("%trace-fixture", tool(config.stinkytofu_tools_dir, "sqtt-trace-fixture"))
)
config.substitutions.append(("%llvm-mc", tool(config.llvm_tools_dir, "llvm-mc")))
# clang through the compile cache the suites share (tests/clang-cache);
# CLANG_CACHE_LOG (a file) records its hits and misses.
config.substitutions.append(("%clang", config.stinkytofu_test_clang))
config.substitutions.append(("%uncached-clang", tool(config.llvm_tools_dir, "clang")))
if "CLANG_CACHE_LOG" in os.environ:
    config.environment["CLANG_CACHE_LOG"] = os.environ["CLANG_CACHE_LOG"]
config.substitutions.append(("%kernels", config.stinkytofu_kernels_dir))
config.substitutions.append(("%python", '"%s"' % config.python_executable))
# The sweeps over every kernel, target and level (the occupancy oracle, the
# refusal sweep, the wait-count and hazard oracles) check a rotating third of
# the kernels of each target in the sanitizer build: its processes start 15
# times slower and compute 3 to 5 times slower, and what it looks for (memory
# errors, undefined behaviour) does not need every combination; the normal
# build checks them all.
sanitize = getattr(config, "stinkytofu_sanitize", False)
config.substitutions.append(("%sweep-sample", "--sample %d" % (3 if sanitize else 1)))
# The same for the tests that list their kernel, target and level combinations
# as RUN lines: under the sanitizers most are `%if !sanitizers %{ ... %}`,
# rotating so that every target keeps one (each test says which).
if sanitize:
    config.available_features.add("sanitizers")
config.substitutions.append((bare_tool("FileCheck"), tool(config.llvm_tools_dir, "FileCheck")))
config.substitutions.append((bare_tool("split-file"), tool(config.llvm_tools_dir, "split-file")))
# `not` at the start of a command is run by lit's internal shell itself; after
# a pipe it must name the binary (the same rule as LLVM's own lit config).
config.substitutions.append((r"\| \bnot\b", "| " + tool(config.llvm_tools_dir, "not")))

# The fuzz targets' features and substitutions: tests/lit/fuzz/lit.local.cfg.
