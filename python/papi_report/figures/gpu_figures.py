"""papi_report.figures.gpu_figures: the GPU kernels (issue 59), drawn from the kernel
tables alone (tables/gpu.py): the kernels of most GPU time, a bar each (the run's from
the MPI report, else the named regions' summed from the region files), and beside it
each kernel's time per rank, min and max (their ranks named) around the mean. Without
GPU activity in the inputs, the reason instead."""
from ..load import registry
from .figures import NotGiven, _fig, note

TOP = 20
MORE_GPU = "the GPU kernels (a CUDA program: the GPU activity layer records by default)"


def _kernels(t):
    """(where, rows): the kernel rows drawn, most time first, at most TOP."""
    k = t.get("mpi_gpu_kernels")
    if k is not None and len(k):
        return "the run (MPI report)", k[k["scope"] == "run"].head(TOP)
    k = t.get("region_gpu_kernels")
    if k is not None and len(k):
        g = k.groupby("kernel", sort=False).agg(
            total_s=("total_s", "sum"), launches=("launches", "sum"),
            rank_min_s=("rank_min_s", "min"), rank_max_s=("rank_max_s", "max"),
            rank_mean_s=("rank_mean_s", "sum")).reset_index()
        g["rank_min"] = g["rank_max"] = None  # summed over regions: no one rank to name
        return "the named regions, summed (region files)", g.sort_values(
            "total_s", ascending=False).head(TOP)
    return None, None


def gpu_kernels(t):
    where, k = _kernels(t)
    if k is None or not len(k):
        return NotGiven("no GPU kernels in the inputs", MORE_GPU)
    k = k.iloc[::-1]  # most time on top
    unit, scale = ("ms", 1e3) if k["total_s"].max() >= 1e-3 else ("us", 1e6)
    names = [n if len(n) <= 40 else n[:37] + "..." for n in k["kernel"]]
    fig, ax = _fig(11, 0.8 + 0.32 * len(k), ncols=2)
    a, b = ax[0][0], ax[0][1]
    a.barh(names, k["total_s"] * scale, color="#4c72b0")
    a.set_xlabel("GPU time, %s (launches' durations summed)" % unit)
    for y, (v, n) in enumerate(zip(k["total_s"] * scale, k["launches"])):
        a.text(v, y, " %d" % n, va="center", fontsize="x-small")
    mean = k["rank_mean_s"] * scale
    b.errorbar(mean, range(len(k)), xerr=[mean - k["rank_min_s"] * scale,
                                          k["rank_max_s"] * scale - mean],
               fmt="o", color="#dd8452", capsize=3)
    for y, (lo, hi, rl, rh) in enumerate(zip(k["rank_min_s"] * scale, k["rank_max_s"] * scale,
                                             k["rank_min"], k["rank_max"])):
        if rl is not None and rh is not None:
            b.text(hi, y, " r%s" % rh, va="center", fontsize="x-small")
            b.text(lo, y, "r%s " % rl, va="center", ha="right", fontsize="x-small")
    b.set_yticks(range(len(k)))
    b.set_yticklabels([])
    b.set_xlabel("per rank, %s: min (rank), mean, max (rank)" % unit)
    a.set_title("GPU kernels of %s: time (launches at the bar's end)" % where, fontsize="small")
    note(fig, "The %d kernels of most GPU time; every kernel is in %s." % (
        len(k), "mpi_gpu_kernels.csv" if "MPI" in where else "region_gpu_kernels.csv"))
    fig.tight_layout()
    return fig


registry.figure("gpu-kernels", "GPU kernels: time per kernel, and per rank min..max",
                "GPU")(gpu_kernels)
