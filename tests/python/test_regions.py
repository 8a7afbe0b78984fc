"""papi.region: a Python program's regions in the report file, with exact page faults
per instance and per region (a child process: the report is written at its exit)."""

import json
import os
import subprocess
import sys

import papi  # noqa: F401 (the module under test must import here too)

PROGRAM = """
import papi
from conftest import touch_fresh_pages
with papi.region("touch"):
    touch_fresh_pages(1000)
with papi.region("touch") as r:
    touch_fresh_pages(300)
    r.read()
    touch_fresh_pages(200)

@papi.region("decorated")
def work():
    touch_fresh_pages(100)
work()
work()
"""


def run_regions(tmp_path):
    env = dict(os.environ, PAPI_EVENTS="perf::PAGE-FAULTS", PAPI_OUTPUT_DIRECTORY=str(tmp_path),
               PYTHONPATH=os.pathsep.join([os.path.dirname(__file__)] + sys.path))
    subprocess.run([sys.executable, "-c", PROGRAM], env=env, check=True, timeout=60)
    out = tmp_path / "papi_hl_output"
    files = list(out.glob("*.json"))
    assert len(files) == 1, files
    return json.loads(files[0].read_text())


def test_region_report(tmp_path):
    report = run_regions(tmp_path)
    assert report["event_source"] == "PAPI_EVENTS"
    (thread,) = report["threads"].values()
    regions = list(thread["regions"].values())
    assert [r["name"] for r in regions] == ["touch", "touch", "decorated", "decorated"]
    faults = [r["perf::PAGE-FAULTS"] for r in regions]
    assert 1000 <= faults[0] <= 1100
    read = faults[1]          # read midway: region_value and read_1
    assert 500 <= read["region_value"] <= 550 and 300 <= read["read_1"] <= 330
    assert all(100 <= f <= 110 for f in faults[2:])
    (totals,) = report["region_totals"].values()
    assert totals["touch"]["region_count"] == 2 and totals["decorated"]["region_count"] == 2
    assert 1500 <= totals["touch"]["perf::PAGE-FAULTS"] <= 1650
