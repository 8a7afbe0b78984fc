#!/usr/bin/env python3
"""check_options.py BINDIR PROJECT_VERSION: the command lines of every papi_* utility.

Each utility parses its options with getopt_long(3): --help and --version everywhere
(--version names this project's release and the PAPI API level), every flag PAPI 7's tool
of the same name accepts, combined short flags (-ad), "--opt=value", and a clear refusal
(exit status 2, the option named) of anything else. Exit 0 pass, 1 fail."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails as FAILURES  # noqa: E402 (tests/common/checks.py)
UTILITIES = ["papi_avail", "papi_native_avail", "papi_component_avail", "papi_clockres",
             "papi_command_line", "papi_cost", "papi_decode", "papi_error_codes",
             "papi_event_chooser", "papi_hardware_avail", "papi_mem_info",
             "papi_multiplex_cost", "papi_validate", "papi_version", "papi_xml_event_info"]
# The flags of PAPI 7.0's tools (their --help / usage), as a script written for them
# passes them; each must be accepted (exit status other than 2, no "unknown option").
PAPI7_FLAGS = {
    "papi_avail": [["-a"], ["-c"], ["-d"], ["-e", "PAPI_TOT_INS"], ["--br"], ["--cache"],
                   ["--cnd"], ["--fp"], ["--ins"], ["--idl"], ["--l1"], ["--l2"], ["--l3"],
                   ["--mem"], ["--msc"], ["--tlb"], ["--avail"], ["--check"], ["--detail"]],
    "papi_native_avail": [["-c"], ["-e", "perf::PAGE-FAULTS"], ["-i", "FAULT"],
                          ["-x", "FAULT"], ["--noqual"], ["--darr"], ["--dear"], ["--iarr"],
                          ["--iear"], ["--opcm"], ["--nogroups"], ["--check"]],
    "papi_component_avail": [["-d"]],
    "papi_cost": [["-b", "10", "-d", "-t", "50"], ["-p", "-t", "50"], ["-s", "-t", "50"]],
    "papi_decode": [["-a"]],
    "papi_multiplex_cost": [["-m", "1", "-x", "1", "-t", "20"], ["-s", "-k", "-x", "1", "-t", "20"]],
    "papi_xml_event_info": [["-p"], ["-n"], ["-c", "0"]],
    "papi_command_line": [["-u", "perf::PAGE-FAULTS"], ["-x", "perf::PAGE-FAULTS"]],
}


def run(bindir, args):
    return subprocess.run([os.path.join(bindir, args[0])] + args[1:], capture_output=True,
                          text=True, timeout=300)


def accepted(bindir, args):
    p = run(bindir, args)
    check(p.returncode != 2 and "unknown" not in p.stderr,
          "%s refused (exit %d): %s" % (" ".join(args), p.returncode, p.stderr.strip()[-300:]))
    return p


def main():
    bindir, version = sys.argv[1], sys.argv[2]
    api = None
    for u in UTILITIES:
        p = run(bindir, [u, "--version"])
        check(p.returncode == 0, "%s --version exited %d" % (u, p.returncode))
        check(re.search(r"^%s \(papi-compat\) %s$" % (u, re.escape(version)), p.stdout, re.M),
              "%s --version does not name papi-compat %s: %r" % (u, version, p.stdout))
        m = re.search(r"^PAPI API version (\d+\.\d+\.\d+\.\d+)$", p.stdout, re.M)
        check(m, "%s --version does not name the PAPI API level: %r" % (u, p.stdout))
        if m:
            check(api in (None, m.group(1)), "%s: API level %s, others %s" % (u, m.group(1), api))
            api = m.group(1)
        p = run(bindir, [u, "--help"])
        check(p.returncode == 0 and "Usage" in p.stdout and "--version" in p.stdout,
              "%s --help: exit %d, no usage naming --version" % (u, p.returncode))
        p = run(bindir, [u, "--no-such-option"])
        check(p.returncode == 2 and "--no-such-option" in p.stderr and "Usage" in p.stderr,
              "%s --no-such-option: exit %d, stderr %r" % (u, p.returncode, p.stderr[:200]))
        for flags in PAPI7_FLAGS.get(u, []):
            accepted(bindir, [u] + flags)

    # papi_version prints both versions, PAPI's line first (scripts read it).
    p = run(bindir, ["papi_version"])
    check(p.stdout.splitlines()[:2] == ["PAPI Version: %s" % api, "papi-compat Version: %s" % version],
          "papi_version prints %r" % p.stdout)
    # Combined short flags, --opt=value, a missing argument.
    both = run(bindir, ["papi_avail", "-ad"])
    apart = run(bindir, ["papi_avail", "-a", "-d"])
    check(both.returncode == 0 and both.stdout == apart.stdout, "papi_avail -ad differs from -a -d")
    p = accepted(bindir, ["papi_native_avail", "--sde=/nonexistent"])
    check(p.returncode == 1 and "sde" in p.stderr, "--sde=FILE: exit %d %r" % (p.returncode, p.stderr))
    p = accepted(bindir, ["papi_native_avail", "-sde", "/nonexistent"])
    check(p.returncode == 1, "-sde FILE (PAPI 7's spelling): exit %d" % p.returncode)
    p = run(bindir, ["papi_avail", "-e"])
    check(p.returncode == 2 and "missing argument" in p.stderr and "-e" in p.stderr,
          "papi_avail -e without an event: exit %d %r" % (p.returncode, p.stderr[:200]))
    # Filters list a subset: --fp only floating-point presets, the same with --fp=... refused.
    full = run(bindir, ["papi_avail"]).stdout
    fp = run(bindir, ["papi_avail", "--fp"]).stdout
    names = lambda text: set(re.findall(r"^(PAPI_\w+)\s+0x", text, re.M))
    check(names(fp) and names(fp) < names(full), "--fp lists %d of %d presets" %
          (len(names(fp)), len(names(full))))
    check("PAPI_FP_OPS" in names(fp) and "PAPI_L1_DCM" not in names(fp),
          "--fp: PAPI_FP_OPS missing or PAPI_L1_DCM present")
    l1_or_tlb = names(run(bindir, ["papi_avail", "--l1", "--tlb"]).stdout)
    check(names(run(bindir, ["papi_avail", "--l1"]).stdout) < l1_or_tlb,
          "--l1 --tlb is not the union of the two filters")
    p = run(bindir, ["papi_cost", "-t", "200", "-p"])
    check(p.returncode == 0 and re.search(r"^50% cycles\s*: \d+$", p.stdout, re.M),
          "papi_cost -p prints no percentiles (exit %d)" % p.returncode)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("all utilities: --help, --version (papi-compat %s, PAPI %s) and PAPI 7's flags" %
          (version, api))
    return 0


if __name__ == "__main__":
    sys.exit(main())
