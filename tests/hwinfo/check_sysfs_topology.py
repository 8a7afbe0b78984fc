#!/usr/bin/env python3
"""check_sysfs_topology.py DUMP HAVE_HWLOC: the topology read from sysfs
(hwinfo_sysfs_topology.c) against hwloc's reading of the same files.

1. This machine: PAPI_TOPOLOGY unset gives source "sysfs", PAPI_TOPOLOGY=hwloc gives
   "hwloc", and every count, cache and NUMA line is the same.
2. A generated tree (PAPI_FSROOT): two sockets of two cores with two threads each, two
   NUMA nodes (one with 2 MiB huge pages reserved, which hwloc counts in), caches with one of a single set;
   the sysfs reader gives the values written into it, and hwloc (HWLOC_FSROOT, set by the
   library for a recorded machine) gives the same.
3. Hostile trees: a CPU list that is text, a core list naming no CPU: the sysfs reader
   refuses them (another source is used), nothing crashes."""
import os
import platform
import subprocess
import sys
import tempfile

DUMP, HAVE_HWLOC = sys.argv[1], sys.argv[2] in ("1", "ON", "TRUE", "true")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)


def run(env_extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PAPI_TOPOLOGY", "PAPI_FSROOT", "HWLOC_XMLFILE", "HWLOC_FSROOT",
                        "HWLOC_SYNTHETIC")}
    env.update(env_extra)
    p = subprocess.run([DUMP], env=env, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        failures.append(f"{env_extra}: exit {p.returncode}: {p.stderr.strip()}")
        return None, []
    lines = p.stdout.splitlines()
    return lines[0].split("=", 1)[1], lines[1:]


def compare(label, a, b):
    if a == b:
        print(f"ok   {label}: {len(a)} lines equal")
        return
    for x, y in zip(a + [""] * len(b), b + [""] * len(a)):
        if x != y:
            print(f"     sysfs: {x!r}\n     hwloc: {y!r}")
    check(False, f"{label}: sysfs and hwloc differ")


# 1. This machine.
src, live = run({})
check(src.split(" ")[0] == "sysfs", f"this machine's source is sysfs (got {src!r})")
for line in live:
    print("     " + line)
if not os.path.isdir("/sys/devices/system/cpu/cpu0/cache") and platform.machine() in ("x86_64", "i686"):
    # A kernel (a VM's) without cpu0/cache: the caches come from cpuid, as hwloc's x86
    # backend and PAPI 7 take them; a cache table left empty was the old answer.
    check("caches from cpuid" in src, f"no cpu0/cache in sysfs: caches from cpuid (got {src!r})")
    check("levels=0" not in live, "no cpu0/cache in sysfs: the cache table is not empty")
if HAVE_HWLOC:
    src_h, live_h = run({"PAPI_TOPOLOGY": "hwloc"})
    check(src_h == "hwloc", f"PAPI_TOPOLOGY=hwloc gives hwloc (got {src_h!r})")
    compare("this machine", live, live_h)


# 2. A generated two-socket machine.
def write(root, path, text):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text + "\n")


def cpulist(cpus):
    return ",".join(str(c) for c in sorted(cpus))


def build_tree(root):
    # socket s, core k, thread t -> cpu s*2 + k + 4*t (Linux numbers threads last)
    cpu = "/sys/devices/system/cpu"
    write(root, f"{cpu}/online", "0-7")
    write(root, f"{cpu}/possible", "0-7")
    write(root, f"{cpu}/present", "0-7")
    caches = [  # index: level, type, size, line, ways, sets, shared by (core|socket)
        (1, "Data", "48K", 64, 12, 64, "core"),
        (1, "Instruction", "32K", 64, 512, 1, "core"),  # one set: ways unknown to hwloc
        (2, "Unified", "2048K", 64, 16, 2048, "core"),
        (3, "Unified", "30720K", 64, 15, 32768, "socket"),
    ]
    cpuinfo = []
    for c in range(8):
        s, k = (c % 4) // 2, c % 2
        core = [s * 2 + k, s * 2 + k + 4]
        sock = [x for x in range(8) if (x % 4) // 2 == s]
        d = f"{cpu}/cpu{c}"
        write(root, f"{d}/online", "1")
        for name, val in (("physical_package_id", s), ("core_id", k), ("die_id", 0),
                          ("core_cpus_list", cpulist(core)), ("thread_siblings_list", cpulist(core)),
                          ("package_cpus_list", cpulist(sock)), ("core_siblings_list", cpulist(sock)),
                          ("die_cpus_list", cpulist(sock))):
            write(root, f"{d}/topology/{name}", str(val))
        for name, val in (("core_cpus", core), ("thread_siblings", core), ("package_cpus", sock),
                          ("core_siblings", sock), ("die_cpus", sock)):
            write(root, f"{d}/topology/{name}", "%02x" % sum(1 << x for x in val))
        for i, (lvl, typ, size, line, ways, sets, shared) in enumerate(caches):
            sh = core if shared == "core" else sock
            ci = f"{d}/cache/index{i}"
            for name, val in (("level", lvl), ("type", typ), ("size", size),
                              ("coherency_line_size", line), ("ways_of_associativity", ways),
                              ("number_of_sets", sets), ("physical_line_partition", 1),
                              ("shared_cpu_list", cpulist(sh)),
                              ("shared_cpu_map", "%02x" % sum(1 << x for x in sh))):
                write(root, f"{ci}/{name}", str(val))
        cpuinfo += [f"processor\t: {c}", "vendor_id\t: GenuineIntel", "cpu family\t: 6",
                    "model\t\t: 143", "model name\t: Generated Xeon", f"physical id\t: {s}",
                    f"core id\t\t: {k}", "cpu cores\t: 2", ""]
    write(root, "/proc/cpuinfo", "\n".join(cpuinfo))
    node = "/sys/devices/system/node"
    write(root, f"{node}/online", "0-1")
    write(root, f"{node}/possible", "0-1")
    for n in range(2):
        cpus = [x for x in range(8) if (x % 4) // 2 == n]
        write(root, f"{node}/node{n}/cpulist", cpulist(cpus))
        write(root, f"{node}/node{n}/cpumap", "%02x" % sum(1 << x for x in cpus))
        write(root, f"{node}/node{n}/meminfo",
              f"Node {n} MemTotal:       {16777216 * (n + 1)} kB\nNode {n} MemFree:        1024 kB")
        write(root, f"{node}/node{n}/hugepages/hugepages-2048kB/nr_hugepages", "100" if n else "0")
        write(root, f"{node}/node{n}/hugepages/hugepages-1048576kB/nr_hugepages", "0")
        write(root, f"{node}/node{n}/distance", "10 21" if n == 0 else "21 10")
    write(root, "/proc/meminfo", "MemTotal:       50331648 kB")


with tempfile.TemporaryDirectory() as root:
    build_tree(root)
    src, tree = run({"PAPI_FSROOT": root, "PAPI_TOPOLOGY": "sysfs"})
    check(src == "sysfs", f"generated tree, PAPI_TOPOLOGY=sysfs: source sysfs (got {src!r})")
    want = [
        "totalcpus=8 sockets=2 cores=2 threads=2 nnodes=2 ncpu=4",
        "levels=3",
        "cache=1:2:49152:64:768:12",
        "cache=1:1:32768:64:512:0",
        "cache=2:3:2097152:64:32768:16",
        "cache=3:3:31457280:64:491520:15",
        "numa_nodes=2",
        f"node0_bytes={16777216 * 1024} node0_cpus=0,1,4,5,",
        f"node1_bytes={2 * 16777216 * 1024} node1_cpus=2,3,6,7,",
    ]
    compare("generated tree against the values written", tree, want)
    if HAVE_HWLOC:
        src_h, tree_h = run({"PAPI_FSROOT": root})
        check(src_h == "hwloc", f"generated tree, default: hwloc replays it (got {src_h!r})")
        compare("generated tree, sysfs against hwloc", tree, tree_h)

    # 3. Hostile files: the reader refuses them and another source answers.
    write(root, "/sys/devices/system/cpu/online", "zero-seven")
    src, _ = run({"PAPI_FSROOT": root, "PAPI_TOPOLOGY": "sysfs"})
    check(src is not None and src != "sysfs", f"CPU list 'zero-seven' refused (source {src!r})")
    write(root, "/sys/devices/system/cpu/online", "0-7")
    for c in range(8):
        for f in ("core_cpus_list", "thread_siblings_list"):
            write(root, f"/sys/devices/system/cpu/cpu{c}/topology/{f}", "900-901")
    src, _ = run({"PAPI_FSROOT": root, "PAPI_TOPOLOGY": "sysfs"})
    check(src is not None and src != "sysfs", f"core lists naming no online CPU refused (source {src!r})")

if failures:
    print(f"check_sysfs_topology: {len(failures)} failure(s)")
    sys.exit(1)
print("check_sysfs_topology: passed")
