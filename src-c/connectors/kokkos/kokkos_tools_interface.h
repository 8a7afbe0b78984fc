/* kokkos_tools_interface.h: the Kokkos Tools callbacks this connector exports. Kokkos
 * (KOKKOS_ENABLE_LIBDL) dlopens the library named by KOKKOS_PROFILE_LIBRARY (Kokkos 3),
 * KOKKOS_TOOLS_LIBS (Kokkos 4) or --kokkos-tools-library and looks these names up; one
 * it does not find is simply not called. Plain C: Kokkos declares them extern "C". */
#ifndef KOKKOS_TOOLS_INTERFACE_H
#define KOKKOS_TOOLS_INTERFACE_H

#include <stdint.h>

#define KOKKOSP_EXPORT __attribute__((visibility("default")))

/* deviceInfo points to Kokkos's device description (unused here). */
KOKKOSP_EXPORT void kokkosp_init_library(int loadSeq, uint64_t interfaceVer, uint32_t devInfoCount,
                                         void *deviceInfo);
KOKKOSP_EXPORT void kokkosp_finalize_library(void);

/* Each kernel: begin hands Kokkos an id in *kID, end gives it back. */
KOKKOSP_EXPORT void kokkosp_begin_parallel_for(const char *name, uint32_t devID, uint64_t *kID);
KOKKOSP_EXPORT void kokkosp_end_parallel_for(uint64_t kID);
KOKKOSP_EXPORT void kokkosp_begin_parallel_reduce(const char *name, uint32_t devID, uint64_t *kID);
KOKKOSP_EXPORT void kokkosp_end_parallel_reduce(uint64_t kID);
KOKKOSP_EXPORT void kokkosp_begin_parallel_scan(const char *name, uint32_t devID, uint64_t *kID);
KOKKOSP_EXPORT void kokkosp_end_parallel_scan(uint64_t kID);

/* Kokkos::Profiling::pushRegion / popRegion. */
KOKKOSP_EXPORT void kokkosp_push_profile_region(const char *name);
KOKKOSP_EXPORT void kokkosp_pop_profile_region(void);

#endif
