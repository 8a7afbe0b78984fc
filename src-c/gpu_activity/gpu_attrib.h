/* gpu_attrib.h: GPU work summed by the region that launched it (gpu_attrib.c). A caller
 * pushes a tag (its region) on CUPTI's per-thread stack of external ids at a region's
 * begin and pops it at the end; CUPTI then writes, for each launch, a link from the
 * launch's correlation id to the innermost tag of the launching thread, and the kernel,
 * copy and memset records carry that correlation id. The links and the sums by tag live
 * in bounded tables inside the process's GPU table (its lock). */
#ifndef PAPI_GPU_ATTRIB_H
#define PAPI_GPU_ATTRIB_H

#include <stdint.h>

#include "cupti_api.h"

#define GPU_ATTRIB_LINKS 65536 /* correlation id -> tag, by id modulo: recent launches */
#define GPU_ATTRIB_TAGS  4096  /* tags with sums; later tags' work counted as untabled */

/* What the launches of one tag did. */
struct gpu_attrib_sum {
    uint64_t tag;
    uint64_t kernel_launches, kernel_ns;
    uint64_t copies[CUPTI_MEMCPY_KINDS][2]; /* count, bytes by CUPTI_MEMCPY_KIND_* */
    uint64_t memsets, memset_bytes;
};

struct gpu_attrib {
    struct {
        uint32_t cid;
        uint64_t tag;
    } link[GPU_ATTRIB_LINKS];
    struct gpu_attrib_sum sum[GPU_ATTRIB_TAGS]; /* open addressing by tag; tag 0 empty */
    int ntags;
    uint64_t unattributed; /* kernels, copies, memsets with no link: launched outside every
                              region, or their link overwritten by 65536 later launches */
    uint64_t untabled;     /* linked to a tag past GPU_ATTRIB_TAGS */
};

/* A link record of CUPTI's (kind 39). */
__attribute__((visibility("hidden"))) void gpu_attrib_link(
    struct gpu_attrib *a, const cupti_external_correlation_record *r);
/* A kernel (ns its duration), copy (kind, bytes) or memset record by its correlation id. */
__attribute__((visibility("hidden"))) void gpu_attrib_kernel(struct gpu_attrib *a, uint32_t cid,
                                                             uint64_t ns);
__attribute__((visibility("hidden"))) void gpu_attrib_copy(struct gpu_attrib *a, uint32_t cid,
                                                           unsigned kind, uint64_t bytes);
__attribute__((visibility("hidden"))) void gpu_attrib_memset(struct gpu_attrib *a, uint32_t cid,
                                                             uint64_t bytes);
/* The sums of tag, or NULL when none was filed. */
__attribute__((visibility("hidden"))) const struct gpu_attrib_sum *gpu_attrib_get(
    const struct gpu_attrib *a, uint64_t tag);

#endif
