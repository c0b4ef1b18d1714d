"""A generator's thread pool: the module releases the GIL while C++ works.

Four threads converting, optimizing, instrumenting and assembling kernels at
once give what the same calls give one after another: each StinkyTofu module
has a context of its own, and the C++ work runs without the GIL
(Bindings.h, withoutGil), so the threads really overlap."""
from concurrent.futures import ThreadPoolExecutor

import rocisa_bridge as rb
from rocisa_bridge.asmpass import rocIsaPass, rocIsaPassOption

from gemm_generator import TARGETS, Generator

PIPELINES = ["",
             "LongBranchLoweringPass,CallTargetRecoveryPass,"
             "SQTTInstrumentPass(functions=1,barriers,verify)",
             "-O3"]


def outputs(job):
    """Everything one job gives: its tree's text, then per pipeline the
    assembly and the object of the converted module and of the text read
    back."""
    arch, pipeline = job
    kernel = Generator(arch).kernel()
    option = rocIsaPassOption()
    option.removeDupFunc = True
    option.numWaves = 4
    result = rocIsaPass(kernel, option)
    text = str(kernel)
    got = [text, result.steps]
    for st in (rb.toStinkyTofuModule(kernel, arch), rb.readAssembly(text, arch, "gemm")):
        if pipeline == "-O3":
            st.runPasses("LongBranchLoweringPass,CallTargetRecoveryPass")
            st.runOptimizationPipeline(3)
        elif pipeline:
            st.runPasses(pipeline)
        got += [st.emitAssembly(), st.emitObject()]
    return got


def test_four_threads_give_what_sequential_runs_give():
    jobs = [(arch, pipeline) for arch in TARGETS for pipeline in PIPELINES] * 2
    sequential = [outputs(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(outputs, jobs))
    for job, alone, pooled in zip(jobs, sequential, threaded):
        assert pooled == alone, job
    # The instrumentation inserted code: the comparison is not of empty runs.
    for (arch, pipeline), alone in zip(jobs, sequential):
        if pipeline == PIPELINES[1]:
            assert alone[2] != alone[0], arch
