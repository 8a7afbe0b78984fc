"""papi_report.load.pop_factors: the efficiencies papi_report forms itself, POP's between
two runs (--compare, page/pop_compare.py): a scalability factor and the global efficiency.
Every factor of one run (MPI, host/device, OpenMP, hybrid) is the C side's
(src-c/common/pop_factors.c, whose header gives every definition and its references): the
reports carry it, papi_report reads it, no copy here. tests/pop/pop_factors_cases.txt holds
both sides' cases, each kind run by its home. None where a factor cannot be formed (the
reports' null). Plain Python."""


def scalability(numerator, denominator):
    """A POP scalability factor between two runs (computation: useful time of the reference
    over the other's; instruction: instructions likewise; IPC and frequency: the other's
    over the reference's): None where either is missing or the denominator not positive."""
    if numerator is None or denominator is None or not denominator > 0:
        return None
    return numerator / denominator


def global_efficiency(parallel, computation_scalability):
    """POP's global efficiency: parallel efficiency x computation scalability; None where
    either is missing (or the scalability 0: no useful time in the reference)."""
    if parallel is None or not computation_scalability:
        return None
    return parallel * computation_scalability
