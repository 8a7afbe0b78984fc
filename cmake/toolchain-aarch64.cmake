# Cross build for aarch64 Linux (the arm64 PMU lane, scripts/pmu-lane.sh).
# Compilers: Debian's gcc-aarch64-linux-gnu (and gfortran-aarch64-linux-gnu if present).
# Libraries (libpfm4, hwloc, udev): arm64 Debian packages unpacked into a directory by
# the project's scripts/guest/fetch-arm64 (scripts/pmu-lane.sh does it); point
# PAPI_ARM64_SYSROOT at it (default ~/.cache/papi-arm64-sysroot). The compiler keeps its
# own glibc (/usr/aarch64-linux-gnu).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
find_program(PAPI_ARM64_GFORTRAN aarch64-linux-gnu-gfortran)
if(PAPI_ARM64_GFORTRAN)
  set(CMAKE_Fortran_COMPILER ${PAPI_ARM64_GFORTRAN})
endif()

# Programs the build runs to generate sources (the Fortran constants dump) run under
# QEMU user mode (Debian package qemu-user) with the cross toolchain's glibc.
find_program(PAPI_QEMU_AARCH64 qemu-aarch64)
if(PAPI_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${PAPI_QEMU_AARCH64};-L;/usr/aarch64-linux-gnu")
endif()

# The toolchain file is read again by every try_compile: take the sysroot from the
# environment so all of them agree.
if(DEFINED ENV{PAPI_ARM64_SYSROOT} AND NOT "$ENV{PAPI_ARM64_SYSROOT}" STREQUAL "")
  set(PAPI_ARM64_SYSROOT "$ENV{PAPI_ARM64_SYSROOT}")
else()
  set(PAPI_ARM64_SYSROOT "$ENV{HOME}/.cache/papi-arm64-sysroot")
endif()
set(ENV{PAPI_ARM64_SYSROOT} "${PAPI_ARM64_SYSROOT}")
if(NOT EXISTS "${PAPI_ARM64_SYSROOT}/usr/include/perfmon/pfmlib_perf_event.h")
  message(FATAL_ERROR "no arm64 libpfm4 in ${PAPI_ARM64_SYSROOT}: run scripts/pmu-lane.sh "
                      "(or scripts/guest/fetch-arm64 ${PAPI_ARM64_SYSROOT} libpfm4 libpfm4-dev "
                      "libhwloc15 libhwloc-dev libudev1)")
endif()

set(CMAKE_FIND_ROOT_PATH "${PAPI_ARM64_SYSROOT}" /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config (hwloc.pc) must describe the arm64 packages, not the host's.
set(ENV{PKG_CONFIG_LIBDIR}
    "${PAPI_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${PAPI_ARM64_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${PAPI_ARM64_SYSROOT}")
set(ENV{PKG_CONFIG_PATH} "")

# Multiarch headers (hwloc/autogen/config.h) live below include/aarch64-linux-gnu.
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES "${PAPI_ARM64_SYSROOT}/usr/include/aarch64-linux-gnu")

# The sysroot's libraries need their own dependencies at link time (hwloc -> udev).
set(_papi_rpath_link "-Wl,-rpath-link,${PAPI_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_papi_rpath_link}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${_papi_rpath_link}")
