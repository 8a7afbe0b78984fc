"""The job's profile of an output folder left without job_profile_RUNID.json (its
papi_run killed before its merge): papi_run --merge DIR --run RUNID writes it there from the
processes' files, by the same merge as the end of a run (run_sample_merge.c), the only
one there is. papi_run is the one installed beside papi_report (PREFIX/bin, the package
being PREFIX/share/papi/python/papi_report), else the first on PATH."""
import os
import shutil
import subprocess
import sys

_said = set()  # the folders whose missing merge was said (papi_report loads twice)


def papi_run():
    """The papi_run to merge with, or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    prefix = os.path.normpath(os.path.join(here, "..", "..", "..", "..", ".."))
    beside = [os.path.join(prefix, "bin", "papi_run")]
    if os.path.basename(sys.argv[0] or "").startswith("papi_report"):
        beside.insert(0, os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "papi_run"))
    for path in beside:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return shutil.which("papi_run")


def _say(folder, text):
    if folder not in _said:
        _said.add(folder)
        print("papi_report: %s" % text, file=sys.stderr)


def merged(folder, run):
    """The path of folder's job_profile_RUNID.json of run, written by papi_run --merge
    when missing; None (said on stderr once: the profile is left out of the report) when
    papi_run is not found or cannot merge."""
    path = os.path.join(folder, "job_profile_%s.json" % run)
    if os.path.exists(path):
        return path
    tool = papi_run()
    if tool is None:
        _say(folder, "%s has the processes' profiles of run %s but no job_profile_%s.json, and "
             "no papi_run was found to merge them: run `papi_run --merge %s`; the profile is "
             "left out" % (folder, run, run, folder))
        return None
    p = subprocess.run([tool, "--merge", folder, "--run", run], capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(path):
        why = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[0]
        _say(folder, "%s --merge %s --run %s failed (%s); the profile is left out"
             % (tool, folder, run, why))
        return None
    for line in p.stderr.splitlines():  # what the job file lacks (an older papi_run's files)
        if line.strip() and not line.endswith(" written"):
            print(line, file=sys.stderr)
    return path
