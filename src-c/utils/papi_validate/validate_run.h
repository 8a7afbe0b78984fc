/* validate_run.h: papi_validate's checks: which presets and metrics this CPU defines,
 * each kernel that determines them run and counted, each row judged (validate_verdict). */
#ifndef VALIDATE_RUN_H
#define VALIDATE_RUN_H

#include "papi.h"
#include "papi_metrics.h"
#include "validate_kernels.h"
#include "validate_verdict.h"

/* Exact classes: the loop's own overhead. Two runs (n and 2n iterations) are
 * differenced, which cancels the call, the set-up and PAPI_start/PAPI_stop; what is left
 * (an interrupt's skid, a speculative count at the loop's exit) is allowed up to
 * VR_TOL_ABS events plus VR_TOL_REL of the expected count. */
#define VR_TOL_ABS 32.0
#define VR_TOL_REL 0.001

struct vr_row {
    char kernel[32];
    char event[PAPI_MAX_STR_LEN];
    int is_metric;
    long iterations;
    double expected;
    double counted;
    double seconds; /* a metric's counting time (its counts are per second) */
    struct vd_result res;
};

struct vr_run {
    struct vr_row *rows;
    int n, cap;
    int passed, failed, not_countable, no_kernel;
    long iterations; /* n of the n / 2n pair */
    int repeats;     /* pairs per check (the median is kept) */
};

/* Options: only (one preset or metric, or NULL for all), quick (fewer iterations). */
struct vr_options {
    const char *only;
    int quick;
};

/* Is name a preset this CPU's table defines or a metric of its metric table? Returns 1,
 * or 0 with why filled in (unknown name, not in this CPU's table, no kernel for it). */
int vr_check_name(const char *name, char *why, size_t len);

/* Sizes the memory kernels from this machine's caches (PAPI_library_init first). */
void vr_configure_kernels(int quick);
/* --quick's ceiling of a working set: building a 1 GiB chase takes about 3 s (a 4 GiB
 * one 5 to 9 s), measured on a shared 2-core Xeon VM. */
#define VR_QUICK_SET (1L << 30)

/* A metric's formula over known counts is judged within this fraction: the one run of
 * 2n iterations it is counted over keeps PAPI_start/PAPI_stop's few hundred events. */
#define VR_METRIC_TOL_REL 0.005

/* Runs every check (or the one of o->only); 0, or -1 out of memory. */
int vr_run_all(const struct vr_options *o, struct vr_run *run);
void vr_free(struct vr_run *run);

/* The parts validate_metrics.c shares. vr_preset_defined: 1 when this CPU's table
 * defines preset name. vr_new_row: a row (NULL out of memory). vr_judge: its verdict
 * (countable: enum vd_countable), tallied. vr_set_of: an event set of the names, or
 * PAPI_NULL with why. vr_kernel_missing: why kernel k cannot run here, or NULL (it builds
 * the kernel's working set only when es, the row's event set, opened). */
int vr_preset_defined(const char *name, PAPI_event_info_t *info);
struct vr_row *vr_new_row(struct vr_run *run, const char *kernel, const char *event);
void vr_judge(struct vr_run *run, struct vr_row *row, int countable, const char *reason,
              double tol_abs, double tol_rel);
int vr_set_of(const char *const *names, int n, char *why, size_t len);
void vr_free_set(int es);
const char *vr_kernel_missing(const struct vk_kernel *k, int es, char *buf, size_t len);

/* validate_metrics.c: every metric this CPU defines, checked against the kernel that
 * determines it or listed as "no kernel" (only: one metric, or NULL for all; a preset
 * name checks none); 0, or -1 out of memory. */
int vm_check_all(struct vr_run *run, const char *only);
/* Is metric mi one a kernel determines? 1, or 0 with why. */
int vm_check_name(const PAPIM_metric_info_t *mi, char *why, size_t len);

#endif
