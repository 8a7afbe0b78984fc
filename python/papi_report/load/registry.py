"""papi_report.load.registry: the one list of the report's tables, shown tables, figures and
extra checks. A leaf: it imports nothing of papi_report, every module registers into it.

A new module adds itself with ONE line, its name in MODULES below (in the report's
order, with its layer); inside it, each table, view, figure and check registers where it
is defined:

    from . import registry

    @registry.table("regions")             # fn(files) -> DataFrame, named after fn
    def region_waits(files): ...

    @registry.figure("waits", "Time waiting per region", "Regions")
    def waits(t): ...                      # fn(tables) -> Figure, or a str why not

    registry.view("region_waits", "Waits per region", 40)   # shown on the page and text

    @registry.check("regions")             # fn(path, doc): MalformedInput on a bad value
    def check_waits(path, data): ...

Tables come from "mpi" (fn(rep): the loaded MPI report), "regions" (fn(files): one run's
region files, [(rank, data)]), "profiles" (fn(docs): one run's papi_run --sample
profiles, profile.load's documents), "openmp" (fn(procs): every process's OMPT table,
load.openmp_files.processes), "gpu" (fn(procs): papi_run --gpu's per-process files,
load.load_gpu_runs' [(path, doc)]) or "derived" (fn(tables, docs, peaks): computed from the
other tables). catalog.load(layer) imports the modules of a layer and those below it."""

#: (module, layer) in the report's order. Layers, bottom up: "tables" (pandas: tables and
#: the views of them), "figures" (matplotlib). The load layer (check, load, schema_check,
#: inputs) and the page (html, text, compare) are not listed: they register nothing.
MODULES = [
    ("tables", "tables"),
    ("series", "tables"),
    ("series_metrics", "tables"),
    ("metric_tables", "tables"),
    ("views", "tables"),
    ("metric_views", "tables"),
    ("energy", "tables"),
    ("waits", "tables"),
    ("gpu", "tables"),
    ("openmp", "tables"),
    ("openmp_causes", "tables"),
    ("profile_tables", "tables"),
    ("profile_mpi_tables", "tables"),
    ("timeline_data", "tables"),
    ("figures", "figures"),
    ("metric_figures", "figures"),
    ("series_figures", "figures"),
    ("series_metric_figures", "figures"),
    ("profile_figures", "figures"),
    ("openmp_figures", "figures"),
    ("timeline", "figures"),
    ("gpu_figures", "figures"),
]
LAYERS = ("tables", "figures")
SOURCES = ("mpi", "regions", "profiles", "openmp", "gpu", "derived")

#: name -> (source, fn), in registration order.
TABLES = {}
#: (name, heading, rows, shape): what the page and the text show of a table, in order;
#: shape(df, tables) -> the DataFrame shown (None: the table as it is).
VIEWS = []
#: (id, title, section, draw), in the report's order.
FIGURES = []
#: source -> [fn(path, doc)]: checks run on each loaded file after check.py's own.
CHECKS = {"mpi": [], "regions": []}


def table(source, name=None):
    """Register fn as the table `name` (default: the function's name) of a source."""
    if source not in SOURCES:
        raise ValueError("table source %r is not one of %s" % (source, ", ".join(SOURCES)))

    def add(fn):
        TABLES[name or fn.__name__] = (source, fn)
        return fn
    return add


def view(name, heading, rows, shape=None):
    """Show table `name` on the page and in the text report (its first `rows` rows)."""
    VIEWS.append((name, heading, rows, shape))


def figure(fid, title, section):
    """Register draw(tables) as figure `fid` of a section of the page."""
    def add(draw):
        FIGURES.append((fid, title, section, draw))
        return draw
    return add


def check(source):
    """Register fn(path, doc) to run on every loaded file of a source ("mpi", "regions")."""
    def add(fn):
        CHECKS[source].append(fn)
        return fn
    return add
