"""papi_report --merge-trace OUT.otf2 DIR/papi_mpi_trace/traces.otf2: a finished MPI job's
OTF2 archive (PAPI_MPI_TRACE=otf2, every rank writing its own locations) copied into a NEW
archive with the job's critical path and each wait's root causes, when the job's event
logs lie beside the archive's directory (PAPI_MPI_KEEP_EVENT_LOG=1). The wrapper writes the
archive at MPI_Finalize and knows nothing of the causes; papi_report computes them from the
logs (load/trace_causes.py: the analyses of `papi_report DIR`, and the matching of each
call's log record to its slice that puts them on the trace's own time axis, as the JSON
merge does). Only where they go in OTF2 is here:

- every definition and event of the archive, unchanged (its clock properties too), and its
  properties (PAPI_COMPAT::DROPPED_RECORDS), creator and description;
- a location group "critical path" (a process, under the system tree's root) with one
  location whose regions enter and leave along the path's parts in time order, each region
  the part's activity (a region of its own: its description says so), each ENTER with the
  attributes rank (INT64) and site (STRING);
- on each waiting MPI call's ENTER the attributes wait_kind (STRING, late_sender ...),
  wait_s (every wait: one the analysis found no cause of, its time the residual, has
  these two alone), and its largest cause: cause_rank (INT64), cause (the activity), cause_site,
  direct_s and propagated_s (DOUBLE, the part of this wait that cause made directly or
  through other waits, as mpi_root_causes.csv sums them) and other_causes_s (what the
  wait's other causes made, summed: 0 where the largest is the only one).

The archive is read and written one event at a time (python3-otf2's reader and writer:
the event logs' analysis holds every rank's calls, as --advise does). OUT is a new anchor
file NAME.otf2: the archive is written under a temporary directory beside it, then its
NAME/ and NAME.def moved into place and the anchor linked last, so a reader never sees a
part; an OUT, NAME/ or NAME.def that exists is refused. The page layer: python3-otf2 is
imported here only, where an archive is asked for."""
import errno
import os
import re
import shutil
import sys
import tempfile

from ..load import event_logs, progress, trace_causes

#: A rank's location group as the wrapper names it (src-c/common/trace_otf2_defs.c).
RANK_GROUP = re.compile(r"rank (\d+) \(pid -?\d+\)$")
#: The attributes written: (name, type name, description).
WAIT_ATTRS = (
    ("wait_kind", "STRING", "the wait state of this MPI call (late_sender ...)"),
    ("wait_s", "DOUBLE", "seconds this MPI call waited"),
    ("cause_rank", "INT64", "the rank of the wait's largest root cause"),
    ("cause", "STRING", "the largest root cause's activity (mpi_root_causes.csv's cause)"),
    ("cause_site", "STRING", "the largest root cause's call site"),
    ("direct_s", "DOUBLE", "seconds of this wait the largest cause made directly"),
    ("propagated_s", "DOUBLE", "seconds of this wait the largest cause made through "
                               "other waits"),
    ("other_causes_s", "DOUBLE", "seconds of this wait its other causes made (0: the "
                                 "largest is the only one)"))
PATH_ATTRS = (
    ("rank", "INT64", "the rank whose activity this part of the critical path is"),
    ("site", "STRING", "the call site that ends this activity"))
PATH_NAME = "critical path"
PATH_REGION = "a part of the job's critical path (papi_report --merge-trace)"


class TraceOtf2Error(Exception):
    """An archive that is not a papi-compat MPI job's, or no event logs to add."""


def is_archive(paths):
    """True when paths is one OTF2 anchor file (NAME.otf2)."""
    return len(paths) == 1 and paths[0].endswith(".otf2") and os.path.isfile(paths[0])


def parts_of(out):
    """The three paths an archive OUT (NAME.otf2) consists of: the anchor, NAME.def and the
    event folder NAME/."""
    stem = out[:-len(".otf2")]
    return out, stem + ".def", stem


def refuse_out(out, path):
    """Why OUT cannot be written (one line), or None."""
    if not out.endswith(".otf2") or len(os.path.basename(out)) <= len(".otf2"):
        return ("--merge-trace OUT %s: the copy of an OTF2 archive is an OTF2 archive, name "
                "its anchor file NAME.otf2 (papi_report --merge-trace with_causes.otf2 %s): "
                "nothing written" % (out, path))
    for p in parts_of(out):
        if os.path.lexists(p):
            return ("--merge-trace OUT %s: %s exists: papi_report never writes over a file, "
                    "name a new OUT: nothing written" % (out, p))
    return None


def _types(otf2):
    return {"STRING": otf2.Type.STRING, "DOUBLE": otf2.Type.DOUBLE, "INT64": otf2.Type.INT64}


def _ranks(defs):
    """{location group: rank} of the archive's ranks (its process groups named rank N)."""
    out = {}
    for g in defs.location_groups:
        m = RANK_GROUP.match(g.name or "")
        if m:
            out[g] = int(m.group(1))
    return out


def _cat(otf2, region):
    """The JSON trace's cat of a region's slices: an MPI call's "mpi", a user region's
    (MPI_Pcontrol) "region", any other None (not matched to the logs)."""
    if region.paradigm == otf2.Paradigm.MPI:
        return "mpi"
    if region.paradigm == otf2.Paradigm.USER:
        return "region"
    return None


def wait_values(args):
    """{attribute name: value} of a wait slice's args (trace_causes' tag()): its kind and
    seconds, its largest cause and what the others made, summed (a wait with no cause
    found: its kind and seconds alone)."""
    kind = next(k[:-2] for k in args if k.endswith("_s") and k != "others_s")
    causes = args["causes"]
    if not causes:  # no cause found: the wait's time is the analysis' residual
        return {"wait_kind": kind, "wait_s": args[kind + "_s"]}
    top = causes[0]
    rest = sum(c["direct_s"] + c["propagated_s"] for c in causes[1:]) + args.get("others_s", 0)
    return {"wait_kind": kind, "wait_s": args[kind + "_s"], "cause_rank": top["cause_rank"],
            "cause": top["cause"], "cause_site": top["cause_site"],
            "direct_s": top["direct_s"], "propagated_s": top["propagated_s"],
            "other_causes_s": round(rest, 9)}


def _writer(otf2, folder, name, defs):
    """The writer of the new archive (python3-otf2's), its clock properties the original's
    (the library's writer would set them from the events it saw and the time of writing)."""
    from otf2.definition_writer import DefinitionWriter

    class Writer(otf2.writer.Writer):
        def _write_global_definitions(self):
            if not self.is_primary:
                return
            c = self.definitions.clock_properties
            with DefinitionWriter(self) as w:
                w.write_clock_properties(c.timer_resolution, c.global_offset,
                                         c.trace_length, c.realtime_timestamp)
                self.definitions.write(w)
    return Writer(folder, archive_name=name, definitions=defs)


def _attrs(otf2, defs, table):
    types = _types(otf2)
    return {n: defs.attribute(n, d, types[t]) for n, t, d in table}


def _causes(path, base, nranks, notes):
    """trace_causes.Causes of the job's event logs beside the archive; TraceOtf2Error where
    there are none or they cannot be used."""
    try:
        causes = trace_causes.load([path], base, nranks, None, notes)
    except (trace_causes.TraceCausesError, event_logs.EventLogError) as e:
        raise TraceOtf2Error("%s: nothing written" % e)
    if causes is None:
        raise TraceOtf2Error(
            "no event logs beside %s (nor in the directory above): the job's logs are kept "
            "past MPI_Finalize with PAPI_MPI_KEEP_EVENT_LOG=1; without them there is no "
            "critical path or root cause to add: nothing written" % path)
    return causes


def copy(otf2, path, folder, name, notes):
    """The archive at path written as folder/name.otf2 with the critical path and the waits'
    causes; (the events written, Causes.summary())."""
    with otf2.reader.open(path) as reader:
        defs = reader.definitions
        clock = defs.clock_properties
        if clock.timer_resolution != 1000000000:
            raise TraceOtf2Error("%s: a timer of %d ticks a second, not ns: not an MPI job's "
                                 "archive of papi-compat" % (path, clock.timer_resolution))
        ranks = _ranks(defs)
        if not ranks:
            raise TraceOtf2Error("%s: no location group named \"rank N (pid P)\": not an MPI "
                                 "job's archive of papi-compat" % path)
        base = clock.global_offset
        causes = _causes(path, base, len(ranks), notes)
        total = sum(loc.number_of_events for loc in defs.locations)
        wait_attr = _attrs(otf2, defs, WAIT_ATTRS)
        path_attr = _attrs(otf2, defs, PATH_ATTRS)
        root = next(n for n in defs.system_tree_nodes if n.parent is None)
        group = defs.location_group(PATH_NAME, location_group_type=otf2.LocationGroupType.PROCESS,
                                    system_tree_parent=root)
        where = defs.location(PATH_NAME, type=otf2.LocationType.CPU_THREAD, group=group)
        w = _writer(otf2, folder, name, defs)
        try:
            for prop in otf2_properties(reader):
                _set_property(w, *prop)
            n, writing = 0, progress.Progress("writing " + name + ".otf2", total, "events")
            for loc, event in reader.events:
                n += 1
                if isinstance(event, (otf2.events.Enter, otf2.events.Leave)):
                    _tag(otf2, causes, ranks, base, loc, event, wait_attr)
                w.event_writer_from_location(loc)(event)
                if not n & 4095:
                    writing.at(n)
            writing.done()
            n += _write_path(otf2, w, where, causes, base, path_attr)
        finally:
            w.close()
    return n, causes.summary()


def otf2_properties(reader):
    """[(name, value)] of the archive's properties, its creator and description."""
    import _otf2
    h = reader.handle
    out = [(p, _otf2.Reader_GetProperty(h, p)) for p in _otf2.Reader_GetPropertyNames(h)]
    return out + [("creator", _otf2.Reader_GetCreator(h)),
                  ("description", _otf2.Reader_GetDescription(h))]


def _set_property(w, name, value):
    if name == "creator":
        w.creator = value
    elif name == "description":
        w.description = value
    else:
        import _otf2
        _otf2.Archive_SetProperty(w.handle, name, value, True)


def _tag(otf2, causes, ranks, base, loc, event, wait_attr):
    """An ENTER or LEAVE given to Causes.tag() as the JSON merge gives a B or E (its clock
    matching); a waiting call's ENTER gets its causes as attributes."""
    rank = ranks.get(loc.group)
    cat = _cat(otf2, event.region)
    if rank is None or cat is None:
        return
    enter = isinstance(event, otf2.events.Enter)
    e = {"ph": "B" if enter else "E", "cat": cat, "name": event.region.name, "pid": rank,
         "tid": loc._ref, "ts": round((event.time - base) / 1000.0, 3)}
    args = causes.tag(e).get("args", {})
    if enter and "causes" in args:
        values = wait_values(args)
        attributes = dict(event.attributes or {})
        attributes.update((wait_attr[k], v) for k, v in values.items())
        event.attributes = attributes


def _write_path(otf2, w, where, causes, base, path_attr):
    """The critical path's location: an ENTER and a LEAVE per part (ns on the archive's
    axis, a part's start never before the last one's end); the events written."""
    ev = w.event_writer_from_location(where)
    regions, end, n = {}, None, 0
    for s in causes.path_slices():
        t0 = base + int(round(s["ts"] * 1000))
        t1 = base + int(round((s["ts"] + s["dur"]) * 1000))
        t0 = t0 if end is None else max(t0, end)
        if t1 <= t0:
            continue
        name = s["name"]
        if name not in regions:
            regions[name] = w.definitions.region(
                name, canonical_name=name, description=PATH_REGION,
                region_role=otf2.RegionRole.CODE, paradigm=otf2.Paradigm.USER)
        ev.enter(t0, regions[name], attributes={path_attr["rank"]: s["args"]["rank"],
                                                path_attr["site"]: s["args"]["site"]})
        ev.leave(t1, regions[name])
        end, n = t1, n + 2
    return n


def _place(tmp, name, out):
    """The archive written in tmp moved to OUT's place: NAME/ and NAME.def renamed, the
    anchor linked last (a file that appeared at OUT meanwhile is kept: FileExistsError)."""
    anchor, defs, evts = parts_of(out)
    for p in (defs, evts):
        if os.path.lexists(p):
            raise FileExistsError(errno.EEXIST, "exists", p)
    os.rename(os.path.join(tmp, name + ".def"), defs)
    os.rename(os.path.join(tmp, name), evts)
    src = os.path.join(tmp, name + ".otf2")
    try:
        os.link(src, anchor)
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        os.close(os.open(anchor, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        os.replace(src, anchor)


def _otf2_error():
    import _otf2
    return _otf2.Error


def main(out, paths):
    """0 done; 2 bad input (not a papi-compat archive, no usable event logs) or an OUT that
    exists (nothing written), or a torn last line of an event log (written without it,
    said); 1 python3-otf2 missing or OUT not writable. One line on stderr says why."""
    path = paths[0]
    why = refuse_out(out, path)
    if why:
        print("papi_report: %s" % why, file=sys.stderr)
        return 2
    try:
        import otf2
        import otf2.definition_writer  # noqa: F401 (the copy's clock properties)
    except ImportError as e:
        print("papi_report: --merge-trace of an OTF2 archive needs python3-otf2 (Debian: "
              "apt-get install python3-otf2): %s: nothing written" % e, file=sys.stderr)
        return 1
    name = os.path.basename(out)[:-len(".otf2")]
    tmp = tempfile.mkdtemp(prefix=".otf2.", dir=os.path.dirname(os.path.abspath(out)))
    notes = []
    try:
        try:
            written, found = copy(otf2, path, tmp, name, notes)
            _place(tmp, name, out)
        finally:
            progress.clear()
    except TraceOtf2Error as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2
    except FileExistsError:
        print("papi_report: %s" % refuse_out(out, path), file=sys.stderr)
        return 2
    except OSError as e:
        print("papi_report: cannot write %s: %s" % (out, e.strerror), file=sys.stderr)
        return 1
    except (otf2.error.Error, _otf2_error()) as e:  # an archive it cannot read
        print("papi_report: %s: %s: nothing written" % (path, e), file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("papi_report: wrote %s (%d events) with the critical path (%.6f s of the wall time "
          "%.6f s, location \"%s\") and %d waits linked to their root causes, from the event "
          "logs in %s" % (out, written, found["critical_path_s"], found["wall_s"], PATH_NAME,
                          found["waits_linked"], found["event_logs"]))
    for note in notes:
        print("papi_report: %s: left out of the root causes" % note, file=sys.stderr)
    return 2 if notes else 0
