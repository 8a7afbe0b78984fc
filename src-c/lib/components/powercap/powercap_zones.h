/* powercap_zones.h: the kernel's powercap tree as a list of events (no PAPI state).
 *
 * The tree (/sys/class/powercap, under the recorded machine's root, PAPI_FSROOT, when
 * one is replayed: fsroot.h) holds one directory per zone, intel-rapl:N (a package: "package-N", or "psys"), and
 * per subzone, intel-rapl:N:M ("core", "uncore", "dram"). AMD processors (family 17h
 * and later) appear under the same intel-rapl names, usually without power limits.
 * Each file becomes one event, named as PAPI 7 names them:
 *     ENERGY_UJ:ZONE0   MAX_ENERGY_RANGE_UJ:ZONE0_SUBZONE1   POWER_LIMIT_A_UW:ZONE1 ...
 * ENERGY_UJ counts (microjoules, wrapping through max_energy_range_uj); every other
 * event is an instantaneous setting or limit.
 *
 * Beside them, one energy sum per kind of zone, named by the zones' own names (their
 * "name" files), each member counter unwrapped on its own:
 *     ENERGY_UJ:PACKAGE  the zones "package-N"       ENERGY_UJ:CORE    subzones "core"
 *     ENERGY_UJ:UNCORE   subzones "uncore"           ENERGY_UJ:DRAM    subzones "dram"
 *     ENERGY_UJ:PSYS     the zone "psys" (platform)  ENERGY_UJ:TOTAL   the rule below
 * The rule of TOTAL, "top-level zones only": the sum of the intel-rapl:N zones, never a
 * subzone (core and uncore are parts of their package; Linux lists dram under its
 * package although RAPL counts it apart: DRAM is reported beside, never added); when a
 * psys zone exists it covers the packages, so TOTAL is psys alone. A sum one of whose
 * members cannot be read is not offered (never a partial sum): its reason says why.
 * Per package N (the zone "package-N" and its subzones), for a reader of one socket (the
 * MPI wrapper's): ENERGY_UJ:PACKAGE:PKGN, :CORE:PKGN, :UNCORE:PKGN, :DRAM:PKGN and
 * :TOTAL:PKGN (the package zone; not offered where psys covers the platform). */
#ifndef POWERCAP_ZONES_H
#define POWERCAP_ZONES_H

#include <stddef.h>
#include <stdint.h>

#define POWERCAP_DEFAULT_DIR "/sys/class/powercap"

enum powercap_attr {
    POWERCAP_ENERGY_UJ,
    POWERCAP_MAX_ENERGY_RANGE_UJ,
    POWERCAP_MAX_POWER_A_UW,
    POWERCAP_POWER_LIMIT_A_UW,
    POWERCAP_TIME_WINDOW_A_US,
    POWERCAP_MAX_POWER_B_UW,
    POWERCAP_POWER_LIMIT_B_UW,
    POWERCAP_TIME_WINDOW_B_US,
    POWERCAP_ENABLED,
    POWERCAP_NUM_ATTRS
};

/* What a zone is, from its name file. */
enum powercap_kind {
    POWERCAP_KIND_PACKAGE,
    POWERCAP_KIND_CORE,
    POWERCAP_KIND_UNCORE,
    POWERCAP_KIND_DRAM,
    POWERCAP_KIND_PSYS,
    POWERCAP_KIND_TOTAL, /* not a zone: the sum by the rule above */
    POWERCAP_NUM_KINDS,
    POWERCAP_KIND_OTHER = POWERCAP_NUM_KINDS
};

#define POWERCAP_MAX_MEMBERS 32 /* zones in one sum (packages of a node) */
#define POWERCAP_NOTE_LEN    2048

struct powercap_event {
    char name[64]; /* ENERGY_UJ:ZONE0_SUBZONE1 (without "powercap:::") */
    char description[160];
    char units[16]; /* uJ, uW, us, or "" */
    char path[512]; /* the sysfs file */
    enum powercap_attr attr;
    int zone, subzone;       /* subzone -1 for a zone's own events */
    uint64_t max_energy_uj;  /* ENERGY_UJ: the counter's range (it wraps after it) */
    enum powercap_kind kind; /* the zone's, or the sum's */
    int package;             /* N of the zone's package-N (a subzone's parent's), else -1 */
    /* A sum (zone -1): its members, indices of zones' ENERGY_UJ events; 0 for a zone. */
    int nmembers;
    int member[POWERCAP_MAX_MEMBERS];
};

struct powercap_tree {
    struct powercap_event *events;
    int nevents;
    /* What was left out and why (a zone whose energy_uj cannot be read, is not a number
     * or has no range): the component's caveat; "" when nothing. */
    char note[POWERCAP_NOTE_LEN];
    /* Why a sum is not offered (no such zone, a member left out); "" when it is. */
    char sum_why[POWERCAP_NUM_KINDS][512];
};

/* The sum's event name after "ENERGY_UJ:" (PACKAGE ... TOTAL). */
const char *powercap_kind_name(enum powercap_kind kind);

/* The tree's directory, /sys/class/powercap under the file-access root (fsroot.h), into
 * dir: PAPI_OK, or PAPI_ECMP with why when the rooted path leaves no room for the
 * zones' file names (never the live tree in place of a recorded one). */
int powercap_dir(char *dir, size_t len, char *why, size_t why_len);

/* Find every zone and subzone under dir and their events. PAPI_OK with tree filled (free
 * with powercap_tree_free; zones whose energy cannot be read are left out, named in
 * tree->note), or a PAPI error code with why (for the disabled reason): PAPI_ECMP when
 * the tree or its zones are missing or no energy counter is left, PAPI_EPERM when no
 * energy_uj file can be read for want of permission (root-only since Linux 5.10). */
int powercap_discover(const char *dir, struct powercap_tree *tree, char *why, size_t why_len);
void powercap_tree_free(struct powercap_tree *tree);

/* One unsigned decimal value from a sysfs file already open (pread at offset 0, so the
 * kernel re-reads the attribute). 0, or -errno (-EINVAL when it is not a number).
 * Async-signal-safe. */
int powercap_read_fd(int fd, uint64_t *value);
/* The same for a path (opens and closes it). */
int powercap_read_path(const char *path, uint64_t *value);

/* Energy consumed from reading start to reading now of a counter that runs from 0 to
 * max_energy_uj inclusive and then wraps to 0 (at most one wrap in between). A counter
 * with no range (max_energy_uj 0: the zone has no readable max_energy_range_uj) that
 * went back cannot be unwrapped: the caller checks powercap_unwrappable first. */
static inline uint64_t powercap_energy_delta(uint64_t start, uint64_t now, uint64_t max_energy_uj)
{
    if (now >= start)
        return now - start;
    return (max_energy_uj - start) + 1 + now;
}

static inline int powercap_unwrappable(uint64_t start, uint64_t now, uint64_t max_energy_uj)
{
    return now < start && max_energy_uj == 0;
}

#endif
