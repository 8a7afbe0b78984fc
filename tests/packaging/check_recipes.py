#!/usr/bin/env python3
"""check_recipes.py SRC VERSION [BUILD]: the Spack package and the EasyBuild easyconfigs of
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
  - the Spack repository's layout (repo.yaml with a namespace, packages/<name>/package.py);
  - the Spack variants mapped wrongly: every combination of the boolean variants with
    ~mpi and ^mpich, ^openmpi (and another provider) is turned into cmake_args and the
    result is compared with what the spec means (define_from_variant returns the variant's
    real value here, not a constant); the MPI a virtual depends_on("mpi") with a
    requirement naming the two the wrapper knows; papi_report's pandas and matplotlib
    declared as run dependencies;
  - a recipe version other than the project's (and a URL naming another version);
  - an easyconfig whose toolchain's MPI is not the flavour it configures, or whose sanity
    check names a utility or wrapper library the build does not make, or (with BUILD: a
    real `cmake --install` of it) a file or directory the install does not have;
  - papi_report's pandas and matplotlib: dependencies where the toolchain can have them
    (foss), else a modloadmsg that says to load them.
When EasyBuild is importable (a site's machine) its own parser reads the easyconfigs too.
Exit 0 pass, 1 fail."""
import glob
import itertools
import os
import re
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, verdict  # noqa: E402 (tests/common/checks.py)


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
    """Every combination of the boolean variants with each MPI provider the spec can hold
    (none, mpich, openmpi, and one the wrapper does not know): [({name: value}, mpi)]."""
    bools = [n for n, (_, kw) in variants.items() if isinstance(kw.get("default"), bool)]
    for combo in itertools.product([True, False], repeat=len(bools)):
        spec = dict(zip(bools, combo))
        for mpi in ((None,) if not spec.get("mpi") else ("mpich", "openmpi", "mvapich2")):
            yield spec, mpi


def spack_repo(src):
    """repo.yaml: `repo:` with a `namespace:` (a Python identifier, as Spack requires),
    read without PyYAML (not installed here): the two keys Spack needs, nothing else."""
    path = os.path.join(src, "packaging", "spack", "repo.yaml")
    check(os.path.isfile(path), "no packaging/spack/repo.yaml: `spack repo add packaging/spack` fails")
    if not os.path.isfile(path):
        return
    lines = [l.split("#", 1)[0].rstrip() for l in open(path, encoding="utf-8")]
    lines = [l for l in lines if l.strip()]
    check(lines and lines[0] == "repo:", "repo.yaml does not start with 'repo:': %s" % lines[:1])
    ns = [l.split(":", 1)[1].strip().strip("'\"") for l in lines[1:]
          if l.startswith((" ", "\t")) and l.strip().startswith("namespace:")]
    check(len(ns) == 1 and ns[0].isidentifier(), "repo.yaml: namespace %s is not one identifier" % ns)
    pkgs = [d for d in os.listdir(os.path.join(src, "packaging", "spack", "packages"))]
    for d in pkgs:
        check(os.path.isfile(os.path.join(src, "packaging", "spack", "packages", d, "package.py")),
              "packages/%s has no package.py" % d)
    print("spack: repo.yaml namespace %s, packages %s" % (ns, pkgs))


def check_spack(src, version, options, flavours):
    spack_repo(src)
    path = os.path.join(src, "packaging", "spack", "packages", "papi-compat", "package.py")
    record = {k: [] for k in ("version", "variant", "depends_on", "conflicts", "requires",
                              "maintainers", "license", "provides", "patch", "variant_uses")}
    spack = types.ModuleType("spack")
    spack.package = spack_stub(record)
    sys.modules["spack"], sys.modules["spack.package"] = spack, spack.package
    ns = {}
    exec(compile(open(path, encoding="utf-8").read(), path, "exec"), ns)
    cls = ns.get("PapiCompat")
    check(cls is not None, "package.py defines no class PapiCompat (the directory papi-compat)")
    versions = [a[0] for a, _ in record["version"]]
    newest = max(versions, key=lambda v: [int(x) for x in v.split(".")]) if versions else None
    check(newest == version, "Spack's newest version %s is not the project's %s" % (newest, version))
    url = getattr(cls, "url", "")
    check(version in url, "Spack url %r does not name version %s" % (url, version))
    variants = {a[0]: (a, kw) for a, kw in record["variant"]}
    for v in ("fortran", "mpi", "static", "report"):
        check(v in variants, "Spack package has no variant %s" % v)
    if cls is None or "mpi" not in variants:
        return
    # The MPI is a virtual dependency: any provider, the wrapper built for MPICH or Open
    # MPI (a requirement says so); no MPI named in a depends_on.
    deps = {(a[0], kw.get("when"), str(kw.get("type"))) for a, kw in record["depends_on"]}
    check(("mpi", "+mpi", "None") in deps, "Spack: no depends_on('mpi', when='+mpi')")
    named = [d for d in deps if d[0] in ("mpich", "openmpi", "mvapich2")]
    check(not named, "Spack names an MPI package instead of the virtual mpi: %s" % named)
    req = [(a, kw) for a, kw in record["requires"] if kw.get("when") == "+mpi"]
    check(any(set(a) == {"^%s" % f for f in flavours} and kw.get("policy") == "one_of" for a, kw in req),
          "Spack: no requires(%s, policy='one_of', when='+mpi')" % ", ".join("'^%s'" % f for f in flavours))
    for py in ("py-pandas", "py-matplotlib"):
        check((py, "+report", "run") in deps, "Spack: no depends_on(%r, type='run', when='+report') "
              "(papi_report needs it)" % py)
    pkg = cls.__new__(cls)
    n = 0
    for spec, mpi in spack_specs(variants):
        def satisfies(s, spec=spec, mpi=mpi):
            if s.startswith("^"):
                return s[1:] == mpi
            if s[0] in "+~":
                return spec.get(s[1:]) is (s[0] == "+")
            raise ValueError("stand-in cannot evaluate %r" % s)
        pkg.spec = types.SimpleNamespace(
            variants={k: types.SimpleNamespace(value=v) for k, v in spec.items()}, satisfies=satisfies)
        where = "Spack %s ^%s" % (" ".join("%s%s" % ("+" if v else "~", k) for k, v in sorted(spec.items())), mpi)
        got = {}
        for a in pkg.cmake_args():
            name, value = check_define(where, a, options, flavours)
            if name:
                got[name] = value
        want_mpi = mpi if mpi in flavours else None  # another provider: refused by requires()
        onoff = lambda b: "ON" if b else "OFF"
        check(got.get("PAPI_WITH_MPI") == onoff(want_mpi), "%s: PAPI_WITH_MPI=%s" % (where, got.get("PAPI_WITH_MPI")))
        if want_mpi:
            check(got.get("PAPI_MPI_FLAVORS") == want_mpi,
                  "%s: PAPI_MPI_FLAVORS=%s, want %s" % (where, got.get("PAPI_MPI_FLAVORS"), want_mpi))
        for variant, option in (("fortran", "PAPI_WITH_FORTRAN"), ("static", "PAPI_INSTALL_STATIC"),
                                ("hwloc", "PAPI_WITH_HWLOC"), ("tests", "PAPI_BUILD_TESTS")):
            if variant in spec:
                check(got.get(option) == onoff(spec[variant]),
                      "%s: %s=%s" % (where, option, got.get(option)))
        n += 1
    check(set(record["variant_uses"]) <= set(variants), "cmake_args uses undeclared variants")
    print("spack: %d variants, versions %s, %d variant and MPI combinations mapped" % (len(variants), versions, n))


# --- EasyBuild ------------------------------------------------------------------------------

# The MPI of each EasyBuild toolchain (GCC + ...): the wrapper flavour its easyconfig builds.
TOOLCHAIN_MPI = {"gompi": "openmpi", "foss": "openmpi", "gmpich": "mpich", "GCCcore": None, "GCC": None}


def install_tree(build):
    """A real install of the build tree (cmake --install into a temporary prefix), with
    the library directory it uses: (prefix, libdir), or (None, None)."""
    import subprocess
    import tempfile
    libdir = "lib"
    for line in open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8", errors="replace"):
        if line.startswith("CMAKE_INSTALL_LIBDIR:"):
            libdir = line.split("=", 1)[1].strip()
    prefix = tempfile.mkdtemp(prefix="papi_eb_")
    r = subprocess.run(["cmake", "--install", build, "--prefix", prefix], capture_output=True, text=True)
    check(r.returncode == 0, "cmake --install %s: %s" % (build, r.stderr[-500:]))
    return (prefix, libdir) if r.returncode == 0 else (None, None)


def check_sanity_paths(base, paths, tree, flavours_built):
    """Every file and directory an easyconfig's sanity check names exists in a real
    install (its lib/ is the build's library directory; a wrapper of an MPI this machine
    did not build is not looked for, and said)."""
    prefix, libdir = tree
    n = 0
    for kind in ("files", "dirs"):
        for f in paths.get(kind, []):
            m = re.match(r"lib/(?:pkgconfig/)?(?:lib)?papi_mpi_(\w+)\.", f)
            if m and m.group(1) not in flavours_built:
                print("%s: %s not looked for (no %s wrapper built here)" % (base, f, m.group(1)))
                continue
            real = os.path.join(prefix, libdir + f[3:] if f.startswith("lib/") else f)
            ok = os.path.isfile(real) if kind == "files" else os.path.isdir(real)
            check(ok, "%s: sanity_check_paths names %s, which an install does not have" % (base, f))
            n += 1
    return n


def check_easyconfigs(src, version, options, flavours, tree=None):
    utils = {os.path.basename(p)[:-2] for p in glob.glob(os.path.join(src, "src-c", "utils", "papi_*.c"))}
    utils |= {os.path.basename(p)[:-3] for d in (("src-c", "utils"), ("python",))
              for p in glob.glob(os.path.join(src, *d, "papi_*.py"))}
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
        # papi_report's Python modules: dependencies where the toolchain can have them
        # (foss: SciPy-bundle's pandas, matplotlib), else the module says to load them.
        deps = [d[0] for d in ns.get("dependencies", [])]
        if tc.get("name") == "foss":
            check("SciPy-bundle" in deps and "matplotlib" in deps,
                  "%s: foss can depend on SciPy-bundle and matplotlib (papi_report): %s" % (base, deps))
        else:
            msg = ns.get("modloadmsg", "")
            check("pandas" in msg and "matplotlib" in msg,
                  "%s: no dependency and no modloadmsg for papi_report's pandas and matplotlib" % base)
        if tree and tree[0]:
            built = [f for f in flavours if glob.glob(os.path.join(tree[0], tree[1], "libpapi_mpi_%s.so" % f))]
            n = check_sanity_paths(base, ns.get("sanity_check_paths", {}), tree, built)
            print("%s: %d sanity paths found in a real install" % (base, n))
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
    tree = install_tree(sys.argv[3]) if len(sys.argv) > 3 else None
    check_easyconfigs(src, version, options, flavours, tree)
    if tree and tree[0]:
        import shutil
        shutil.rmtree(tree[0], ignore_errors=True)
    return verdict("recipes")


if __name__ == "__main__":
    sys.exit(main())
