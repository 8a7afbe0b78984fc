"""papi_report.load.pop_factors: Python's one home for the efficiencies. Every factor as
the C library forms it (src-c/common/pop_factors.c; pop_factors.h gives each definition and
its references: POP's "Performance Metrics", DLB's TALP): MPI, host/device, OpenMP and
hybrid, from the same base sums, in the same order of operations, so that a factor is the
same double in both (tests/pop/pop_factors_cases.txt holds the cases both pass; the reports
carry the factors the C side formed). And POP's scalability between two runs, which only
papi_report forms (--compare, page/pop_compare.py): a scalability factor and the global
efficiency. None where a factor cannot be formed (the reports' null). Plain Python."""


def _ratio(a, b, none):
    return a / b if b > 0 else none


def _fraction(a, b, cap):
    """a / b cut to 1 (cap), None where b is not positive."""
    if not b > 0:
        return None
    return 1.0 if cap and not a < b else a / b


def _product(*factors):
    out = 1.0
    for i, f in enumerate(factors):
        if f is None or f < 0:
            return None
        out = f if i == 0 else out * f
    return out


class PopIn:
    """One set of ranks' times (seconds), added rank by rank (pop_add, pop_add_device)."""

    def __init__(self):
        self.n = self.gpus = self.device_ranks = 0
        self.max_wall = self.max_useful = self.sum_useful = self.max_ideal = 0.0
        self.sum_host = self.sum_runtime = 0.0
        self.sum_gpu_useful = self.max_gpu_useful = self.max_gpu_active = 0.0

    def add(self, wall, mpi, waits):
        """A rank: its wall, MPI time and the sum of its wait states (0 without them)."""
        useful = wall - mpi
        transfer = mpi - waits if mpi - waits > 0 else 0
        self.n += 1
        self.sum_useful += useful
        self.sum_host += useful
        self.max_wall = max(self.max_wall, wall)
        self.max_useful = max(self.max_useful, useful)
        self.max_ideal = max(self.max_ideal, wall - transfer)

    def add_device(self, runtime, gpu_useful, gpu_comm):
        """A rank's GPUs: the host's wait in the GPU runtime, kernel busy, copies and memsets."""
        active = gpu_useful + gpu_comm
        self.device_ranks += 1
        self.sum_runtime += runtime
        if active <= 0:
            return
        self.gpus += 1
        self.sum_gpu_useful += gpu_useful
        self.max_gpu_useful = max(self.max_gpu_useful, gpu_useful)
        self.max_gpu_active = max(self.max_gpu_active, active)

    def factors(self):
        """The MPI factors (1 where nothing divides), the host/device ones (None where none)."""
        mean = self.sum_useful / self.n if self.n else 0
        f = {"load_balance": _ratio(mean, self.max_useful, 1),
             "communication": _ratio(self.max_useful, self.max_wall, 1)}
        f["parallel"] = f["load_balance"] * f["communication"]
        f["serialisation"] = _ratio(self.max_useful, self.max_ideal, 1)
        f["transfer"] = _ratio(self.max_ideal, self.max_wall, 1)
        f["offload"] = _ratio(self.sum_host - self.sum_runtime, self.sum_host, None)
        device = ("device_parallel", "device_load_balance", "device_communication",
                  "device_orchestration")
        if self.gpus == 0 or self.max_wall <= 0:
            return dict(f, **{k: None for k in device})
        f["device_load_balance"] = _ratio(self.sum_gpu_useful, self.gpus * self.max_gpu_useful,
                                          None)
        f["device_communication"] = _ratio(self.max_gpu_useful, self.max_gpu_active, None)
        f["device_orchestration"] = self.max_gpu_active / self.max_wall
        f["device_parallel"] = self.sum_gpu_useful / (self.gpus * self.max_wall)
        return f


class OmpIn:
    """The OpenMP sums over outermost regions (ns): parallel time, sum of useful, sum of
    team x largest useful, sum of team x wall (struct pop_omp_in)."""

    def __init__(self, parallel_ns=0.0, useful_ns=0.0, maxu_team_ns=0.0, wall_team_ns=0.0):
        self.parallel_ns, self.useful_ns = parallel_ns, useful_ns
        self.maxu_team_ns, self.wall_team_ns = maxu_team_ns, wall_team_ns


def omp_region(useful, wall_ns, sums=None):
    """A region's load balance, scheduling and parallel efficiency from its threads' useful
    times (ns) and wall time; adds the region to sums (an OmpIn) when given."""
    total, top = 0.0, 0.0
    for u in useful:
        total += float(u)
        top = max(top, float(u))
    team = len(useful)
    f = {"serialization": None,
         "load_balance": _fraction(total / team, top, False) if team else None,
         "scheduling": _fraction(top, float(wall_ns), False)}
    f["parallel"] = _product(f["load_balance"], f["scheduling"])
    if sums is not None:
        sums.useful_ns += total
        sums.maxu_team_ns += top * team
        sums.wall_team_ns += float(wall_ns) * team
    return f


def omp_factors(sums, span_ns, cap_each):
    """The factors of summed sums, the serialization over span_ns, cut to 1: the
    serialization only (the tool's own file), or each ratio (cap_each: its sums' readers)."""
    f = {"serialization": _fraction(sums.parallel_ns, span_ns, True),
         "load_balance": _fraction(sums.useful_ns, sums.maxu_team_ns, cap_each),
         "scheduling": _fraction(sums.maxu_team_ns, sums.wall_team_ns, cap_each)}
    f["parallel"] = _product(f["serialization"], f["load_balance"], f["scheduling"])
    return f


def hybrid(mpi_parallel, omp_parallel):
    """The hybrid parallel efficiency: MPI's x OpenMP's, None where either is."""
    return _product(mpi_parallel, omp_parallel)


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
