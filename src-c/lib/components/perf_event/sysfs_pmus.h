/* sysfs_pmus.h: the PMUs the kernel describes under /sys/bus/event_source/devices (read
 * through fsroot.h, so a recorded machine is replayed): each PMU's perf type, which CPUs
 * it counts on, its format fields (which bits of config, config1, config2 a field such as
 * "event" or "umask" occupies) and its named events ("event=0x76,umask=0x1").
 *
 * Scanned once on first use and kept until PAPI_shutdown (sysfs_pmus_reset); entries do
 * not move, so pointers stay valid for that time. Thread-safe. */
#ifndef SYSFS_PMUS_H
#define SYSFS_PMUS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define SYSFS_PMU_DIR     "/sys/bus/event_source/devices"
#define SYSFS_NAME_LEN    64
#define SYSFS_MAX_FORMATS 32
#define SYSFS_MAX_RANGES  4

/* One format field: "event" -> config:0-7,32-35 (ranges low to high). */
struct sysfs_format {
    char name[SYSFS_NAME_LEN];
    int config; /* 0: config, 1: config1, 2: config2 */
    int nranges;
    unsigned char lo[SYSFS_MAX_RANGES], hi[SYSFS_MAX_RANGES];
};

struct sysfs_event {
    char name[SYSFS_NAME_LEN];
    char spec[256]; /* the event file's text, e.g. "event=0xc0" */
    /* The kernel's <name>.scale and <name>.unit files: a count times scale is a quantity
     * in unit (uncore_imc cas_count_read: 6.103515625e-5 MiB). scale 0, unit "": none. */
    double scale;
    char unit[16];
};

enum sysfs_pmu_kind {
    SYSFS_PMU_CORE,     /* a CPU's core PMU (cpu, cpu_core, cpu_atom, armv8_*, ...) */
    SYSFS_PMU_SOFTWARE, /* the kernel's own: software, tracepoint, breakpoint, probes */
    SYSFS_PMU_UNCORE,   /* counts per socket or node (it has a cpumask): amd_df, uncore_* */
    SYSFS_PMU_OTHER     /* any other per-thread PMU (msr, ibs_op, ...) */
};

struct sysfs_pmu {
    char name[SYSFS_NAME_LEN];
    int type; /* perf_event_attr.type */
    enum sysfs_pmu_kind kind;
    char cpus[128]; /* "cpus" (hybrid) or "cpumask" file, "" if none */
    bool own_cpus;  /* cpus is the "cpus" file: a core PMU of part of the
                                         CPUs (cpu_core, cpu_atom, armv8_cortex_a72, ...) */
    int nformats;
    struct sysfs_format fmt[SYSFS_MAX_FORMATS];
    int nevents;
    struct sysfs_event *events; /* sorted by name */
    atomic_int detailed;        /* formats and events read (sysfs_pmu_at) */
};

/* Number of PMUs (listing them on first use), and the i-th, sorted by name, with its
 * formats and events (read on first look); sysfs_pmu_brief: name, type, kind and cpus
 * only (nformats and nevents may still be 0). */
__attribute__((visibility("hidden"))) int sysfs_pmu_count(void);
__attribute__((visibility("hidden"))) const struct sysfs_pmu *sysfs_pmu_at(int i);
__attribute__((visibility("hidden"))) const struct sysfs_pmu *sysfs_pmu_brief(int i);
/* The PMU called name, or NULL; its index in *idx when idx is not NULL. */
__attribute__((visibility("hidden"))) const struct sysfs_pmu *sysfs_pmu_find(const char *name,
                                                                             int *idx);
/* The event called name of pmu, or NULL; its index in *idx when idx is not NULL. */
__attribute__((visibility("hidden"))) const struct sysfs_event *sysfs_pmu_event(
    const struct sysfs_pmu *pmu, const char *name, int *idx);
/* The format field called name of pmu, or NULL. */
__attribute__((visibility("hidden"))) const struct sysfs_format *sysfs_pmu_format(
    const struct sysfs_pmu *pmu, const char *name);
/* Whether name is a core PMU's name (cpu, cpu_core, cpu_atom, armv8_*, arm_*, ...). */
__attribute__((visibility("hidden"))) bool sysfs_is_core_pmu_name(const char *name);
__attribute__((visibility("hidden"))) bool sysfs_is_software_pmu_name(const char *name);
/* Whether cpu is in the PMU's cpus (a list such as "0-11,24"; "" means every CPU). */
__attribute__((visibility("hidden"))) bool sysfs_pmu_has_cpu(const struct sysfs_pmu *pmu, int cpu);
/* The PMU whose perf type is type, or NULL; its index in *idx when idx is not NULL. */
__attribute__((visibility("hidden"))) const struct sysfs_pmu *sysfs_pmu_by_type(int type, int *idx);
/* Hybrid machines: the core PMUs that each count on part of the CPUs (their own "cpus"
 * file), when there are at least two (Intel cpu_core and cpu_atom, Arm big.LITTLE pairs).
 * Their indices (sysfs_pmu_at) in idx[0 .. max-1], sorted by name; returns how many, 0
 * on a machine with one core type. */
__attribute__((visibility("hidden"))) int sysfs_hybrid_pmus(int *idx, int max);
/* PAPI_OK when PMU pmu (sysfs_pmu_at) is this kernel's: always, unless a recorded machine
 * is replayed (fsroot.h): then only when this kernel has the same PMU under the same
 * type; else PAPI_ENOEVNT with the reason naming event. */
__attribute__((visibility("hidden"))) int sysfs_pmu_here(int pmu, const char *event);
/* Forget the scan (PAPI_shutdown): the next use scans again, under the root then in force. */
__attribute__((visibility("hidden"))) void sysfs_pmus_reset(void);

#endif
