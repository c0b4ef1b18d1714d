"""The rotating sample of the test sweeps (lit's %sweep-sample N).

With N > 1 a sweep checks each target (or target and level) on every N-th
kernel, a different N-th on the next one, so every kernel and every target
still runs; N = 1 checks everything. One rule for the wait-count oracle
(tests/waitcnt/waitlib.py), the occupancy oracle
(tests/pressure/occupancy_oracle.py) and the SQTT refusal sweep
(tests/lit/sqtt/Inputs/refusals.py).
"""


def in_sample(kernel_index, group_index, every):
    """Whether kernel number `kernel_index` (in sorted order) is checked on
    target (or target and level) number `group_index`."""
    return (kernel_index + group_index) % every == 0
