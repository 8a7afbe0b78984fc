/* gpu_table.h: a process's GPU activity summed in bounded memory (gpu_table.c): kernels by
 * name, device and stream; copies by direction; memsets and device busy time (the union of
 * its kernels' intervals) by device; synchronisation by type; records CUPTI dropped. The
 * activity layer (gpu_activity.c) files records into it on its drain thread, under its
 * lock; times are nanoseconds of the traces' clock (mono_clock.h), CUPTI's converted as
 * they are filed. */
#ifndef PAPI_GPU_TABLE_H
#define PAPI_GPU_TABLE_H

#include <stdint.h>

#include "cupti_api.h"
#include "gpu_attrib.h"

#define GPU_TABLE_KERNELS   1024 /* kernel rows; later kernels counted in kernels_untabled */
#define GPU_TABLE_DEVICES   16   /* device rows; records of a further device are untabled */
#define GPU_BUSY_INTERVALS  2048 /* disjoint busy intervals kept per device (see busy) */
#define GPU_KERNEL_NAME_LEN 256  /* a demangled name, cut to fit (marked: below) */
/* A cut name ends in "...#" and 16 hex digits of its whole name's hash (gpu_table.c). */
#define GPU_KERNEL_NAME_MARK 20

struct gpu_kernel_row {
    char name[GPU_KERNEL_NAME_LEN]; /* demangled (demangle.h), a long one cut and marked */
    uint64_t key;                   /* hash of CUPTI's name, device and stream */
    uint32_t device, stream;
    int32_t grid[3], block[3]; /* the last launch's */
    uint64_t launches, total_ns, min_ns, max_ns;
};

struct gpu_sum {
    uint64_t count, bytes, ns;
};

/* A device's busy time: the disjoint intervals where a kernel ran, sorted by start, plus
 * what was retired from them when they were too many (the earliest quarter, its length
 * kept in settled_ns; a later record reaching before settled_until is cut there). */
struct gpu_device_row {
    uint32_t id;
    uint32_t nbusy;
    uint64_t settled_ns, settled_until;
    uint64_t live_ns; /* the sum of busy[]'s lengths */
    struct {
        uint64_t start, end;
    } busy[GPU_BUSY_INTERVALS];
    struct gpu_sum memset; /* memsets on this device */
};

#define GPU_KERNEL_SLOTS (2 * GPU_TABLE_KERNELS) /* the rows' hash index, half full at most */

struct gpu_table {
    int nkernels, ndevices;
    struct gpu_kernel_row kernels[GPU_TABLE_KERNELS];
    int16_t kernel_slot[GPU_KERNEL_SLOTS]; /* row + 1 by key, linear probing; 0 empty */
    struct gpu_device_row devices[GPU_TABLE_DEVICES];
    struct gpu_sum copies[CUPTI_MEMCPY_KINDS]; /* by CUPTI_MEMCPY_KIND_* (direction) */
    struct gpu_sum syncs[CUPTI_SYNC_TYPES];    /* by CUPTI_SYNC_*; bytes 0 */
    uint64_t records;                          /* filed */
    uint64_t first_ns, last_ns;                /* the earliest start and latest end filed */
    uint64_t kernels_untabled; /* launches of kernels past GPU_TABLE_KERNELS or devices */
    uint64_t incomplete;       /* records without a start or an end (not filed) */
    uint64_t other_records;    /* of kinds this table does not keep */
    uint64_t dropped;          /* records CUPTI dropped (cuptiActivityGetNumDroppedRecords) */
    uint64_t buffers_refused;  /* buffer requests the bounded pool could not serve */
    struct gpu_attrib attrib;  /* the same work by the region that launched it */
};

/* Empties t (every count 0, no rows). */
__attribute__((visibility("hidden"))) void gpu_table_clear(struct gpu_table *t);
/* Files one record of CUPTI's (its kind says which layout), its times less clock_offset
 * (CUPTI's clock minus the traces'; 0 where CUPTI reads the traces' clock). Returns a
 * kernel's row index, else -1. */
__attribute__((visibility("hidden"))) int gpu_table_file(struct gpu_table *t,
                                                         const cupti_record_head *rec,
                                                         int64_t clock_offset);
/* A device's busy time so far (the union of its kernels), or 0 for a device not seen. */
__attribute__((visibility("hidden"))) uint64_t gpu_table_busy_ns(const struct gpu_table *t,
                                                                 uint32_t device);
/* The words later outputs use: a copy kind's direction ("HtoD", "DtoH", "DtoD", "PtoP",
 * "HtoA" ..., "unknown") and a synchronisation type ("event_synchronize",
 * "stream_wait_event", "stream_synchronize", "context_synchronize", "unknown"). */
__attribute__((visibility("hidden"))) const char *gpu_copy_direction(unsigned kind);
__attribute__((visibility("hidden"))) const char *gpu_sync_type(unsigned type);
/* The kernel row of a demangled name, device and stream, or NULL. */
__attribute__((visibility("hidden"))) const struct gpu_kernel_row *gpu_table_kernel(
    const struct gpu_table *t, const char *name, uint32_t device, uint32_t stream);

#endif
