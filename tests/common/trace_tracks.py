"""The tracks of a trace papi-compat wrote (src-c/common/trace_*.c) read back for a test:
{rank: {track name: [(region, start, end)]}}, times in absolute ns of the trace's clock,
each track's slices in time order. JSON: base_ns + ts; OTF2: otf2-print's own lines
(locations "rank R TRACK", ENTER and LEAVE)."""
import collections
import json
import re
import subprocess


def slices(events):
    """[(name, start, end)] from time-ordered (kind, name, ts) of one track."""
    out, stack = [], []
    for kind, name, ts in events:
        if kind == "B":
            stack.append((name, ts))
        elif stack:
            n, t0 = stack.pop()
            out.append((n, t0, ts))
    return sorted(out, key=lambda o: (o[1], o[2]))


def from_json(path):
    """{rank: {track: [(name, start, end)]}} with absolute times (base_ns + ts)."""
    d = json.load(open(path))
    base = d["otherData"]["base_ns"]
    names, ev = {}, collections.defaultdict(list)
    for e in d["traceEvents"]:
        if e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") in ("B", "E"):
            ev[(e["pid"], e["tid"])].append((e["ph"], e["name"], base + round(e["ts"] * 1000)))
    out = collections.defaultdict(dict)
    for (pid, tid), evs in ev.items():
        out[pid][names.get((pid, tid), "?")] = slices(evs)
    return out


def from_otf2(anchor, otf2_print="otf2-print"):
    """The same from otf2-print's output."""
    defs = subprocess.run([otf2_print, "-G", anchor], capture_output=True, text=True).stdout
    loc = {int(m.group(1)): (int(m.group(2)), m.group(3)) for m in re.finditer(
        r'^LOCATION\s+(\d+)\s+Name: "rank (\d+) ([^"]*)"', defs, re.M)}
    text = subprocess.run([otf2_print, anchor], capture_output=True, text=True).stdout
    ev = collections.defaultdict(list)
    for m in re.finditer(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "([^"]*)"', text, re.M):
        ev[int(m.group(2))].append(("B" if m.group(1) == "ENTER" else "E", m.group(4),
                                    int(m.group(3))))
    out = collections.defaultdict(dict)
    for l, evs in ev.items():
        rank, track = loc[l]
        out[rank][track] = slices(evs)
    return out


#: Each OpenMP slice's JSON category and OTF2 role by its kind's name (issue 73 item 3;
#: a named parallel region is "function (file:line)": openmp.parallel, PARALLEL).
OMP_KINDS = {"parallel region": ("openmp.parallel", "PARALLEL"),
             "implicit task": ("openmp.implicit_task", "TASK"),
             "barrier": ("openmp.barrier", "BARRIER"),
             "join": ("openmp.implicit_barrier", "IMPLICIT_BARRIER"),
             "taskwait": ("openmp.taskwait", "TASK_WAIT"),
             "taskgroup": ("openmp.taskgroup", "TASK_WAIT"),
             "explicit task": ("openmp.task", "TASK")}


#: The constructs' slices (issue 73), named "ROLE function (file:line)" or "ROLE (no code
#: address)": each role's JSON category and OTF2 role.
CONSTRUCT_ROLES = {"loop": ("openmp.loop", "LOOP"), "sections": ("openmp.sections", "SECTIONS"),
                   "single": ("openmp.single", "SINGLE"), "workshare": ("openmp.workshare", "WORKSHARE"),
                   "critical": ("openmp.critical", "CRITICAL"), "lock": ("openmp.lock", "CRITICAL"),
                   "ordered": ("openmp.ordered", "ORDERED"), "atomic": ("openmp.atomic", "ATOMIC"),
                   "reduction": ("openmp.reduction", "COLL_OTHER"), "masked": ("openmp.masked", "MASTER"),
                   "target": ("openmp.target", "CODE")}


def construct_type(name):
    """A construct slice's (JSON category, OTF2 role, source file, begin line), or None
    for another region (a parallel region forked in a function named as a role has no
    function between the role and its site)."""
    role, _, rest = name.partition(" ")
    if role not in CONSTRUCT_ROLES or not rest.endswith(")") or (
            rest.startswith("(") and rest != "(no code address)"):
        return None
    m = re.match(r"^(.+?) \((.+):(\d{1,9})\)$", rest)
    return CONSTRUCT_ROLES[role] + ((m.group(2), int(m.group(3))) if m else ("", 0))


def region_type(name):
    """(JSON category, OTF2 role, OTF2 paradigm, source file, begin line) the writer gives
    a region named name (src-c/common/trace_region_type.c): an MPI call's, an OpenMP
    kind's, a construct's "ROLE function (file:line)", a parallel region's "function
    (file:line)" (the file from the first " ("), or the user's."""
    if name.startswith("MPI_"):
        return ("mpi", "FUNCTION", "MPI", "", 0)
    if name in OMP_KINDS:
        return OMP_KINDS[name] + ("OPENMP", "", 0)
    c = construct_type(name)
    if c:
        return c[:2] + ("OPENMP",) + c[2:]
    m = re.match(r"^(.+?) \((.+):(\d{1,9})\)$", name)
    if m:
        return ("openmp.parallel", "PARALLEL", "OPENMP", m.group(2), int(m.group(3)))
    return ("region", "CODE", "USER", "", 0)


def categories_json(path):
    """{region name: {"cat" of its B and E events}} of a JSON trace."""
    out = collections.defaultdict(set)
    for e in json.load(open(path))["traceEvents"]:
        if e.get("ph") in ("B", "E"):
            out[e["name"]].add(e.get("cat"))
    return out


def regions_otf2(anchor, otf2_print="otf2-print"):
    """{region name: (role, paradigm, source file, begin line)} of otf2-print -G's REGION
    lines."""
    defs = subprocess.run([otf2_print, "-G", anchor], capture_output=True, text=True).stdout
    return {m.group(1): (m.group(2), m.group(3), m.group(4), int(m.group(5))) for m in re.finditer(
        r'^REGION\s+\d+\s+Name: "((?:[^"\\]|\\.)*)" <\d+>.*?, Role: (\w+), Paradigm: (\w+), '
        r'Flags: \w+, File: "((?:[^"\\]|\\.)*)" <\d+>, Begin: (\d+)', defs, re.M)}
