#!/usr/bin/env python3
"""check_ompt_regions.py --tool LIB CASE PROGRAM: parallel regions nested under the
region API's named regions (issue 58 items 1 and 4), run as check_ompt.py runs its
programs (OMP_TOOL_LIBRARIES naming the tool, libomp for a libgomp program), against
known answers; every file written follows its schema (report_check.guard).

  named   ompt_named.c: one parallel loop (one code address) run inside the named region
          "imbalanced" (thread t of 4 works t+1 units: load balance 0.625), inside
          "balanced" (one unit each after two units of serial time: load balance 1.0,
          serialization 1/3) and outside any: three rows in the tool's file, each under
          its named region (named_region null for the third); the region file's
          openmp_regions gives each named region its own row, with the tool's figures,
          and the named region's efficiencies (serialization within 0.03 of the
          program's own clock)."""
import glob
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_ompt as co  # noqa: E402 (its runner and its file checks; guard() on import)
from checks import check_said as check, verdict  # noqa: E402


def rows_at(doc, facts):
    """The tool's rows at the loop's line, by named region (None: outside every one)."""
    rows = [r for r in doc["regions"] if os.path.basename(r["file"]) == os.path.basename(facts["file"])
            and facts["loop_line"] - 1 <= r["line"] <= facts["loop_line"] + 1]
    by = {(r.get("named_region") or {}).get("name"): r for r in rows}
    check(len(rows) == 3 and len(by) == 3,
          "3 rows of the loop, one per named region and one outside: %s"
          % [(r["name"], r.get("named_region")) for r in rows])
    return by


def region_file(tmp):
    files = glob.glob(os.path.join(tmp, "papi_hl_output", "rank_*.json"))
    if not check(len(files) == 1, "one region file written (%s)" % files):
        return None
    with open(files[0]) as f:
        return json.load(f)


def case_named(tool, program, tmp):
    out = os.path.join(tmp, "ompt")
    p = co.run(tool, program, out, PAPI_OUTPUT_DIRECTORY=tmp)
    facts = co.facts_of(p)
    if facts.get("imbalanced_serialization", -1) < 0 or facts.get("balanced_serialization", -1) < 0:
        co.skip("the region API could not begin a region here (no counter at all): %s"
                % p.stderr.strip().splitlines()[-1:])
    doc = co.report_of(out)
    if doc is None:
        return
    by = rows_at(doc, facts)
    imb, bal, outside = by.get("imbalanced"), by.get("balanced"), by.get(None)
    if not (imb and bal and outside):
        return
    check(outside.get("mpi_region", 0) is None and imb.get("mpi_region", 0) is None, "no MPI_Pcontrol region")
    lb = imb["efficiency"]["load_balance"]
    check(abs(lb - 0.625) <= 0.03, "imbalanced: load balance %s, 0.625 +- 0.03" % lb)
    for r, what in ((bal, "balanced"), (outside, "outside")):
        check(r["efficiency"]["load_balance"] >= 0.97,
              "%s: load balance %s, 1.0 - 0.03" % (what, r["efficiency"]["load_balance"]))
    check(imb["named_region"]["id"] != bal["named_region"]["id"], "two contexts")
    hl = region_file(tmp)
    if hl is None:
        return
    tables = hl.get("openmp_regions") or {}
    check(len(tables) == 1, "openmp_regions of the one thread that marked regions: %s" % list(tables))
    named = next(iter(tables.values()), {})
    check(sorted(named) == ["balanced", "imbalanced"], "a table per named region: %s" % sorted(named))
    for what, row in (("imbalanced", imb), ("balanced", bal)):
        t = named.get(what)
        if not t:
            continue
        check(t["context"] == row["named_region"]["id"], "%s: the tool's context %d" % (what, t["context"]))
        prs = t["parallel_regions"]
        check(len(prs) == 1 and prs[0]["name"] == row["name"] and prs[0]["address"] == row["address"],
              "%s: its one parallel region, %s" % (what, [x["name"] for x in prs]))
        if prs:
            check(prs[0]["efficiency"] == row["efficiency"] and prs[0]["wall_ns"] == row["wall_ns"],
                  "%s: the tool's figures (%s)" % (what, prs[0]["efficiency"]))
        e = t["efficiency"]
        check(e["load_balance"] == row["efficiency"]["load_balance"],
              "%s: the named region's load balance is its one region's" % what)
        want = facts[what + "_serialization"]
        check(e["serialization"] is not None and abs(e["serialization"] - want) <= 0.03,
              "%s: serialization %s, the program's clock %.3f +- 0.03" % (what, e["serialization"], want))
        check(e["parallel"] is not None and abs(e["parallel"] - e["serialization"] * e["load_balance"]
                                                * e["scheduling"]) <= 0.002,
              "%s: parallel = serialization x load balance x scheduling" % what)


def main(argv):
    if len(argv) != 4 or argv[0] != "--tool":
        print("usage: check_ompt_regions.py --tool LIB named PROGRAM", file=sys.stderr)
        return 2
    tool, case, program = argv[1], argv[2], argv[3]
    tmp = tempfile.mkdtemp(prefix="ompt_regions_")
    {"named": case_named}[case](tool, program, tmp)
    return verdict("ompt_regions_" + case, scratch=tmp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
