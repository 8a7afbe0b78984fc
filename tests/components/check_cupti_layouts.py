#!/usr/bin/env python3
"""The project's CUPTI profiler declarations (src-c/lib/components/gpu/cupti_profiler_api.h)
against NVIDIA's headers where a CUDA toolkit is installed: every parameter structure's
size and each member's offset and size, and every constant the header defines, printed by
one program compiled against the project's header (C) and one against CUPTI's (C++: its
profiler host header includes <string>), which must print the same. SKIPPED where no
CUPTI header is found.
    check_cupti_layouts.py CC CXX PROJECT_HEADER_DIR GPU_ACTIVITY_DIR [CUDA_INCLUDE...]"""
import os
import re
import subprocess
import sys
import tempfile


def declared(header):
    """(structures and their members, constants) of the project's header."""
    text = open(header).read()
    structs = []
    for m in re.finditer(r"typedef struct \{(.*?)\}\s*([^;]+);", text, re.S):
        members = []
        for line in m.group(1).split("\n"):
            line = re.sub(r"/\*.*?\*/", "", line).strip()
            found = re.findall(r"(\w+)\s*;$", line)
            if found:
                members.append(found[0])
        for name in m.group(2).split(","):
            structs.append((name.strip(), members))
    # the constants CUPTI's headers define too (enumerators or macros), not the project's own
    consts = [c for c in re.findall(r"#define (CUPTI_\w+)\s+\d+", text)
              if c not in ("CUPTI_METRIC_TYPES",)]
    return structs, consts


def program(structs, consts, includes):
    lines = ["#include <stdio.h>", "#include <stddef.h>"] + ["#include <%s>" % i for i in includes]
    lines.append("int main(void) {")
    for name, members in structs:
        lines.append('printf("%%s %%zu\\n", "%s", sizeof(%s));' % (name, name))
        for m in members:
            lines.append('printf("%%s.%%s %%zu %%zu\\n", "%s", "%s", offsetof(%s, %s), '
                         'sizeof(((%s *)0)->%s));' % (name, m, name, m, name, m))
    for c in consts:
        lines.append('printf("%%s %%d\\n", "%s", (int)%s);' % (c, c))
    lines.append("return 0; }")
    return "\n".join(lines) + "\n"


def run(compiler, source, flags):
    exe = source + ".exe"
    subprocess.run(compiler.split() + flags + [source, "-o", exe], check=True)
    return subprocess.run([exe], check=True, capture_output=True, text=True).stdout


def main():
    cc, cxx, own_dir, activity_dir = sys.argv[1:5]
    found = [d for d in sys.argv[5:] if os.path.exists(os.path.join(d, "cupti_range_profiler.h"))]
    if not found:
        print("SKIPPED: no CUPTI header (cupti_range_profiler.h) in %s" % " ".join(sys.argv[5:]))
        return 77
    if cxx == "none":
        print("SKIPPED: no C++ compiler to compile CUPTI's headers")
        return 77
    structs, consts = declared(os.path.join(own_dir, "cupti_profiler_api.h"))
    with tempfile.TemporaryDirectory() as tmp:
        mine = os.path.join(tmp, "mine.c")
        theirs = os.path.join(tmp, "theirs.cpp")
        open(mine, "w").write(program(structs, consts, ["cupti_profiler_api.h"]))
        open(theirs, "w").write(program(structs, consts, [
            "cupti_target.h", "cupti_profiler_target.h", "cupti_profiler_host.h",
            "cupti_range_profiler.h", "cupti_result.h"]))
        a = run(cc, mine, ["-I" + own_dir, "-I" + activity_dir])
        b = run(cxx, theirs, ["-I" + found[0]])
    failures = 0
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            print("FAIL: ours '%s', CUPTI's '%s'" % (x, y))
            failures += 1
    if len(a.splitlines()) != len(b.splitlines()):
        print("FAIL: %d lines against %d" % (len(a.splitlines()), len(b.splitlines())))
        failures += 1
    print("%d structures, %d members, %d constants against %s" % (
        len(structs), sum(len(m) for _, m in structs), len(consts), found[0]))
    print("check_cupti_layouts: %s" % ("FAILED" if failures else "PASSED"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
