#!/usr/bin/env python3
"""The scheduler against LLVM's own schedule (docs/scheduler.md).

Compiles every tests/kernels/*.cl with clang-22 -O2 for each target, then
runs stinkytofu-opt -O1 (LLVM's order, our waits and hazards) and
-O2 --verify-schedule (the scheduler) on it, and compares the `--stats`
cycle estimates of the two outputs: the longest path and the heaviest loop
body. The loop figure is the steady state (EstimateAsmCyclesPass on each
output: the heaviest loop's second trip issued from the state the first
leaves, so a load moved into the previous trip is still waited for);
`--stats`' loop body (from nothing in flight) is printed and counted beside
it for comparison. The -O2 output must assemble with llvm-mc. Prints one
line per kernel and target, then the counts: faster, equal, slower.

--remove-waits schedules with the input's memory waits removed first
(StinkyRemoveWaitCntPass before the scheduler; the insertion after it
puts back what the new order needs): clang's waits are fences otherwise.

Usage: bench/schedule-compare.py [--jobs N] [--remove-waits] [TARGET...]  (default: all 11)
stinkytofu-opt is $STINKYTOFU_OPT, else build/bin/stinkytofu-opt.
"""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPT = os.environ.get('STINKYTOFU_OPT', os.path.join(ROOT, 'build/bin/stinkytofu-opt'))
LLVM = '/usr/lib/llvm-22/bin'
TARGETS = ['gfx900', 'gfx906', 'gfx908', 'gfx90a', 'gfx942', 'gfx950', 'gfx1030',
           'gfx1100', 'gfx1200', 'gfx1201', 'gfx1250']


def totals(stats):
    """(path cycles, heaviest loop body, loops) of the <total> row."""
    for line in stats.split('\n'):
        cells = line.split()
        if cells[:1] == ['<total>'] and len(cells) == 7:
            return int(cells[1]), int(cells[4]), int(cells[3])
    return None


STEADY = re.compile(r'^  loop \S+ depth \d+: \d+ cycles per trip, (\d+) in steady state$', re.M)


def steady_loop(output):
    """The heaviest loop trip of the file output in steady state; None on failure."""
    r = subprocess.run([OPT, output, '--EstimateAsmCyclesPass', '--stats', '-o', os.devnull],
                       capture_output=True, text=True)
    if r.returncode:
        return None
    return max([int(c) for c in STEADY.findall(r.stderr)], default=0)


SCHEDULED = ['-O2', '--verify-schedule']
# The -O2 pipeline (standardPipeline) with the memory waits removed before
# the scheduler; the hazard repair and the verifiers are added by the tool.
SCHEDULED_WITHOUT_WAITS = [
    '--verify-schedule',
    '--passes=Verifier,LongBranchLoweringPass,CallTargetRecoveryPass,RaiseVgprMsbPass,'
    'CFGBuilder,AsmMovePropagationPass,StinkyRemoveNopPass,RemoveDelayAluPass,'
    'RemoveWaitAluPass(ifSupported),StinkyRemoveWaitCntPass,StinkyDAGSchedulerPass,'
    'StinkyWaitCntInsertionPass,InsertVgprMsbPass,SetMatrixReusePass(ifSupported)']


def compare(kernel, target, tmp, scheduled):
    name = '%s-%s' % (os.path.basename(kernel)[:-3], target)
    source = os.path.join(tmp, name + '.s')
    r = subprocess.run([LLVM + '/clang', '-x', 'cl', '-cl-std=CL2.0', '--target=amdgcn-amd-amdhsa',
                        '-mcpu=' + target, '-nogpulib', '-O2', '-S', kernel, '-o', source],
                       capture_output=True, text=True)
    if r.returncode:
        return name, 'clang failed'
    figures = []
    for side, level in enumerate((['-O1'], scheduled)):
        out = os.path.join(tmp, '%s-%d.s' % (name, side))
        r = subprocess.run([OPT, source] + level + ['--stats', '-o', out],
                           capture_output=True, text=True)
        if r.returncode or not totals(r.stderr):
            return name, '%s failed: %s' % (' '.join(level)[:40], r.stderr.strip().split('\n')[-1][:80])
        steady = steady_loop(out)
        if steady is None:
            return name, 'steady state of %s failed' % out
        figures.append(totals(r.stderr) + (steady,))
    r = subprocess.run([LLVM + '/llvm-mc', '-triple=amdgcn-amd-amdhsa', '-mcpu=' + target,
                        '-filetype=obj', out, '-o', os.devnull], capture_output=True, text=True)
    if r.returncode:
        return name, 'llvm-mc failed: ' + r.stderr.strip().split('\n')[0][:80]
    return name, figures


def sign(before, after):
    return 'faster' if after < before else 'slower' if after > before else 'equal'


def main(argv):
    jobs = 2
    if argv[:1] == ['--jobs']:
        jobs, argv = int(argv[1]), argv[2:]
    scheduled = SCHEDULED
    if argv[:1] == ['--remove-waits']:
        scheduled, argv = SCHEDULED_WITHOUT_WAITS, argv[1:]
    targets = argv or TARGETS
    kernels = sorted(glob.glob(os.path.join(ROOT, 'tests/kernels/*.cl')))
    counts = {'path': {}, 'loop body (nothing in flight)': {}, 'loop (steady state)': {}}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        runs = [pool.submit(compare, k, t, tmp, scheduled) for t in targets for k in kernels]
        for run in runs:
            name, figures = run.result()
            if isinstance(figures, str):
                failures += 1
                print('%s: %s' % (name, figures), flush=True)
                continue
            (path1, loop1, loops, steady1), (path2, loop2, _, steady2) = figures
            print('%s: path %d -> %d, loop body %d -> %d, steady state %d -> %d'
                  % (name, path1, path2, loop1, loop2, steady1, steady2), flush=True)
            s = sign(path1, path2)
            counts['path'][s] = counts['path'].get(s, 0) + 1
            if loops:
                for what, before, after in (('loop body (nothing in flight)', loop1, loop2),
                                            ('loop (steady state)', steady1, steady2)):
                    s = sign(before, after)
                    counts[what][s] = counts[what].get(s, 0) + 1
    for what, c in counts.items():
        print('%s: %s' % (what, ', '.join('%d %s' % (c.get(s, 0), s)
                                          for s in ('faster', 'equal', 'slower'))))
    print('failures: %d' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
