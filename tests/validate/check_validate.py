#!/usr/bin/env python3
"""check_validate.py PAPI_VALIDATE: papi_validate run as a site runs it, on this machine.

Without hardware counters (this project's VM): exit 2, every row "not countable here",
and the library's reason why nothing can be validated, said once above the table (each
row refers to it; --json keeps every row's whole reason), so the output stays small. With them: exit 0 or 1 and a
verdict on every row. On any machine: --json FILE holds the same rows and the exit
status; bad input (an unknown name, a preset this CPU's table lacks, a --json file that
cannot be written) gets one clear message, exit 2, and leaves no file behind.
Exit 0 pass, 1 fail."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)


def run(exe, args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([exe] + args, capture_output=True, text=True, timeout=120, env=e)


ROW = re.compile(r"^(\w+|-)\s+((?:PAPI_)?[A-Z0-9_]+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+"
                 r"(pass|fail|not countable here|no kernel)(?: \((.*)\))?$")


def rows_of(text):
    return [m.groups() for m in map(ROW.match, text.splitlines()) if m]


def check_run(exe, tmp):
    out = os.path.join(tmp, "v.json")
    p = run(exe, ["--quick", "--json", out])
    rows = rows_of(p.stdout)
    check(os.path.exists(out), "--json %s was not written (exit %d)" % (out, p.returncode))
    doc = json.load(open(out)) if os.path.exists(out) else {}
    hw = doc.get("counters", {}).get("number_hardware_counters", 0)
    check(len(doc.get("rows", [])) == len(rows) > 0,
          "JSON has %d rows, the table %d" % (len(doc.get("rows", [])), len(rows)))
    check(doc.get("exit_status") == p.returncode, "JSON exit_status %s, exit %d" %
          (doc.get("exit_status"), p.returncode))
    for key in ("hardware", "papi_version", "papi_compat_version", "isa", "exact_tolerance"):
        check(key in doc, "JSON lacks %s" % key)
    if hw <= 0:
        check(p.returncode == 2, "no counters here, yet exit %d" % p.returncode)
        check(all(r[6] in ("not countable here", "no kernel") and r[7] for r in rows),
              "a row without counters is not 'not countable here' (or a metric's 'no kernel') "
              "with a reason")
        check(all(r[6] != "no kernel" or r[0] == "-" for r in rows),
              "a 'no kernel' row names a kernel")
        # Every metric this CPU defines has rows: IPC over int_adds, CPU_UTILIZATION none.
        check(any(r[0] == "int_adds" and r[1] == "IPC" for r in rows), "no IPC row of int_adds")
        check(any(r[0] == "-" and r[1] == "CPU_UTILIZATION" and r[6] == "no kernel" for r in rows),
              "CPU_UTILIZATION is not listed as 'no kernel'")
        check("No hardware counter could be counted here" in p.stdout,
              "no sentence saying nothing can be counted here")
        reason = doc.get("counters", {}).get("no_counters_reason", "")
        check(reason and reason.split(".")[0] in p.stdout,
              "the library's reason (%r) is not printed" % reason[:80])
        check(any(r[0] == "int_adds" and r[1] == "PAPI_TOT_INS" for r in rows),
              "PAPI_TOT_INS (defined by every table) has no row")
        # The machine-wide reason is said once (rows refer to it), so the output stays
        # small; --json keeps each row's whole reason.
        flat = " ".join(p.stdout.split())
        said = flat.count(" ".join(reason.split())) if reason else -1
        marked = [r for r in rows if r[7] == "[no hardware counters: see above]"]
        whole = [r for r in doc.get("rows", []) if reason and reason in r.get("reason", "")]
        check(said == 1, "the machine-wide reason is said %d times" % said)
        # 16000 before the 14 energy metrics (their "no kernel" rows: ~2.4 kB), 21500 with
        # the 7 GPU metrics of the cuda counters (issue 71: ~1.6 kB more); a reason said on
        # every one of the ~50 rows that refer to it would add ~10 kB
        check(len(p.stdout) < 24000, "%d bytes of output" % len(p.stdout))
        check(len(marked) == len(whole) > 0,
              "%d rows refer to the reason above, %d JSON rows hold it" % (len(marked), len(whole)))
        print("machine-wide reason said %d time(s), %d rows refer to it, %d bytes of output"
              % (said, len(marked), len(p.stdout)))
    else:
        check(p.returncode in (0, 1), "counters here, exit %d" % p.returncode)
        check(all(r[6] != "fail" or r[7] for r in rows), "a failed row gives no reason")
    print("%d rows, exit %d, %d hardware counters" % (len(rows), p.returncode, hw))


def refused(exe, tmp, args, message, env=None):
    out = os.path.join(tmp, "bad.json")
    p = run(exe, args + ["--json", out], env)
    check(p.returncode == 2 and message in p.stderr,
          "%s: exit %d, stderr %r lacks %r" % (" ".join(args), p.returncode, p.stderr[:300], message))
    check(not os.path.exists(out), "%s left %s behind" % (" ".join(args), out))
    check(not glob.glob(os.path.join(tmp, ".bad.json.*")), "%s left a temporary" % " ".join(args))


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        check_run(exe, tmp)
        refused(exe, tmp, ["-e", "PAPI_NO_SUCH"], "unknown preset or metric 'PAPI_NO_SUCH'")
        refused(exe, tmp, ["-e", "FLOPS_OF_NOTHING"], "unknown preset or metric")
        # A CPU whose table lacks the preset: a table of one preset replaces the built-in.
        csv = os.path.join(tmp, "one.csv")
        with open(csv, "w") as f:
            f.write("CPU,generic\nPRESET,PAPI_TOT_INS,NOT_DERIVED,perf::INSTRUCTIONS\n")
        refused(exe, tmp, ["-e", "PAPI_BR_CN"], "PAPI_BR_CN is not defined for this CPU",
                {"PAPI_CSV_EVENT_FILE": csv})
        refused(exe, tmp, ["-e", "DP_FLOPS"], "which is not defined for this CPU",
                {"PAPI_CSV_EVENT_FILE": csv})
        refused(exe, tmp, ["-e", "PAPI_TOT_CYC"], "no kernel of papi_validate")
        p = run(exe, ["-e", "PAPI_TOT_INS", "--quick"], {"PAPI_CSV_EVENT_FILE": csv})
        rows = rows_of(p.stdout)
        check(rows and all(r[1] == "PAPI_TOT_INS" for r in rows),
              "-e PAPI_TOT_INS printed other rows: %r" % rows[:3])
        # An output file that cannot be written: refused before counting, nothing printed.
        bad = os.path.join(tmp, "no-such-dir", "v.json")
        p = run(exe, ["--quick", "--json", bad])
        check(p.returncode == 2 and "cannot create" in p.stderr and not p.stdout,
              "--json in a missing directory: exit %d %r" % (p.returncode, p.stderr[:200]))
        p = run(exe, ["--list"])
        check(p.returncode == 0 and re.search(r"^int_adds\s", p.stdout, re.M) and
              "determines: PAPI_TOT_INS" in p.stdout, "--list: exit %d" % p.returncode)
        check(os.listdir(tmp) == ["v.json", "one.csv"] or sorted(os.listdir(tmp)) ==
              ["one.csv", "v.json"], "files left in the directory: %r" % os.listdir(tmp))
    return verdict("papi_validate")


if __name__ == "__main__":
    sys.exit(main())
