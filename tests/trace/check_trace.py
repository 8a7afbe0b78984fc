#!/usr/bin/python3
"""Checks traces papi-compat wrote (src-c/common/trace_*.c).

json FILE... : each file parses and follows the schema (--schema); with --merge the
  files (one per rank) are taken together, their traceEvents concatenated. Then: B/E
  balanced on every track, and each s/f inside a slice of its track; --tracks N
  threads with events; --same-as REF: the same events at the same times as REF; every flow's s has exactly one f (and none alone), the ends
  agreeing on ranks, tag, communicator and bytes, --messages N flows; --enter N
  B events, --region NAME=N calls of NAME (its B events, a B with args.calls counting
  that many); --collectives N X events; --counters N
  (or --counters-min N) C events.
otf2 ANCHOR : otf2-print (--otf2-print) reads every record; the same counts from its
  lines (ENTER/LEAVE, MPI_SEND/MPI_RECV, MPI_COLLECTIVE_END, METRIC), --locations N.
Both: every region typed by its name (trace_tracks.region_type: a B/E's "cat"; otf2-print
  -G's role, paradigm, source file and line).
Prints the figures it found; exit 0 when all hold, 1 otherwise, 77 when a tool is
missing."""
import argparse
import collections
import json
import re
import subprocess
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import trace_tracks  # noqa: E402


def skip(why):
    print("SKIPPED: %s" % why)
    sys.exit(77)


def counts_ok(args, found):
    bad = []
    for key in ("tracks", "locations", "messages", "enter", "collectives", "counters"):
        want = getattr(args, key, None)
        if want is not None and found.get(key) != want:
            bad.append("%s: %s, expected %d" % (key, found.get(key), want))
    if args.counters_min is not None and found.get("counters", 0) < args.counters_min:
        bad.append("counters: %s, expected at least %d" % (found.get("counters"), args.counters_min))
    for spec in args.region:
        name, n = spec.rsplit("=", 1)
        if found["by_region"].get(name, 0) != int(n):
            bad.append("region %s: %d begins, expected %s" % (name, found["by_region"].get(name, 0), n))
    return bad


def check_json(args):
    try:
        import jsonschema
    except ImportError:
        skip("python3-jsonschema is not installed")
    schema = json.load(open(args.schema))
    events, problems = [], []
    for path in args.files:
        with open(path) as f:
            doc = json.load(f)
        errs = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
        for e in errs[:3]:
            problems.append("%s: schema: %s at %s" % (path, e.message[:200], list(e.absolute_path)))
        events.extend(doc.get("traceEvents", []))
    if len(args.files) > 1 and not args.merge:
        problems.append("several files given without --merge")
    stacks = collections.defaultdict(list)
    tracks = set()
    flows = collections.defaultdict(lambda: {"s": [], "f": []})
    found = {"enter": 0, "collectives": 0, "counters": 0, "by_region": collections.Counter()}
    # Each rank's events are in time order; a merge keeps each rank's order.
    for e in events:
        key = (e["pid"], e["tid"])
        ph = e["ph"]
        if ph != "M":
            tracks.add(key)
        if ph in ("B", "E") and e.get("cat") != trace_tracks.region_type(e["name"])[0]:
            problems.append("%s %s: cat %s, expected %s" % (ph, e["name"], e.get("cat"),
                                                            trace_tracks.region_type(e["name"])[0]))
        if ph == "B":
            stacks[key].append(e["name"])
            found["enter"] += 1
            # a slice of folded polls stands for args.calls calls (the MPI wrapper's)
            found["by_region"][e["name"]] += e.get("args", {}).get("calls", 1)
        elif ph == "E":
            if not stacks[key] or stacks[key][-1] != e["name"]:
                problems.append("E %s on %s closes %s" % (e["name"], key, stacks[key][-1:] or "nothing"))
            else:
                stacks[key].pop()
        elif ph == "X":
            found["collectives"] += 1
        elif ph == "C":
            found["counters"] += 1
        elif ph in "sf":
            if not stacks[key]:
                problems.append("%s at ts %s on %s outside every slice" % (ph, e["ts"], key))
            flows[e["id"]][ph].append(e)
    for key, st in stacks.items():
        if st:
            problems.append("track %s ends with open slices %s" % (key, st))
    for fid, ends in flows.items():
        if args.one_rank:
            break
        if len(ends["s"]) != 1 or len(ends["f"]) != 1:
            problems.append("flow %d: %d sends, %d receives" % (fid, len(ends["s"]), len(ends["f"])))
            continue
        s, f = ends["s"][0], ends["f"][0]
        a, b = s["args"], f["args"]
        if (a["to"], b["from"], a["tag"], a["comm"], a["bytes"]) != (f["pid"], s["pid"], b["tag"], b["comm"], b["bytes"]):
            problems.append("flow %d: send %s does not match receive %s" % (fid, a, b))
    if args.same_as:
        def key(e):
            return (e["pid"], e["tid"], e["ph"], e.get("name"), e.get("ts"), e.get("id"))
        ref = json.load(open(args.same_as))["traceEvents"]
        a, b = collections.Counter(map(key, events)), collections.Counter(map(key, ref))
        if a != b:
            problems.append("events differ from %s: %s only here, %s only there" % (
                args.same_as, list((a - b).items())[:3], list((b - a).items())[:3]))
    found["tracks"] = len(tracks)
    found["messages"] = len(flows)
    problems += counts_ok(args, found)
    print("json: %d file(s), %d events, %d tracks, %d flows, %d B, %d X, %d C, regions %s"
          % (len(args.files), len(events), found["tracks"], found["messages"], found["enter"],
             found["collectives"], found["counters"], dict(found["by_region"])))
    return problems


EVENT = re.compile(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$")


def check_otf2(args):
    if args.otf2_print in (None, "", "none"):
        skip("no otf2-print (Debian: apt-get install otf2-tools)")
    if len(args.files) != 1:
        return ["one anchor file expected, got %s" % args.files]
    p = subprocess.run([args.otf2_print, args.files[0]], capture_output=True, text=True)
    if p.returncode != 0:
        return ["otf2-print failed (%d): %s" % (p.returncode, p.stderr.strip()[:500])]
    kinds = collections.Counter()
    locs = set()
    found = {"by_region": collections.Counter()}
    leave_by = collections.Counter()
    for line in p.stdout.splitlines():
        m = EVENT.match(line)
        if not m:
            continue
        kind, loc, rest = m.group(1), m.group(2), m.group(4)
        kinds[kind] += 1
        locs.add(loc)
        r = re.search(r'Region: "([^"]*)"', rest)
        if kind == "ENTER" and r:
            found["by_region"][r.group(1)] += 1
        if kind == "LEAVE" and r:
            leave_by[r.group(1)] += 1
    problems = []
    if kinds["ENTER"] != kinds["LEAVE"] or leave_by != found["by_region"]:
        problems.append("ENTER %s != LEAVE %s" % (dict(found["by_region"]), dict(leave_by)))
    if kinds["MPI_SEND"] != kinds["MPI_RECV"]:
        problems.append("MPI_SEND %d != MPI_RECV %d" % (kinds["MPI_SEND"], kinds["MPI_RECV"]))
    if kinds["MPI_COLLECTIVE_BEGIN"] != kinds["MPI_COLLECTIVE_END"]:
        problems.append("collective begins %d != ends %d" % (kinds["MPI_COLLECTIVE_BEGIN"], kinds["MPI_COLLECTIVE_END"]))
    found.update(enter=kinds["ENTER"], messages=kinds["MPI_SEND"], collectives=kinds["MPI_COLLECTIVE_END"],
                 counters=kinds["METRIC"], locations=len(locs))
    regs = trace_tracks.regions_otf2(args.files[0], args.otf2_print)
    for name, got in sorted(regs.items()):
        if got != trace_tracks.region_type(name)[1:]:
            problems.append("region %s: %s, expected %s" % (name, got, trace_tracks.region_type(name)[1:]))
    if len(regs) < len(found["by_region"]):
        problems.append("otf2-print -G: %d regions read, %d entered" % (len(regs), len(found["by_region"])))
    problems += counts_ok(args, found)
    print("otf2: %d locations, records %s, regions %s" % (len(locs), dict(kinds), dict(found["by_region"])))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["json", "otf2"])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--schema")
    ap.add_argument("--merge", action="store_true")
    ap.add_argument("--one-rank", action="store_true", help="a rank alone: its flows have one end")
    ap.add_argument("--same-as", help="a JSON trace with the same events at the same times")
    ap.add_argument("--otf2-print")
    for k in ("tracks", "locations", "messages", "enter", "collectives", "counters", "counters-min"):
        ap.add_argument("--" + k, type=int)
    ap.add_argument("--region", action="append", default=[])
    args = ap.parse_args()
    problems = check_json(args) if args.kind == "json" else check_otf2(args)
    for p in problems[:20]:
        print("FAIL: " + p)
    if not problems:
        print("PASSED")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
