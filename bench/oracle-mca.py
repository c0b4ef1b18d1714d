#!/usr/bin/env python3
"""The scramble oracle of the scheduler (docs/scheduler.md), with llvm-mca.

For each kernel file, runs the -O3 passes by name four times, differing only
in the scheduler's place:
  original    nothing (the expert's order, waits and hazards recomputed)
  scrambled   ScrambleSchedulePass=seed=S (a random legal order)
  rescheduled ScrambleSchedulePass=seed=S, then StinkyDAGSchedulerPass
  scheduled   StinkyDAGSchedulerPass on the original
each verified (--verify-schedule, --verify-waitcnt, --verify-hazards). Per run
it prints our estimate of the heaviest loop body (`--stats`, loop-body) and
llvm-mca's cycles per iteration of the same loop: the instructions of the
heaviest loop body along the path our estimate takes, in trip order, without
labels and branches, as `EstimateAsmCyclesPass=heaviestLoop=FILE` writes
them, after the output's macros and symbol assignments; 100 iterations,
-mcpu of the file's target.

Ends with the kernels (with a loop) whose loop rescheduled from the scramble
is no slower than the original, and the share of the scramble's gap
recovered on average (per kernel at most all of it).

Usage: bench/oracle-mca.py [--seed S] FILE...
stinkytofu-opt is $STINKYTOFU_OPT, else build/bin/stinkytofu-opt; llvm-mca is
$LLVM_MCA, else /usr/lib/llvm-22/bin/llvm-mca.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPT = os.environ.get('STINKYTOFU_OPT', os.path.join(ROOT, 'build/bin/stinkytofu-opt'))
MCA = os.environ.get('LLVM_MCA', '/usr/lib/llvm-22/bin/llvm-mca')
ITERATIONS = 100

BEFORE = ['--verify-schedule', '--Verifier', '--LongBranchLoweringPass',
          '--CallTargetRecoveryPass', '--RaiseVgprMsbPass', '--CFGBuilder',
          '--AsmMovePropagationPass', '--StinkyRemoveNopPass', '--RemoveDelayAluPass',
          '--RemoveWaitAluPass=ifSupported']
AFTER = ['--StinkyWaitCntInsertionPass', '--InsertVgprMsbPass',
         '--SetMatrixReusePass=ifSupported', '--HazardRecognizerPass',
         '--verify-waitcnt', '--verify-hazards']


def variants(seed):
    scramble = '--ScrambleSchedulePass=seed=%d' % seed
    return [('original', []), ('scrambled', [scramble]),
            ('rescheduled', [scramble, '--StinkyDAGSchedulerPass']),
            ('scheduled', ['--StinkyDAGSchedulerPass'])]


def target_of(path):
    with open(path, errors='replace') as f:
        m = re.search(r'\bgfx\d+[a-z]?\b', f.read(200000))
    return m.group(0) if m else None


def code(line):
    return line.split('//')[0].strip()


def prelude_of(text):
    """The file's macros and symbol assignments."""
    prelude, in_macro = [], False
    for line in (code(l) for l in text.split('\n')):
        in_macro |= line.startswith('.macro')
        if in_macro or re.match(r'(\.set\s|[A-Za-z_]\w*\s*=)', line):
            prelude.append(line)
        if line.startswith('.endm'):
            in_macro = False
    return prelude


def loop_of(text):
    """The loop body EstimateAsmCyclesPass wrote: its cycles by our estimate
    (the comment line first), its instructions."""
    m = re.match(r'// loop .*: (\d+) cycles per trip', text)
    body = [l for l in (code(l) for l in text.split('\n')) if l]
    return (m.group(1) if m else None), body


def mca_cycles(prelude, body, cpu):
    source = '\n'.join(prelude + ['# LLVM-MCA-BEGIN loop'] + body + ['# LLVM-MCA-END']) + '\n'
    r = subprocess.run([MCA, '-mtriple=amdgcn-amd-amdhsa', '-mcpu=' + cpu,
                        '-iterations=%d' % ITERATIONS], input=source,
                       capture_output=True, text=True)
    m = re.search(r'Total Cycles:\s+(\d+)', r.stdout)
    return '%.1f' % (int(m.group(1)) / ITERATIONS) if m else 'mca error'


def loop_estimate(stats):
    # function path-cycles stalls loops loop-body hazard-waits hazard-cycles:
    # the <total> row's loop-body is the module's heaviest loop, the one
    # heaviestLoop= writes (a file of several functions lists others first).
    m = re.search(r'^<total>\s+\d+\s+\d+\s+\d+\s+(\d+)\s+\d+\s+\d+\s*$', stats, re.M)
    return m.group(1) if m else '?'


def main(argv):
    seed = 1
    if argv[:1] == ['--seed']:
        seed, argv = int(argv[1]), argv[2:]
    if not argv:
        sys.exit(__doc__)
    print('kernel | target | ' + ' | '.join(
        '%s (ours / mca)' % name for name, _ in variants(seed)))
    recovered, no_slower, loops = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'out.s')
        loop = os.path.join(tmp, 'loop.s')
        for path in argv:
            cpu = target_of(path)
            row = [os.path.basename(path), cpu or '?']
            for name, passes in variants(seed):
                r = subprocess.run([OPT, path] + BEFORE + passes + AFTER +
                                   ['--EstimateAsmCyclesPass=heaviestLoop=' + loop,
                                    '--stats', '-o', out], capture_output=True, text=True)
                if r.returncode:
                    row.append('failed: ' + r.stderr.strip().split('\n')[-1][:60])
                    continue
                with open(out, errors='replace') as f:
                    prelude = prelude_of(f.read())
                with open(loop, errors='replace') as f:
                    cycles, body = loop_of(f.read())
                ours = loop_estimate(r.stderr)
                if body and cycles != ours:
                    sys.exit('%s: the written loop (%s cycles) is not the loop-body of --stats (%s)'
                             % (path, cycles, ours))
                mca = mca_cycles(prelude, body, cpu) if body and cpu else 'no loop'
                row.append('%s / %s' % (ours, mca))
            print(' | '.join(row), flush=True)
            ours = [cell.split(' / ')[0] for cell in row[2:]]
            if len(ours) == 4 and all(o.isdigit() for o in ours) and int(ours[0]):
                original, scrambled, rescheduled = (int(o) for o in ours[:3])
                loops += 1
                no_slower += rescheduled <= original
                gap = scrambled - original
                recovered.append(1.0 if gap <= 0 and rescheduled <= original else
                                 0.0 if gap <= 0 else min(1.0, (scrambled - rescheduled) / gap))
    if loops:
        # Per kernel with a loop: the loop rescheduled from the scramble no
        # slower than the original; the share of the scramble's gap it
        # recovered (all of it when the scramble left no gap and the loop is
        # no slower, at most all of it).
        print('rescheduled no slower than the original: %d of %d; gap recovered: %.1f%% on average'
              % (no_slower, loops, 100.0 * sum(recovered) / loops))


if __name__ == '__main__':
    main(sys.argv[1:])
