#!/usr/bin/env python3
"""check_whole_reasons.py --reasons R --avail A --component-avail C --regions G --machine DIR
                          [--seccomp S] [--mpirun M --mpi-program P]

No reason is ever cut where we write it, whatever its length. Reasons longer than 1100
bytes are made from a path that long: a preset file (PAPI_CSV_EVENT_FILE) with a line
the parser rejects, at the end of a 1,200-byte directory path (every preset's reason
then names it; its native event is on a PMU sysfs lacks, cpu::, whose reason is the
kernel's sysfs and not libpfm4's short list of names), and a recorded machine (PAPI_FSROOT) reached through that path (the
perf_event component's reason names it). Checked:
  * PAPI_event_info_t.note (PAPI_HUGE_STR_LEN bytes) ends with the mark that says where
    the whole reason is; PAPI_query_event's and PAPI_add_event's detail
    (PAPI_strerror_detail) hold it whole;
  * disabled_reason (PAPI_HUGE_STR_LEN bytes) ends with the mark;
    PAPI_get_component_reason holds it whole;
  * papi_avail -e and papi_component_avail --json print the whole ones;
  * the region API's stderr notice and the region file's note, when no event counts at
    all (perf_event_open refused by a seccomp filter), hold the whole reason;
  * the MPI wrapper's counter note holds each event's whole reason, and a rejected
    PAPI_MPI_EVENTS entry of 1,200 bytes whole, in the JSON (the banner says it in one
    short line that points there).
Exit 0 pass, 1 fail, 77 skipped."""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
CSV_MARK = "[cut: PAPI_query_event() fails with it whole in PAPI_strerror_detail()]"
CMP_MARK = "[cut: PAPI_get_component_reason() has it whole]"
CSV_TAIL = "(kernel sysfs)"  # the parser's last words about the unknown native event
FSROOT_TAIL = "but only this machine's kernel counts.)"


def run(cmd, env, timeout=120, cwd=None):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def reasons(exe, env):
    rc, out, err = run([exe], env)
    check(rc == 0, "report_reasons exited %d: %s" % (rc, err[-500:]))
    return dict(l.split("=", 1) for l in out.splitlines() if "=" in l)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PAPI_", "OMPI_COMM", "PMI_", "PMIX_"))}
    env.update(extra)
    return env


def main():
    p = argparse.ArgumentParser()
    for opt in ("--reasons", "--avail", "--component-avail", "--regions", "--machine"):
        p.add_argument(opt, required=True)
    p.add_argument("--seccomp")
    p.add_argument("--mpirun")
    p.add_argument("--mpi-program")
    a = p.parse_args()
    top = tempfile.mkdtemp(prefix="whole_reasons_")
    deep = os.path.join(top, *(["d" * 200] * 6))
    os.makedirs(deep)
    csv = os.path.join(deep, "bad.csv")
    with open(csv, "w", encoding="utf-8") as f:
        f.write("CPU,generic\nPRESET,PAPI_TOT_CYC,NOT_DERIVED,cpu::NO_SUCH_NATIVE_X\n")
    fsroot = os.path.join(deep, "machine")
    os.symlink(os.path.abspath(a.machine), fsroot)
    print("paths of %d and %d bytes" % (len(csv), len(fsroot)))

    # 1. The library: the preset's note and detail, the component's reason.
    env = clean_env(PAPI_CSV_EVENT_FILE=csv)
    r = reasons(a.reasons, env)
    note, query, add = r.get("note", ""), r.get("query", ""), r.get("add", "")
    check(len(note) == 1023 and note.endswith(CSV_MARK),
          "the preset note (%d bytes) does not end with the mark: ...%r" % (len(note), note[-120:]))
    for what, d in (("PAPI_query_event", query), ("PAPI_add_event", add)):
        check(len(d) > 1100 and csv in d and d.endswith(CSV_TAIL),
              "%s's detail is not the whole reason (%d bytes): ...%r" % (what, len(d), d[-160:]))
    whole_preset = query.split("is not available on this machine: ", 1)[-1]
    env = clean_env(PAPI_FSROOT=fsroot)
    r = reasons(a.reasons, env)
    pub, whole = r.get("cmp_public", ""), r.get("cmp_whole", "")
    check(len(pub) == 1023 and pub.endswith(CMP_MARK),
          "disabled_reason (%d bytes) does not end with the mark: ...%r" % (len(pub), pub[-120:]))
    check(len(whole) > 1100 and fsroot in whole and whole.endswith(FSROOT_TAIL)
          and whole.startswith(pub[:1023 - len(CMP_MARK) - 1]),
          "PAPI_get_component_reason is not whole (%d bytes): ...%r" % (len(whole), whole[-160:]))
    print("preset reason %d bytes (note %d), component reason %d bytes (field %d)"
          % (len(whole_preset), len(note), len(whole), len(pub)))

    # 2. The tools print the whole ones.
    rc, out, err = run([a.avail, "-e", "PAPI_TOT_CYC"], clean_env(PAPI_CSV_EVENT_FILE=csv))
    check(whole_preset in out, "papi_avail -e PAPI_TOT_CYC does not print the whole reason: ...%r"
          % out[-300:])
    rc, out, err = run([a.component_avail, "--json"], clean_env(PAPI_FSROOT=fsroot))
    comps = json.loads(out).get("components", []) if rc == 0 else []
    got = next((c.get("disabled_reason", "") for c in comps if c.get("name") == "perf_event"), None)
    check(got == whole, "papi_component_avail --json: %d bytes, want the whole %d"
          % (len(got or ""), len(whole)))

    # 3. The region API when nothing counts: its stderr notice and the file's note.
    if a.seccomp:
        work = os.path.join(top, "regions")
        os.mkdir(work)
        env = clean_env(PAPI_CSV_EVENT_FILE=csv, PAPI_OUTPUT_DIRECTORY=work)
        rc, out, err = run([a.seccomp, "EPERM", a.regions, "1", "1", "1", "1", "1", "1"], env)
        if rc == 77:
            print("SKIPPED part: no seccomp filters here:", out.strip())
        else:
            files = glob.glob(os.path.join(work, "papi_hl_output", "*.json"))
            rep = json.load(open(files[0], encoding="utf-8")) if files else {}
            rnote = rep.get("note", "")
            line = next((l for l in err.splitlines() if "PAPI_hl_region_begin: no event counts" in l), "")
            check(rc == 0 and whole_preset in rnote and rnote.endswith("the regions record real time only"),
                  "region note not whole (exit %d, %d bytes): ...%r" % (rc, len(rnote), rnote[-200:]))
            check(line == "PAPI: PAPI_hl_region_begin: " + rnote,
                  "the stderr notice is not the whole note (%d bytes, note %d): ...%r"
                  % (len(line), len(rnote), line[-200:]))
            print("region notice %d bytes, whole" % len(line))
    else:
        print("part 3 not run: no seccomp_run")

    # 4. The MPI wrapper's counter note.
    if a.mpirun and a.mpi_program:
        for case in ("csv", "entry"):
            work = os.path.join(top, "mpi_" + case)
            os.mkdir(work)
            env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=work)
            env.pop("PAPI_MPI_EVENTS", None)
            if case == "csv":
                env["PAPI_CSV_EVENT_FILE"] = csv
                want = [whole_preset]
                end = "): software events instead"
            else:
                entry = "perf::" + "y" * 1200
                env["PAPI_MPI_EVENTS"] = "perf::PAGE-FAULTS," + entry
                want = ['"%s"' % entry]
                end = "(longer than 63 bytes): no counters"
            rc, out, err = run([a.mpirun, "-np", "2", a.mpi_program, "1"], env, timeout=300)
            check(rc == 0, "MPI run (%s) exited %d: %s" % (case, rc, err[-800:]))
            try:
                with open(os.path.join(work, "papi_mpi_report.json"), encoding="utf-8") as f:
                    cn = json.load(f)["counter_note"]
            except (OSError, ValueError, KeyError) as e:
                cn = ""
                check(False, "MPI report (%s): %s" % (case, e))
            check(all(w in cn for w in want) and cn.endswith(end) and len(cn) > 1100,
                  "MPI counter note (%s) not whole (%d bytes): ...%r" % (case, len(cn), cn[-200:]))
            if case == "csv":
                check(cn.count(whole_preset) == 3, "the counter note names %d of the 3 default "
                      "events' reasons whole" % cn.count(whole_preset))
            # The banner says it in one terminal-sized line and points to the whole note.
            note = [l for l in out.splitlines() if l.startswith("papi_mpi: note: ")]
            check(len(note) == 1 and len(note[0]) <= 400 and "counter_note" in note[0],
                  "the banner's note (%s) is not one short line naming counter_note: %s"
                  % (case, [l[:500] for l in note]))
            print("MPI counter note (%s) %d bytes, whole" % (case, len(cn)))
    return verdict("check_whole_reasons", scratch=top)


if __name__ == "__main__":
    sys.exit(main())
