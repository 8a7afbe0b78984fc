#!/usr/bin/env python3
"""check_tool_json.py --bindir DIR --tool PAPI_REPORT [--papi-run P] --program PROG OUT:
every utility's --json (and papi_run --json's lines) follows its schema
(schema/<tool>.schema.json, the header's util_header.schema.json), is told apart by
papi_report --check without being named, and a broken copy of each rule kind is refused
with the file and the JSON path. Runs each tool once with small iteration counts (a few
seconds in all). Exit 0 pass, 1 fail, 77 skipped."""
import argparse
import copy
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails as FAILURES  # noqa: E402 (tests/common/checks.py)
# tool -> its arguments besides --json (events that exist on any Linux: the kernel's
# software events), chosen so each finishes in about a second.
RUNS = {
    "papi_version": [], "papi_error_codes": [], "papi_clockres": [], "papi_mem_info": [],
    "papi_hardware_avail": [], "papi_component_avail": [], "papi_avail": [],
    "papi_native_avail": [], "papi_metric_avail": [], "papi_xml_event_info": [],
    "papi_decode": ["-a"], "papi_cost": ["-t", "200", "-e", "perf::TASK-CLOCK"],
    "papi_multiplex_cost": ["-t", "100", "-x", "2"],
    "papi_command_line": ["perf::TASK-CLOCK", "perf::NO_SUCH_EVENT"],
    "papi_event_chooser": ["NATIVE", "perf::TASK-CLOCK"],
}
EXTRA = {  # (tool, name, arguments): the other shapes of a tool's document
    ("papi_avail", "papi_avail_e", ("-e", "PAPI_TOT_INS")),
    ("papi_avail", "papi_avail_e_unknown", ("-e", "PAPI_NO_SUCH")),
    ("papi_native_avail", "papi_native_avail_e", ("-e", "perf::TASK-CLOCK", "--check")),
}


def run(cmd, cwd):
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--papi-run")
    ap.add_argument("--program", help="a program for papi_run to run")
    ap.add_argument("out")
    a = ap.parse_args()
    a.tool = os.path.abspath(a.tool)
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.tool)))
    try:
        from papi_report.load import schema_check as sc
        sc.validators()
    except (ImportError, sc.SchemaUnavailable) as e:
        print("SKIPPED: %s" % e)
        return 77
    os.makedirs(a.out, exist_ok=True)
    docs = {}
    runs = [(t, t, tuple(args)) for t, args in RUNS.items()] + sorted(EXTRA)
    for tool, name, args in runs:
        exe = os.path.join(a.bindir, tool)
        if not os.path.exists(exe):
            check(False, "%s is not built in %s" % (tool, a.bindir))
            continue
        rc, out, err = run([exe, "--json"] + list(args), a.out)
        try:
            doc = json.loads(out)
        except ValueError as e:
            check(False, "%s --json %s: exit %d, not JSON (%s): %s" % (tool, " ".join(args), rc, e, err[-300:]))
            continue
        path = os.path.join(a.out, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(out)
        docs[name] = (tool, path, doc)
        why = sc.check_document(path, doc, kind=tool)
        check(why is None, "%s --json %s does not follow %s.schema.json: %s" % (tool, " ".join(args), tool, why))
        check(sc.kind_of(path, doc) == tool, "%s's document is told as %s" % (name, sc.kind_of(path, doc)))
    if a.papi_run and a.program:
        rc, out, err = run([a.papi_run, "--json", "-e", "perf::TASK-CLOCK,perf::PAGE-FAULTS", "-o",
                            os.path.join(a.out, "run_files"), a.program, "1", "1", "1", "1", "1", "1"], a.out)
        lines = [ln for ln in out.splitlines() if ln.startswith("{")]
        check(rc == 0 and len(lines) >= 2, "papi_run --json: exit %d, %d lines: %s" % (rc, len(lines), err[-300:]))
        path = os.path.join(a.out, "papi_run_stat.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        for i, ln in enumerate(lines):
            why = sc.check_document("%s line %d" % (path, i + 1), json.loads(ln), kind="papi_run_stat_line")
            check(why is None, "papi_run --json line %d: %s" % (i + 1, why))
        docs["papi_run_stat"] = ("papi_run_stat_line", path, None)
    # papi_report --check tells every file's kind and finds them all good.
    files = [p for _t, p, _d in docs.values()]
    rc, out, err = run([sys.executable, a.tool, "--check"] + files, a.out)
    print(out.strip())
    check(rc == 0 and "%d of %d files follow" % (len(files), len(files)) in out,
          "papi_report --check on the tools' documents: exit %d: %s %s" % (rc, out, err))
    # Broken copies, one per rule kind: each refused, naming the file and the JSON path.
    broken = []

    def broke(name, path_part, change):
        tool, _p, doc = docs.get(name, (None, None, None))
        if doc is None:
            return
        d = copy.deepcopy(doc)
        change(d)
        p = os.path.join(a.out, "broken_%s_%d.json" % (name, len(broken)))
        with open(p, "w", encoding="utf-8") as f:
            json.dump(d, f)
        broken.append((p, path_part))
    broke("papi_avail", "$.summary.possible", lambda d: d["summary"].update(possible=-1))       # minimum
    broke("papi_avail", "$.presets[0]", lambda d: d["presets"][0].update(colour="red"))          # closed object
    broke("papi_clockres", "$.timers[0].unit", lambda d: d["timers"][0].update(unit="furlongs"))  # enum
    broke("papi_component_avail", "$.components[0].active",
          lambda d: d["components"][0].update(active="yes"))                                      # type
    broke("papi_native_avail", "$.components[0].events[0].code",
          lambda d: d["components"][0]["events"][0].update(code="12"))                            # pattern
    broke("papi_version", "$", lambda d: d.pop("major"))                                          # required
    broke("papi_cost", "$.hardware.sockets", lambda d: d["hardware"].update(sockets=1.5))         # the header's
    broke("papi_xml_event_info", "$.components[0].native[0]",
          lambda d: d["components"][0]["native"][0].pop("name"))                                  # a $defs ref
    for p, where in broken:
        rc, out, err = run([sys.executable, a.tool, "--check", p], a.out)
        line = err.strip().splitlines()[-1] if err.strip() else ""
        print(line[:200])
        check(rc == 2 and p in line and (": %s" % where) in line and "Traceback" not in err,
              "papi_report --check %s: exit %d, want 2 naming %s: %r" % (p, rc, where, err[-400:]))
    check(len(broken) == 8, "%d broken files made, want 8" % len(broken))
    print("check_tool_json: %d documents, %d broken copies: %s" % (
        len(docs), len(broken), "FAILED (%d)" % len(FAILURES) if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
