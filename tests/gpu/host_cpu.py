"""host_cpu.py: what the GPU machine's own CPU exposes (issue 71 item 6), for the prepared
check's JSON: papi_avail, papi_component_avail and, where a CPU PMU is exposed, papi_validate
--quick, each run as a user types it. A machine without a CPU PMU is a fact here, never a
failure of the check; a tool that does not run or answer is said with why. PAPI 7's own
test suites (the conformance lane's) need Debian's papi-examples and PAPI 7 beside ours,
which the lent image (Ubuntu, no internet) lacks: said as not run, with why."""
import json
import os
import subprocess
import tempfile


def _json_of(cmd, env, timeout):
    """A tool's --json document, or (None, why)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "%s: %s" % (os.path.basename(cmd[0]), e)
    try:
        return json.loads(p.stdout), None
    except ValueError:
        return None, "%s exited %d without a JSON document: %s" % (
            os.path.basename(cmd[0]), p.returncode, (p.stderr or p.stdout).strip()[:200])


def _validate(tool, env, timeout):
    """papi_validate --quick --json: its verdict counts and failing rows, or why not."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "validate.json")
        try:
            p = subprocess.run([tool, "--quick", "--json", path], capture_output=True, text=True,
                               env=env, timeout=timeout)
            doc = json.load(open(path))
        except (OSError, ValueError, subprocess.TimeoutExpired) as e:
            return {"ran": False, "why": "papi_validate: %s" % e}
    rows = doc.get("rows") or []
    return {"ran": True, "exit": p.returncode, "cpu": (doc.get("hardware") or {}).get("model_string"),
            "passed": doc.get("passed"), "failed": doc.get("failed"),
            "not_countable": doc.get("not_countable"),
            "failed_rows": [r for r in rows if r.get("verdict") == "fail"][:40]}


def facts(tools, env, timeout=120):
    """tools: {"papi_avail": path or None, "papi_component_avail": ..., "papi_validate": ...}.
    The host CPU's facts: pmu_exposed (True/False, None where no tool said), the reason
    papi-compat gives where none is, the CPU's name, presets available, validate's verdicts."""
    out = {"pmu_exposed": None, "why": "", "cpu": None, "hardware_counters": None,
           "presets_available": None, "validate": {"ran": False, "why": ""},
           "conformance": {"ran": False, "why": ""}, "missing": []}
    for name in ("papi_avail", "papi_component_avail", "papi_validate"):
        if not tools.get(name):
            out["missing"].append(name)
    if tools.get("papi_component_avail"):
        doc, why = _json_of([tools["papi_component_avail"], "--json"], env, timeout)
        if doc is None:
            out["why"] = why
        else:
            c, hw = doc.get("counters") or {}, doc.get("hardware") or {}
            out["cpu"] = hw.get("model_string")
            out["hardware_counters"] = c.get("number_hardware_counters")
            out["pmu_exposed"] = bool(out["hardware_counters"])
            out["why"] = c.get("no_counters_reason") or ""
            out["running_in_vm"] = hw.get("running_in_vm")
    if tools.get("papi_avail"):
        doc, why = _json_of([tools["papi_avail"], "--json"], env, timeout)
        if doc is None:
            out["why"] = out["why"] or why
        else:
            presets = doc.get("presets") or []
            out["presets_available"] = sum(1 for e in presets if e.get("available"))
    if not out["pmu_exposed"]:
        out["validate"]["why"] = "no CPU PMU exposed here: nothing for papi_validate to count"
    elif not tools.get("papi_validate"):
        out["validate"]["why"] = "papi_validate is not in the prefix carried"
    else:
        out["validate"] = _validate(tools["papi_validate"], env, 4 * timeout)
    out["conformance"]["why"] = ("PAPI 7's test suites (Debian's papi-examples, scripts/"
                                 "conformance.sh) are not on this machine")
    return out
