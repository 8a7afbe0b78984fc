"""papi_report.tables.catalog: the registered modules loaded (registry.MODULES) and every
table the inputs give. The top of the tables layer: it imports the modules a layer lists by
name (each from its layer's folder: papi_report.<layer>.<name>), so no module that registers imports another to be listed, and none imports this."""
import importlib

from ..load import registry
from ..load import openmp_files
from ..load.load import load_mpi, load_ompt, _regions_arg
from .tables import region_instances, region_totals, region_tree


def load(layer="tables"):
    """Import every module of registry.MODULES up to layer ("tables" needs pandas,
    "figures" matplotlib); each registers what it defines. Idempotent."""
    upto = registry.LAYERS[: registry.LAYERS.index(layer) + 1]
    for name, lay in registry.MODULES:
        if lay in upto:
            importlib.import_module("..%s.%s" % (lay, name), __package__)


def tables(mpi=None, regions=None, peaks=None, profiles=None, openmp=None, gpu=None,
           mpi_name=None):
    """{name: DataFrame} of every table the inputs give (the CSV files papi_report writes).
    mpi: a report file or directory (or a loaded report); regions: a papi_hl_output
    directory or rank files (or load_regions' result); peaks: the machine's peaks for the
    roofline ({"flops_per_s": x, "bytes_per_s": y}, before any a report gives); profiles:
    one run's papi_run --sample documents (profile.load); openmp: the OMPT tool's
    ompt_PID.json files or directories holding them (or load_ompt's result): their
    tables and those papi_run's region files carry give the OpenMP tables; gpu: papi_run
    --gpu's per-process files (load_gpu_runs' result) give the run_gpu_* tables; mpi_name:
    the loaded report's file, for what is said of it."""
    load("tables")
    out, docs = {}, []
    if mpi is not None:
        rep = load_mpi(mpi) if isinstance(mpi, str) else mpi
        out.update({k: f(rep) for k, (src, f) in registry.TABLES.items() if src == "mpi"})
        docs.append((mpi if isinstance(mpi, str) else mpi_name or "the MPI report", rep))
    if regions is not None:
        files = _regions_arg(regions)
        # Each instance's path once: the totals and the tree are sums of the instances.
        inst = region_instances(files)
        tot = region_totals(files, inst)
        made = {"region_instances": inst, "region_totals": tot, "region_tree": region_tree(files, tot)}
        out.update({k: made[k] if k in made else f(files)
                    for k, (src, f) in registry.TABLES.items() if src == "regions"})
        docs += [("the region file of rank %d" % r, d) for r, d in files]
    if openmp is not None and not (isinstance(openmp, list) and all(isinstance(o, tuple) for o in openmp)):
        openmp = load_ompt(openmp)  # paths; else load_ompt's [(path, doc)] already
    procs = openmp_files.processes(openmp or [], files if regions is not None else None)
    if procs or openmp is not None:
        out.update({k: f(procs) for k, (src, f) in registry.TABLES.items() if src == "openmp"})
    if gpu is not None:
        out.update({k: f(gpu) for k, (src, f) in registry.TABLES.items() if src == "gpu"})
    if profiles:
        out.update({k: f(profiles) for k, (src, f) in registry.TABLES.items() if src == "profiles"})
    for k, (src, f) in registry.TABLES.items():
        if src == "derived":
            out[k] = f(out, docs, peaks)
    return out
