#!/usr/bin/env python3
"""check_schema_keys.py TOP: every member name a C writer of a report puts in its JSON is a
field of that report's schema (schema/*.schema.json), so a writer cannot add a field the
schema does not document: the schema is written first (DESIGN.md, "Every new file kind
gets its schema first").

Writers and their schemas are listed in WRITERS. Member names are the string literals
given as the key of the JSON writer's calls (jw_int(w, "name", ...)) and, in the writers
that print their JSON with format strings (the MPI wrapper, the trace writer, papi_run's
stat lines), every \\"name\\": in a literal.
Names made at run time (event and metric names, ids) are not literals and are what the
schemas' additionalProperties describe.

The utilities (src-c/utils/) write their JSON through the JSON writer only (jw_*,
src-c/common/json_writer.h): one of their writers that prints a member with a format
string or quotes strings itself (json_put_string, json_escape) is refused, but for
papi_run's stat lines (perf stat -j's one object per line: HAND_WRITTEN).

The job's profile (job_profile_RUNID.json) has one writer, papi_run's merge: a Python
source (python/, tests/) that makes a document of its kind merges profiles a second
time (tests make theirs with papi_run --merge: tests/common/profile_fixture.py)."""
import glob
import json
import os
import re
import sys

WRITERS = {
    "region": ["src-c/common/region_file_head.c", "src-c/lib/highlevel/hl_regions_report.c",
               "src-c/lib/highlevel/hl_interval.c", "src-c/lib/highlevel/hl_all_threads.c",
               "src-c/lib/highlevel/hl_*report*.c", "src-c/utils/papi_run/run_report.c",
               "src-c/common/count_series.c", "src-c/lib/overflow/region_sample.c",
               "src-c/lib/highlevel/hl_gpu.c", "src-c/utils/papi_run/run_openmp.c"],
    "gpu_activity": ["src-c/gpu_activity/gpu_report.c", "src-c/utils/papi_run/run_gpu_preload.c"],
    "validate": ["src-c/utils/papi_validate/validate_report.c"],
    "profile": ["src-c/utils/papi_run/run_sample_profile.c", "src-c/sampling/profile_writer.c"],
    "profile_job": ["src-c/utils/papi_run/run_sample_merge.c"],
    "ompt": ["src-c/ompt/ompt_report.c"],
    "papi_avail": ["src-c/utils/papi_avail.c", "src-c/utils/util_events.c"],
    "papi_clockres": ["src-c/utils/papi_clockres.c"],
    "papi_command_line": ["src-c/utils/papi_command_line.c"],
    "papi_component_avail": ["src-c/utils/papi_component_avail.c"],
    "papi_cost": ["src-c/utils/papi_cost.c"],
    "papi_error_codes": ["src-c/utils/papi_error_codes.c"],
    "papi_event_chooser": ["src-c/utils/papi_event_chooser.c"],
    "papi_hardware_avail": ["src-c/utils/papi_hardware_avail.c"],
    "papi_mem_info": ["src-c/utils/papi_mem_info.c"],
    "papi_metric_avail": ["src-c/utils/papi_metric_avail.c"],
    "papi_multiplex_cost": ["src-c/utils/papi_multiplex_cost.c"],
    "papi_native_avail": ["src-c/utils/papi_native_avail.c", "src-c/utils/util_events.c"],
    "papi_version": ["src-c/utils/papi_version.c"],
    "papi_xml_event_info": ["src-c/utils/papi_xml_event_info.c"],
    "util_header": ["src-c/utils/util_header.c"],
    "mpi_report": ["mpi-wrappers/reports/aggregate.c", "mpi-wrappers/reports/row*.c",
                   "mpi-wrappers/fault/partial_rows.c", "mpi-wrappers/counters/rank_series.c",
                   "mpi-wrappers/output/report_files.c", "mpi-wrappers/counters/socket_counters.c",
                   "mpi-wrappers/reports/callsite*.c", "mpi-wrappers/reports/regions.c",
                   "mpi-wrappers/recording/traffic*.c", "mpi-wrappers/recording/mpi_sample.c",
                   "mpi-wrappers/reports/sample_report.c", "mpi-wrappers/reports/wait_report.c",
                   "mpi-wrappers/counters/energy_events.c", "mpi-wrappers/reports/region_energy.c",
                   "mpi-wrappers/reports/gpu_row.c"],
    "mpi_event_log": ["mpi-wrappers/event_log/event_log_file.c",
                      "mpi-wrappers/event_log/site_names.c"],
    "trace_json": ["src-c/common/trace_json.c"],
    "trace_index": ["mpi-wrappers/trace/trace_json_ranks.c"],
    "papi_decode": ["src-c/utils/papi_decode.c"],
    "papi_run_stat_line": ["src-c/utils/papi_run/run_stat_lines.c"],
}
# (jw_break's text is layout, "\n  ", not a key)
JW_KEY = re.compile(r"\bjw_(?!break\b)\w+\(\s*[\w&>.-]+\s*,\s*\"([^\"]+)\"")
# Utilities' writers that print their JSON with format strings (one line per object).
HAND_WRITTEN = {"src-c/utils/papi_run/run_stat_lines.c"}
OWN_QUOTING = re.compile(r"\bjson_(?:put_string|escape)\(")
# Documents papi_run alone makes, by their "kind".
ONE_WRITER = {"profile_job": "src-c/utils/papi_run/run_sample_merge.c"}
# Python that writes such a document from nothing, merging no profiles (a scale input).
SYNTHETIC = {"tests/report/synthetic_profile.py"}
# perf stat -j's keys have hyphens (counter-value, pcnt-running).
ESCAPED_KEY = re.compile(r"\\\"([A-Za-z_][A-Za-z0-9_-]*)\\\"\s*:")


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def schema_names(node, out, top=None, seen=None):
    """The member names node documents, those of the definitions it refers to in another
    schema file (gpu_activity.schema.json#/$defs/device_pop) included."""
    seen = set() if seen is None else seen
    if isinstance(node, dict):
        for k in ("properties",):
            out.update((node.get(k) or {}).keys())
        out.update(node.get("required") or [])
        ref = node.get("$ref")
        if top and isinstance(ref, str) and ref.split("#")[0] and ref not in seen:
            seen.add(ref)
            path, _, pointer = ref.partition("#")
            target = json.load(open(os.path.join(top, "schema", path)))
            for part in [p for p in pointer.split("/") if p]:
                target = target[part]
            schema_names(target, out, top, seen)
        for v in node.values():
            schema_names(v, out, top, seen)
    elif isinstance(node, list):
        for v in node:
            schema_names(v, out, top, seen)
    return out


def main():
    top = sys.argv[1]
    fails, checked = [], 0
    for kind, patterns in WRITERS.items():
        schema = json.load(open(os.path.join(top, "schema", kind + ".schema.json")))
        names = schema_names(schema, set(), top)
        files = sorted({f for p in patterns for f in glob.glob(os.path.join(top, p))})
        if not files:
            fails.append("%s: none of its writers found (%s)" % (kind, ", ".join(patterns)))
        for f in files:
            text = strip_comments(open(f, errors="replace").read())
            keys = JW_KEY.findall(text) + ESCAPED_KEY.findall(text)
            rel = os.path.relpath(f, top)
            own = ESCAPED_KEY.search(text) or OWN_QUOTING.search(text)
            if rel.startswith("src-c/utils/") and rel not in HAND_WRITTEN and own:
                fails.append("%s: writes JSON by hand (%s): write through the JSON writer "
                             "(jw_*, src-c/common/json_writer.h)" % (rel, own.group(0)))
            for key in sorted(set(keys)):
                if key.isdigit():  # a thread or instance number: additionalProperties
                    continue
                checked += 1
                if key not in names:
                    line = text[:text.find('"%s"' % key) if '"%s"' % key in text else text.find(key)].count("\n") + 1
                    fails.append("%s:%d: member %r is not a field of schema/%s.schema.json: "
                                 "document it there first" % (os.path.relpath(f, top), line, key, kind))
    for path in sorted(glob.glob(os.path.join(top, "python", "**", "*.py"), recursive=True) +
                       glob.glob(os.path.join(top, "tests", "**", "*.py"), recursive=True)):
        text = open(path, errors="replace").read()
        for kind, writer in ONE_WRITER.items():
            if os.path.relpath(path, top) in SYNTHETIC:
                continue
            if re.search(r"[\"']kind[\"']\s*:\s*[\"']%s[\"']" % kind, text):
                fails.append("%s makes a %s document: %s writes them (papi_run --merge)"
                             % (os.path.relpath(path, top), kind, writer))
    for f in fails:
        print("FAIL:", f)
    if checked < 50:
        print("FAIL: only %d member names found: the writers moved?" % checked)
        return 1
    print("check_schema_keys: %s (%d member names of the writers)" % ("FAILED" if fails else "PASSED", checked))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
