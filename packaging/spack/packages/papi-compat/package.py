# Spack package of papi-compat, a PAPI-compatible performance counter library.
# `spack repo add packaging/spack` (repo.yaml: namespace papi_compat), then
# `spack install papi-compat ^mpich` (or ^openmpi, or ~mpi). To let packages that depends_on("papi")
# use an install of it, declare it as an external papi (see packaging/README.md).
from spack.package import *


class PapiCompat(CMakePackage):
    """PAPI-compatible performance counter library on Linux perf_event: the PAPI 7.0 API
    and the 3.5 calls (PAPI_flops, PAPIF_*), libpfm4 for native events, hwloc for the
    hardware description, a generated Fortran module, PMPI wrappers per MPI and the
    papi_* utilities."""

    homepage = "https://example.invalid/papi-compat"
    # A site builds from its own copy of the sources (spack install --source-dir or a
    # mirror); the checksum is the release tarball's.
    url = "https://example.invalid/papi-compat/papi-compat-1.0.0.tar.gz"
    maintainers("papi-compat")
    license("BSD-3-Clause")

    version("1.0.0", sha256="0" * 64)

    variant("fortran", default=True, description="Fortran module (use papi), fpapi.h and PAPIF_*")
    variant("hwloc", default=True, description="Hardware and topology information from hwloc")
    variant("static", default=True,
            description="Install libpapi.a (the archive and the ld script for libpfm4 and hwloc)")
    # The PMPI wrapper library for the spec's MPI (libpapi_mpi_<mpi>.so and libpapi_mpi.so).
    variant("mpi", default=True,
            description="PMPI wrapper library (per-rank counters, MPI call statistics) for the MPI")
    variant("report", default=True,
            description="papi_report's tables and figures (pandas, matplotlib at run time)")
    variant("tests", default=False, description="Build the test programs (ctest)")

    depends_on("c", type="build")
    depends_on("fortran", type="build", when="+fortran")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("python@3:", type=("build", "run"))
    depends_on("py-pandas", type="run", when="+report")
    depends_on("py-matplotlib", type="run", when="+report")
    depends_on("libpfm4")
    depends_on("hwloc", when="+hwloc")
    depends_on("mpi", when="+mpi")
    # The wrapper generator knows these two MPIs' headers and pkg-config modules (mpich,
    # ompi); other providers are untried.
    requires("^mpich", "^openmpi", policy="one_of", when="+mpi",
             msg="papi-compat's PMPI wrapper is built for MPICH or Open MPI")

    # Linux perf_event only.
    requires("platform=linux", msg="papi-compat counts through Linux perf_event")

    def mpi_flavour(self):
        """The project's name of the spec's MPI (PAPI_MPI_FLAVORS), None without one."""
        if not self.spec.satisfies("+mpi"):
            return None
        for flavour in ("mpich", "openmpi"):
            if self.spec.satisfies("^" + flavour):
                return flavour
        return None

    def cmake_args(self):
        flavour = self.mpi_flavour()
        args = [
            self.define_from_variant("PAPI_WITH_FORTRAN", "fortran"),
            self.define_from_variant("PAPI_WITH_HWLOC", "hwloc"),
            self.define_from_variant("PAPI_INSTALL_STATIC", "static"),
            self.define_from_variant("PAPI_BUILD_TESTS", "tests"),
            self.define("PAPI_BUILD_BENCH", False),
            self.define("PAPI_WITH_MPI", flavour is not None),
        ]
        if flavour:
            args.append(self.define("PAPI_MPI_FLAVORS", flavour))
        return args

    def setup_run_environment(self, env):
        env.set("PAPI_ROOT", self.prefix)

    @property
    def libs(self):
        return find_libraries("libpapi", root=self.prefix, shared=True, recursive=True)
