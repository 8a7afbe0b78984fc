#!/usr/bin/env python3
"""check_recipes.py SRC VERSION: the Spack package and the EasyBuild easyconfigs of
packaging/ parse and agree with the project.

Neither tool can run here: Spack is not a Debian package, and EasyBuild is not one either
(Debian 12 has no easybuild-framework; it is on PyPI only, which this project's machines
do not reach). So each recipe is executed against a stand-in of the directives it uses
(spack.package; EasyBuild's constants), written to fail where the real tool would fail or
where the recipe would configure the project wrongly:
  - a -D the project's CMake does not accept as a user setting: only option() and
    set(... CACHE <type> ...) that are not INTERNAL count (an INTERNAL variable such as
    PAPI_MPI_PKG is overwritten by the build, so setting it does nothing);
  - a BOOL option given something other than ON/OFF, a PAPI_MPI_FLAVORS entry the
    project does not know;
  - the Spack variants mapped wrongly: every combination of +/-fortran, +/-static and
    mpi=none|mpich|openmpi|mpich,openmpi is turned into cmake_args and the result is
    compared with what the variant means (define_from_variant returns the variant's real
    value here, not a constant);
  - a recipe version other than the project's (and a URL naming another version);
  - an easyconfig whose toolchain's MPI is not the flavour it configures, or whose sanity
    check names a utility or wrapper library the build does not make.
When EasyBuild is importable (a site's machine) its own parser reads the easyconfigs too.
Exit 0 pass, 1 fail."""
import glob
import itertools
import os
import re
import sys
import types

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def cmake_options(src):
    """{name: type} of every user setting the project's CMake files define: option()
    (BOOL) and set(NAME value CACHE TYPE ...) with TYPE other than INTERNAL."""
    names = {}
    paths = glob.glob(os.path.join(src, "**", "CMakeLists.txt"), recursive=True) + \
        glob.glob(os.path.join(src, "cmake", "*.cmake"))
    for path in paths:
        if os.path.relpath(path, src).startswith(("build", "_install")):
            continue
        text = re.sub(r"#[^\n]*", "", open(path, encoding="utf-8").read())
        for m in re.finditer(r"\boption\(\s*(\w+)", text):
            names[m.group(1)] = "BOOL"
        for m in re.finditer(r"\bset\(\s*(\w+)\s(?:[^()]|\([^()]*\))*?\bCACHE\s+(\w+)", text):
            if m.group(2) != "INTERNAL" and not m.group(1).startswith("CMAKE_"):
                names[m.group(1)] = m.group(2)
    # CMake's own settings a recipe may give.
    for n in ("CMAKE_INSTALL_LIBDIR", "CMAKE_BUILD_TYPE", "CMAKE_INSTALL_PREFIX"):
        names[n] = "STRING"
    return names


def mpi_flavours(src):
    """The MPIs mpi-wrappers/CMakeLists.txt knows (set(papi_mpi_pkg_<flavour> ...))."""
    text = open(os.path.join(src, "mpi-wrappers", "CMakeLists.txt"), encoding="utf-8").read()
    return re.findall(r"set\(papi_mpi_pkg_(\w+) ", text)


def check_define(where, arg, options, flavours):
    """One -DNAME=VALUE: NAME a user setting, VALUE of its type."""
    m = re.match(r"-D(\w+)(?::\w+)?=(.*)$", arg)
    check(m is not None, "%s: %r is not a -DNAME=VALUE" % (where, arg))
    if not m:
        return None, None
    name, value = m.groups()
    check(name in options, "%s sets -D%s, which the project's CMake does not accept "
          "(not an option() or a non-INTERNAL cache variable)" % (where, name))
    if options.get(name) == "BOOL":
        check(value in ("ON", "OFF"), "%s: -D%s=%s is not ON or OFF" % (where, name, value))
    if name == "PAPI_MPI_FLAVORS":
        for f in value.split(";"):
            check(f in flavours, "%s: PAPI_MPI_FLAVORS names %r; the project knows %s" % (where, f, flavours))
    return name, value


# --- Spack ---------------------------------------------------------------------------------

class AnyCombinationOf:
    """Stand-in of spack's any_combination_of: a multi-valued variant, "none" or any set
    of the values."""

    def __init__(self, *values):
        self.values = values


def spack_stub(record):
    """A stand-in for `from spack.package import *` that records each directive."""
    mod = types.ModuleType("spack.package")

    def as_cmake(value):
        if isinstance(value, bool):
            return "ON" if value else "OFF"
        if isinstance(value, (list, tuple)):
            return ";".join(str(v) for v in value)
        return str(value)

    class CMakePackage:
        def define(self, name, value):
            return "-D%s=%s" % (name, as_cmake(value))

        def define_from_variant(self, name, variant):
            record["variant_uses"].append(variant)
            value = self.spec.variants[variant].value  # KeyError: an undeclared variant
            return "-D%s=%s" % (name, as_cmake(value))

    def directive(kind):
        def f(*args, **kwargs):
            record[kind].append((args, kwargs))
        return f

    mod.CMakePackage = CMakePackage
    for kind in ("version", "variant", "depends_on", "conflicts", "requires", "maintainers",
                 "license", "provides", "patch"):
        setattr(mod, kind, directive(kind))
    mod.run_after = lambda *a, **k: (lambda fn: fn)
    mod.any_combination_of = AnyCombinationOf
    mod.join_path = os.path.join
    mod.find_libraries = lambda *a, **k: []
    return mod


def spack_specs(variants):
    """Every combination of the boolean variants and of the mpi values: [{name: value}]."""
    bools = [n for n, (_, kw) in variants.items() if isinstance(kw.get("default"), bool)]
    mpi = variants["mpi"][1]["values"]
    mpi_values = [("none",)] + [c for r in range(1, len(mpi.values) + 1)
                                for c in itertools.combinations(mpi.values, r)]
    for combo in itertools.product([True, False], repeat=len(bools)):
        for m in mpi_values:
            spec = dict(zip(bools, combo))
            spec["mpi"] = m
            yield spec


def check_spack(src, version, options, flavours):
    path = os.path.join(src, "packaging", "spack", "packages", "papi-compat", "package.py")
    record = {k: [] for k in ("version", "variant", "depends_on", "conflicts", "requires",
                              "maintainers", "license", "provides", "patch", "variant_uses")}
    spack = types.ModuleType("spack")
    spack.package = spack_stub(record)
    sys.modules["spack"], sys.modules["spack.package"] = spack, spack.package
    ns = {}
    exec(compile(open(path, encoding="utf-8").read(), path, "exec"), ns)
    cls = ns.get("PapiCompat")
    check(cls is not None, "package.py defines no class PapiCompat")
    versions = [a[0] for a, _ in record["version"]]
    newest = max(versions, key=lambda v: [int(x) for x in v.split(".")]) if versions else None
    check(newest == version, "Spack's newest version %s is not the project's %s" % (newest, version))
    url = getattr(cls, "url", "")
    check(version in url, "Spack url %r does not name version %s" % (url, version))
    variants = {a[0]: (a, kw) for a, kw in record["variant"]}
    for v in ("fortran", "mpi", "static"):
        check(v in variants, "Spack package has no variant %s" % v)
    if cls is None or "mpi" not in variants:
        return
    mpi = variants["mpi"][1].get("values")
    check(isinstance(mpi, AnyCombinationOf), "Spack variant mpi is not multi-valued (any_combination_of)")
    if not isinstance(mpi, AnyCombinationOf):
        return
    check(sorted(mpi.values) == sorted(flavours),
          "Spack mpi values %s, the project's MPIs %s" % (list(mpi.values), flavours))
    deps = {(a[0], kw.get("when")) for a, kw in record["depends_on"]}
    for f in flavours:
        check((f, "mpi=%s" % f) in deps, "Spack: no depends_on(%r, when='mpi=%s')" % (f, f))
    pkg = cls.__new__(cls)
    n = 0
    for spec in spack_specs(variants):
        pkg.spec = types.SimpleNamespace(
            variants={k: types.SimpleNamespace(value=v) for k, v in spec.items()})
        where = "Spack %s" % " ".join("%s=%s" % (k, ",".join(v) if isinstance(v, tuple) else v)
                                      for k, v in sorted(spec.items()))
        got = {}
        for a in pkg.cmake_args():
            name, value = check_define(where, a, options, flavours)
            if name:
                got[name] = value
        want_mpi = [f for f in flavours if f in spec["mpi"]]
        onoff = lambda b: "ON" if b else "OFF"
        check(got.get("PAPI_WITH_MPI") == onoff(want_mpi), "%s: PAPI_WITH_MPI=%s" % (where, got.get("PAPI_WITH_MPI")))
        if want_mpi:
            check(got.get("PAPI_MPI_FLAVORS") == ";".join(want_mpi),
                  "%s: PAPI_MPI_FLAVORS=%s, want %s" % (where, got.get("PAPI_MPI_FLAVORS"), ";".join(want_mpi)))
        for variant, option in (("fortran", "PAPI_WITH_FORTRAN"), ("static", "PAPI_INSTALL_STATIC"),
                                ("hwloc", "PAPI_WITH_HWLOC"), ("tests", "PAPI_BUILD_TESTS")):
            if variant in spec:
                check(got.get(option) == onoff(spec[variant]),
                      "%s: %s=%s" % (where, option, got.get(option)))
        n += 1
    check(set(record["variant_uses"]) <= set(variants), "cmake_args uses undeclared variants")
    print("spack: %d variants, versions %s, %d variant combinations mapped" % (len(variants), versions, n))


# --- EasyBuild ------------------------------------------------------------------------------

# The MPI of each EasyBuild toolchain (GCC + ...): the wrapper flavour its easyconfig builds.
TOOLCHAIN_MPI = {"gompi": "openmpi", "foss": "openmpi", "gmpich": "mpich", "GCCcore": None, "GCC": None}


def check_easyconfigs(src, version, options, flavours):
    utils = {os.path.basename(p)[:-2] for p in glob.glob(os.path.join(src, "src-c", "utils", "papi_*.c"))}
    ecs = sorted(glob.glob(os.path.join(src, "packaging", "easybuild", "*.eb")))
    check(len(ecs) >= 1, "no easyconfig under packaging/easybuild")
    seen = set()
    for path in ecs:
        base = os.path.basename(path)
        ns = {"SOURCELOWER_TAR_GZ": "%(namelower)s-%(version)s.tar.gz", "SHLIB_EXT": "so"}
        exec(compile(open(path, encoding="utf-8").read(), path, "exec"), ns)
        for key in ("easyblock", "name", "version", "homepage", "description", "toolchain",
                    "sources", "dependencies", "sanity_check_paths", "moduleclass"):
            check(key in ns, "%s has no %s" % (base, key))
        check(ns.get("version") == version, "%s: version %s, project %s" % (base, ns.get("version"), version))
        check(base.startswith("papi-compat-%s-" % version), "%s: file name does not carry version %s" % (base, version))
        tc = ns.get("toolchain", {})
        check(re.search(r"-%s-%s\.eb$" % (re.escape(tc.get("name", "?")), re.escape(tc.get("version", "?"))), path),
              "%s: file name does not match the toolchain %s" % (base, tc))
        defines = {}
        for arg in ns.get("configopts", "").split():
            name, value = check_define(base, arg, options, flavours)
            if name:
                defines[name] = value
        check(tc.get("name") in TOOLCHAIN_MPI, "%s: toolchain %s unknown to this check" % (base, tc.get("name")))
        mpi = TOOLCHAIN_MPI.get(tc.get("name"))
        files = ns.get("sanity_check_paths", {}).get("files", [])
        if mpi:
            seen.add(mpi)
            check(defines.get("PAPI_WITH_MPI") == "ON" and defines.get("PAPI_MPI_FLAVORS") == mpi,
                  "%s: toolchain %s has %s, configopts give PAPI_WITH_MPI=%s PAPI_MPI_FLAVORS=%s"
                  % (base, tc.get("name"), mpi, defines.get("PAPI_WITH_MPI"), defines.get("PAPI_MPI_FLAVORS")))
            check(any(f.startswith("lib/libpapi_mpi_%s." % mpi) for f in files),
                  "%s: sanity check lacks lib/libpapi_mpi_%s.so" % (base, mpi))
        else:
            check(defines.get("PAPI_WITH_MPI") == "OFF", "%s: no MPI in toolchain %s but PAPI_WITH_MPI=%s"
                  % (base, tc.get("name"), defines.get("PAPI_WITH_MPI")))
        for f in files:
            m = re.match(r"bin/(papi_\w+)$", f)
            if m and m.group(1) != "papi_mpi_collect":
                check(m.group(1) in utils, "%s checks bin/%s, which is not built" % (base, m.group(1)))
            m = re.match(r"lib/libpapi_mpi_(\w+)\.", f)
            if m:
                check(m.group(1) == mpi, "%s checks lib/libpapi_mpi_%s, toolchain MPI is %s" % (base, m.group(1), mpi))
        try:  # EasyBuild's own parser, where it is installed
            from easybuild.framework.easyconfig.parser import EasyConfigParser
            EasyConfigParser(path).get_config_dict()
            print("%s: parsed by EasyBuild" % base)
        except ImportError:
            pass
    for f in flavours:
        check(f in seen, "no easyconfig builds the %s wrapper (toolchains: %s)" % (f, TOOLCHAIN_MPI))
    print("easybuild: %d easyconfigs (stand-in parser: EasyBuild is not packaged by Debian)" % len(ecs))


def main():
    src, version = sys.argv[1], sys.argv[2]
    options = cmake_options(src)
    for internal in ("PAPI_MPI_PKG", "PAPI_MPI_AVAILABLE"):  # the check's own sanity
        check(internal not in options, "%s (INTERNAL) taken for an option" % internal)
    flavours = mpi_flavours(src)
    check(flavours == ["mpich", "openmpi"], "MPIs of mpi-wrappers/CMakeLists.txt: %s" % flavours)
    check_spack(src, version, options, flavours)
    check_easyconfigs(src, version, options, flavours)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("recipes: PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
