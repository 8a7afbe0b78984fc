#!/usr/bin/env python3
"""check_long_formats.py UTILS_DIR: a recorded PMU whose format/ directory lists many long
field names (tests/machines/long_formats: cpu with 12 names of 57 bytes beside its 5
own, 17 in all, and an event file naming a field it lacks), replayed by PAPI_FSROOT (set
by ctest). The "PMU has no field" message lists the PMU's fields; it was built in a
512-byte stack buffer by offsets past its end, so the listing crashed on this tree.

- papi_native_avail lists the recorded cpu PMU's events, without the one that names a
  missing field, and exits 0;
- resolving a raw name with a missing field, and that event by its name, fails (exit 1,
  no signal) with the reason: the field named, the list of the PMU's fields cut with a
  marker ("...)"), never a crash.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, verdict  # noqa: E402

LONG = "hostile_recording_format_field_with_a_long_name_number_"


def run(*args):
    out = subprocess.run([os.path.join(sys.argv[1], "papi_native_avail"), *args],
                         capture_output=True, text=True, timeout=60)
    check(out.returncode >= 0, f"papi_native_avail {' '.join(args)} was killed by signal "
          f"{-out.returncode}")
    return out


def main():
    root = os.environ.get("PAPI_FSROOT", "")
    if not root.endswith("long_formats"):
        print("SKIPPED: PAPI_FSROOT is not tests/machines/long_formats (ctest sets it)")
        return 77
    fields = os.listdir(os.path.join(root, "sys/bus/event_source/devices/cpu/format"))
    check(len([f for f in fields if f.startswith(LONG)]) == 12 and len(fields) == 17,
          f"the recorded tree has changed: {sorted(fields)}")

    listing = run()
    check(listing.returncode == 0, f"listing exited {listing.returncode}: {listing.stderr}")
    check("cpu::cpu-cycles" in listing.stdout, "cpu::cpu-cycles is not listed")
    check("names-a-missing-field" not in listing.stdout,
          "the event naming a missing field is listed")

    for name in ("cpu::event=0x76,no_such_field=1", "cpu::names-a-missing-field"):
        out = run("-e", name)
        check(out.returncode == 1, f"-e {name} exited {out.returncode}, want 1")
        err = out.stderr
        check("PMU cpu has no field 'no_such_field' (its format/ lists: " in err,
              f"-e {name}: no 'has no field' reason: {err!r}")
        check("...) (kernel sysfs)" in err, f"-e {name}: the list is not cut with a marker: {err!r}")
        check(err.count(LONG) >= 5, f"-e {name}: the list names {err.count(LONG)} long fields")

    return verdict("check_long_formats")


if __name__ == "__main__":
    sys.exit(main())
