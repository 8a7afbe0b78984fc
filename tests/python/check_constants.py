#!/usr/bin/env python3
"""Every constant of the generated papi._api (read from papi.h without a compiler) has
the value the C compiler gives (papif_constants.txt of the Fortran build), and no
constant of papif_api.def is missing (the presets, event codes the module looks up by
name, are the catalog's names).

  check_constants.py papif_constants.txt preset_catalog.def"""

import re
import sys

from papi import _api


def main(path, catalog):
    with open(catalog, encoding="utf-8") as f:
        presets = {"PAPI_" + n for n in re.findall(r"^PRESET\((\w+),", f.read(), re.M)}
    compiled = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            name, value = line.split()
            v = int(value)
            compiled[name] = v - 2**32 if 2**31 <= v < 2**32 else v
    fails = 0
    for name, value in compiled.items():
        if name.startswith("PAPI_") and name in _api.CONSTANTS and _api.CONSTANTS[name] != value:
            print("MISMATCH %s: papi.h read %d, compiled %d" % (name, _api.CONSTANTS[name], value))
            fails += 1
    missing = [n for n in compiled if n not in _api.CONSTANTS and n not in presets]
    for n in missing:
        print("MISSING %s" % n)
    print("%d constants compared" % sum(n in _api.CONSTANTS for n in compiled))
    print("PASSED" if not fails and not missing else "FAILED")
    return 1 if fails or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
