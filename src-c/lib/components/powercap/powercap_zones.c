/* powercap_zones.c: discovery of the powercap zones and their events, and reading one
 * sysfs value (powercap_zones.h). */
#include "fsroot.h"
#include "powercap_zones.h"
#include "str_append.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "papi.h"

/* The sysfs file, PAPI 7's event name, the unit, what it is, and whether subzones have
 * it too (PAPI 7 lists the B constraint for zones only). */
static const struct {
    const char *file, *event, *units, *what;
    int zones_only;
} attrs[POWERCAP_NUM_ATTRS] = {
    [POWERCAP_ENERGY_UJ] = {"energy_uj", "ENERGY_UJ", "uJ", "energy consumed", 0},
    [POWERCAP_MAX_ENERGY_RANGE_UJ] = {"max_energy_range_uj", "MAX_ENERGY_RANGE_UJ", "uJ",
                                      "energy counter range (wraps after it)", 0},
    [POWERCAP_MAX_POWER_A_UW] = {"constraint_0_max_power_uw", "MAX_POWER_A_UW", "uW",
                                 "constraint A maximum power", 0},
    [POWERCAP_POWER_LIMIT_A_UW] = {"constraint_0_power_limit_uw", "POWER_LIMIT_A_UW", "uW",
                                   "constraint A power limit", 0},
    [POWERCAP_TIME_WINDOW_A_US] = {"constraint_0_time_window_us", "TIME_WINDOW_A_US", "us",
                                   "constraint A time window", 0},
    [POWERCAP_MAX_POWER_B_UW] = {"constraint_1_max_power_uw", "MAX_POWER_B_UW", "uW",
                                 "constraint B maximum power", 1},
    [POWERCAP_POWER_LIMIT_B_UW] = {"constraint_1_power_limit_uw", "POWER_LIMIT_B_UW", "uW",
                                   "constraint B power limit", 1},
    /* PAPI 7 spells this one without the unit */
    [POWERCAP_TIME_WINDOW_B_US] = {"constraint_1_time_window_us", "TIME_WINDOW_B", "us",
                                   "constraint B time window", 1},
    [POWERCAP_ENABLED] = {"enabled", "ENABLED", "", "limits enabled: 1, or 0", 0},
};

/* The longest file name a zone adds to the tree's path ("/intel-rapl:999:999/" and
 * constraint_1_time_window_us), so every event's path fits in its 512 bytes. */
#define POWERCAP_ZONE_FILE_MAX 64

int powercap_dir(char *dir, size_t len, char *why, size_t why_len)
{
    size_t room = sizeof((struct powercap_event *)0)->path - POWERCAP_ZONE_FILE_MAX;
    if (len < room)
        room = len;
    if (fsroot_path(POWERCAP_DEFAULT_DIR, dir, room) != 0) {
        snprintf(why, why_len,
                 "the powercap tree of the recorded machine (PAPI_FSROOT=%.200s%s) "
                 "is a path longer than %zu bytes: refused (this machine's own tree is no "
                 "substitute)",
                 fsroot(), strlen(fsroot()) > 200 ? "..." : "", room - 1);
        return PAPI_ECMP;
    }
    return PAPI_OK;
}

int powercap_read_fd(int fd, uint64_t *value)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n < 0)
        return -errno;
    uint64_t v = 0;
    ssize_t i = 0;
    for (; i < n && buf[i] >= '0' && buf[i] <= '9'; i++) {
        unsigned d = (unsigned)(buf[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -ERANGE;
        v = v * 10 + d;
    }
    if (i == 0 || (i < n && buf[i] != '\n'))
        return -EINVAL;
    *value = v;
    return 0;
}

int powercap_read_path(const char *path, uint64_t *value)
{
    int fd = fsroot_open_file(path, O_RDONLY); /* a recorded tree's FIFO is refused */
    if (fd < 0)
        return -errno;
    int r = powercap_read_fd(fd, value);
    close(fd);
    return r;
}

/* "intel-rapl:N" (subzone -1) or "intel-rapl:N:M"; 0 when the name is neither. */
static int parse_zone_name(const char *name, int *zone, int *subzone)
{
    unsigned z, s;
    int end = 0;
    if (sscanf(name, "intel-rapl:%u:%u%n", &z, &s, &end) == 2 && name[end] == '\0' && z < 1000 &&
        s < 1000) {
        *zone = (int)z, *subzone = (int)s;
        return 1;
    }
    end = 0;
    if (sscanf(name, "intel-rapl:%u%n", &z, &end) == 1 && name[end] == '\0' && z < 1000) {
        *zone = (int)z, *subzone = -1;
        return 1;
    }
    return 0;
}

struct zone_dir {
    int zone, subzone;
};

static int zone_order(const void *a, const void *b)
{
    const struct zone_dir *x = a, *y = b;
    if (x->zone != y->zone)
        return x->zone < y->zone ? -1 : 1;
    return (x->subzone > y->subzone) - (x->subzone < y->subzone); /* the zone (-1) first */
}

/* The zones under dir, sorted (a zone before its subzones). -errno of opendir on error. */
static int list_zones(const char *dir, struct zone_dir **out, int *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return -errno;
    struct zone_dir *list = NULL;
    int count = 0, cap = 0, r = 0;
    for (struct dirent *e; (e = readdir(d));) {
        struct zone_dir z;
        if (!parse_zone_name(e->d_name, &z.zone, &z.subzone))
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 16;
            struct zone_dir *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                r = -ENOMEM;
                break;
            }
            list = grown;
        }
        list[count++] = z;
    }
    closedir(d);
    if (r < 0) {
        free(list);
        return r;
    }
    if (count)
        qsort(list, (size_t)count, sizeof *list, zone_order);
    *out = list;
    *n = count;
    return 0;
}

static void zone_path(char *out, size_t len, const char *dir, const struct zone_dir *z,
                      const char *file)
{
    if (z->subzone < 0)
        snprintf(out, len, "%s/intel-rapl:%d/%s", dir, z->zone, file);
    else
        snprintf(out, len, "%s/intel-rapl:%d:%d/%s", dir, z->zone, z->subzone, file);
}

/* The zone's own name ("package-0", "dram"), without its newline; "" when unreadable. */
static void zone_label(const char *dir, const struct zone_dir *z, char *out, size_t len)
{
    char path[512];
    zone_path(path, sizeof path, dir, z, "name");
    out[0] = '\0';
    FILE *f = fsroot_fopen_file(path);
    if (!f)
        return;
    if (fgets(out, (int)len, f))
        out[strcspn(out, "\n")] = '\0';
    fclose(f);
}

static int append_event(struct powercap_tree *t, int *cap, const struct powercap_event *ev)
{
    if (t->nevents == *cap) {
        int ncap = *cap ? 2 * *cap : 32;
        struct powercap_event *grown = realloc(t->events, (size_t)ncap * sizeof *grown);
        if (!grown)
            return -ENOMEM;
        t->events = grown;
        *cap = ncap;
    }
    t->events[t->nevents++] = *ev;
    return 0;
}

/* What discovery met on the way: the zones whose energy counter was left out. */
struct discovery {
    int energy_ok, left_out, denied; /* counters kept; left out; of those, for permission */
    char top_why[512];               /* a top-level zone left out (TOTAL without psys) */
};

static const char *const kind_names[POWERCAP_NUM_KINDS] = {
    [POWERCAP_KIND_PACKAGE] = "PACKAGE", [POWERCAP_KIND_CORE] = "CORE",
    [POWERCAP_KIND_UNCORE] = "UNCORE",   [POWERCAP_KIND_DRAM] = "DRAM",
    [POWERCAP_KIND_PSYS] = "PSYS",       [POWERCAP_KIND_TOTAL] = "TOTAL"};

const char *powercap_kind_name(enum powercap_kind kind)
{
    return kind >= 0 && kind < POWERCAP_NUM_KINDS ? kind_names[kind] : "OTHER";
}

/* The kind a zone's name file gives it (the kernel's names: package-N, core, uncore,
 * dram, psys). */
static enum powercap_kind kind_of(const char *own, int subzone)
{
    if (subzone < 0 && strncmp(own, "package-", 8) == 0)
        return POWERCAP_KIND_PACKAGE;
    if (strcmp(own, "psys") == 0)
        return POWERCAP_KIND_PSYS;
    if (strcmp(own, "dram") == 0)
        return POWERCAP_KIND_DRAM;
    if (subzone >= 0 && strcmp(own, "core") == 0)
        return POWERCAP_KIND_CORE;
    if (subzone >= 0 && strcmp(own, "uncore") == 0)
        return POWERCAP_KIND_UNCORE;
    return POWERCAP_KIND_OTHER;
}

/* A zone's energy counter left out: the caveat, and the sums it belonged to. */
static void left_out(struct powercap_tree *t, struct discovery *ds, const char *where,
                     const char *label, enum powercap_kind kind, int top, const char *why)
{
    char line[1024] = "";
    str_appendf(line, sizeof line, "%s (%s) left out: %s", where, *label ? label : "no name", why);
    str_appendf(t->note, sizeof t->note, "%s%s", t->note[0] ? "; " : "", line);
    if (kind < POWERCAP_NUM_KINDS && !t->sum_why[kind][0])
        str_appendf(t->sum_why[kind], sizeof t->sum_why[kind], "%s", line);
    if (top && !ds->top_why[0])
        str_appendf(ds->top_why, sizeof ds->top_why, "%s", line);
    ds->left_out++;
}

/* The events of one zone directory (a zone whose energy_uj cannot be read keeps its
 * settings; its counter is left out with the reason). PAPI_OK, or PAPI_ENOMEM. */
static int zone_events(const char *dir, const struct zone_dir *z, struct powercap_tree *t, int *cap,
                       struct discovery *ds)
{
    char label[130], own[64], parent[64] = "", where[32], zdir[32];
    zone_label(dir, z, own, sizeof own);
    enum powercap_kind kind = kind_of(own, z->subzone);
    int package = -1;
    if (z->subzone >= 0) /* "package-1 dram": which package's subzone */
        zone_label(dir, &(struct zone_dir){z->zone, -1}, parent, sizeof parent);
    snprintf(label, sizeof label, "%s%s%s", parent, *parent && *own ? " " : "", own);
    if (sscanf(z->subzone < 0 ? own : parent, "package-%d", &package) != 1 || package < 0)
        package = -1;
    if (z->subzone < 0) {
        snprintf(where, sizeof where, "ZONE%d", z->zone);
        snprintf(zdir, sizeof zdir, "intel-rapl:%d", z->zone);
    } else {
        snprintf(where, sizeof where, "ZONE%d_SUBZONE%d", z->zone, z->subzone);
        snprintf(zdir, sizeof zdir, "intel-rapl:%d:%d", z->zone, z->subzone);
    }
    uint64_t max_energy = 0;
    for (int a = 0; a < POWERCAP_NUM_ATTRS; a++) {
        if (attrs[a].zones_only && z->subzone >= 0)
            continue;
        struct powercap_event ev;
        memset(&ev, 0, sizeof ev);
        zone_path(ev.path, sizeof ev.path, dir, z, attrs[a].file);
        if (access(ev.path, F_OK) != 0) {
            if (a == POWERCAP_ENERGY_UJ)
                left_out(t, ds, zdir, label, kind, z->subzone < 0, "it has no energy_uj");
            continue;
        }
        uint64_t v;
        int r = powercap_read_path(ev.path, &v);
        if (a == POWERCAP_MAX_ENERGY_RANGE_UJ && r == 0)
            max_energy = v;
        if (a != POWERCAP_ENERGY_UJ && r != 0)
            continue; /* a setting we cannot read is not offered */
        if (r != 0) {
            char why[1024] = "";
            int perm = r == -EACCES || r == -EPERM;
            str_appendf(why, sizeof why, "%s is not readable: %s%s", ev.path,
                        r == -EINVAL ? "not a number" : strerror(-r),
                        perm ? " (energy_uj is readable by root only since Linux 5.10)" : "");
            left_out(t, ds, zdir, label, kind, z->subzone < 0, why);
            ds->denied += perm;
            continue;
        }
        ds->energy_ok += a == POWERCAP_ENERGY_UJ;
        ev.attr = (enum powercap_attr)a;
        ev.kind = kind;
        ev.package = package;
        ev.zone = z->zone;
        ev.subzone = z->subzone;
        snprintf(ev.name, sizeof ev.name, "%s:%s", attrs[a].event, where);
        snprintf(ev.units, sizeof ev.units, "%s", attrs[a].units);
        snprintf(ev.description, sizeof ev.description, "%s %s%s%s", *label ? label : where,
                 attrs[a].what, *ev.units ? ", " : "", ev.units);
        if (append_event(t, cap, &ev) != 0)
            return PAPI_ENOMEM;
    }
    /* the range comes after energy_uj in the table: give it to this zone's counter */
    for (int i = t->nevents - 1;
         i >= 0 && t->events[i].zone == z->zone && t->events[i].subzone == z->subzone; i--)
        if (t->events[i].attr == POWERCAP_ENERGY_UJ)
            t->events[i].max_energy_uj = max_energy;
    return PAPI_OK;
}

/* An energy counter without a range counts on, but a wrap cannot be undone: said in
 * the component's note (a read that sees it go back fails with the reason). */
static void note_unranged(struct powercap_tree *t)
{
    for (int i = 0; i < t->nevents; i++) {
        const struct powercap_event *ev = &t->events[i];
        if (ev->attr != POWERCAP_ENERGY_UJ || ev->max_energy_uj > 0)
            continue;
        str_appendf(t->note, sizeof t->note,
                    "%s%s has no readable max_energy_range_uj: it counts, but a wrap cannot be "
                    "undone (a read that sees it go back fails)",
                    t->note[0] ? "; " : "", ev->path);
    }
}

/* The zones' energy events of kind (or, for TOTAL, the top-level ones) into sum. */
static void collect(const struct powercap_tree *t, enum powercap_kind kind, int top, int pkg,
                    struct powercap_event *sum, int *too_many)
{
    for (int i = 0; i < t->nevents; i++) {
        const struct powercap_event *ev = &t->events[i];
        if (ev->attr != POWERCAP_ENERGY_UJ || ev->nmembers ||
            (top ? ev->subzone >= 0 : ev->kind != kind) || (pkg >= 0 && ev->package != pkg))
            continue;
        if (sum->nmembers == POWERCAP_MAX_MEMBERS) {
            *too_many = 1;
            return;
        }
        sum->member[sum->nmembers++] = i;
    }
}

/* Each package's sums (powercap_zones.h), for the kinds whose node-wide sum is whole. */
static int add_package_sums(struct powercap_tree *t, int *cap, int zones, int has_psys)
{
    for (int z = 0; z < zones; z++) {
        const struct powercap_event *pz = &t->events[z];
        if (pz->attr != POWERCAP_ENERGY_UJ || pz->kind != POWERCAP_KIND_PACKAGE || pz->package < 0)
            continue;
        for (int k = 0; k < POWERCAP_NUM_KINDS; k++) {
            int too_many = 0, top = k == POWERCAP_KIND_TOTAL;
            if (k == POWERCAP_KIND_PSYS || t->sum_why[k][0] || (top && has_psys))
                continue;
            struct powercap_event sum;
            memset(&sum, 0, sizeof sum);
            collect(t, (enum powercap_kind)k, top, pz->package, &sum, &too_many);
            if (too_many || sum.nmembers == 0)
                continue;
            sum.attr = POWERCAP_ENERGY_UJ;
            sum.kind = (enum powercap_kind)k;
            sum.package = pz->package;
            sum.zone = sum.subzone = -1;
            snprintf(sum.name, sizeof sum.name, "ENERGY_UJ:%s:PKG%d", kind_names[k], pz->package);
            snprintf(sum.units, sizeof sum.units, "uJ");
            snprintf(sum.path, sizeof sum.path, "%s", t->events[sum.member[0]].path);
            snprintf(sum.description, sizeof sum.description,
                     "energy of package-%d's %s zones, summed over %d zone%s, uJ", pz->package,
                     top ? "top-level" : kind_names[k], sum.nmembers, sum.nmembers == 1 ? "" : "s");
            if (append_event(t, cap, &sum) != 0)
                return PAPI_ENOMEM;
        }
    }
    return PAPI_OK;
}

/* One sum per kind (powercap_zones.h), after the zones' events; a sum that cannot be
 * whole is not offered and says why in t->sum_why. PAPI_OK or PAPI_ENOMEM. */
static int add_sums(struct powercap_tree *t, int *cap, const struct discovery *ds)
{
    static const char *const what[POWERCAP_NUM_KINDS] = {
        [POWERCAP_KIND_PACKAGE] = "package",      [POWERCAP_KIND_CORE] = "core",
        [POWERCAP_KIND_UNCORE] = "uncore",        [POWERCAP_KIND_DRAM] = "dram",
        [POWERCAP_KIND_PSYS] = "psys (platform)", [POWERCAP_KIND_TOTAL] = "top-level"};
    int zones = t->nevents, has_psys = t->sum_why[POWERCAP_KIND_PSYS][0] != '\0';
    for (int i = 0; i < zones; i++)
        has_psys |=
            t->events[i].attr == POWERCAP_ENERGY_UJ && t->events[i].kind == POWERCAP_KIND_PSYS;
    for (int k = 0; k < POWERCAP_NUM_KINDS; k++) {
        char *why = t->sum_why[k];
        int top = k == POWERCAP_KIND_TOTAL && !has_psys, too_many = 0;
        enum powercap_kind kind = k == POWERCAP_KIND_TOTAL ? POWERCAP_KIND_PSYS : k;
        if (k == POWERCAP_KIND_TOTAL)
            str_appendf(why, sizeof t->sum_why[k], "%s",
                        has_psys ? t->sum_why[POWERCAP_KIND_PSYS] : ds->top_why);
        if (why[0])
            continue; /* a member left out: never a partial sum */
        struct powercap_event sum;
        memset(&sum, 0, sizeof sum);
        collect(t, kind, top, -1, &sum, &too_many);
        if (too_many) {
            snprintf(why, sizeof t->sum_why[k], "more than %d zones to sum", POWERCAP_MAX_MEMBERS);
            continue;
        }
        if (sum.nmembers == 0) {
            snprintf(why, sizeof t->sum_why[k], "this machine's powercap tree has no %s zone",
                     what[k]);
            continue;
        }
        sum.attr = POWERCAP_ENERGY_UJ;
        sum.kind = (enum powercap_kind)k;
        sum.zone = sum.subzone = -1;
        snprintf(sum.name, sizeof sum.name, "ENERGY_UJ:%s", kind_names[k]);
        snprintf(sum.units, sizeof sum.units, "uJ");
        snprintf(sum.path, sizeof sum.path, "%s", t->events[sum.member[0]].path);
        snprintf(sum.description, sizeof sum.description,
                 "energy of the %s zones%s, summed over %d zone%s, uJ", what[k],
                 k == POWERCAP_KIND_TOTAL ? " (psys alone where there is one)" : "", sum.nmembers,
                 sum.nmembers == 1 ? "" : "s");
        if (append_event(t, cap, &sum) != 0)
            return PAPI_ENOMEM;
    }
    return add_package_sums(t, cap, zones, has_psys);
}

int powercap_discover(const char *dir, struct powercap_tree *tree, char *why, size_t why_len)
{
    memset(tree, 0, sizeof *tree);
    struct zone_dir *zones = NULL;
    int nzones = 0, cap = 0;
    int r = list_zones(dir, &zones, &nzones);
    if (r < 0) {
        snprintf(why, why_len,
                 "no powercap tree: %s: %s (kernel without the powercap/"
                 "intel_rapl drivers, or a virtual machine)",
                 dir, strerror(-r));
        return r == -EACCES ? PAPI_EPERM : PAPI_ECMP;
    }
    if (nzones == 0) {
        snprintf(why, why_len, "no intel-rapl zones under %s", dir);
        free(zones);
        return PAPI_ECMP;
    }
    struct discovery ds;
    memset(&ds, 0, sizeof ds);
    int rc = PAPI_OK;
    for (int i = 0; i < nzones && rc == PAPI_OK; i++)
        rc = zone_events(dir, &zones[i], tree, &cap, &ds);
    free(zones);
    if (rc == PAPI_OK) {
        note_unranged(tree);
        if (ds.energy_ok == 0) {
            why[0] = '\0';
            str_appendf(why, why_len, "no readable energy counter under %s%s%s", dir,
                        tree->note[0] ? ": " : "", tree->note);
            rc = ds.denied == ds.left_out && ds.denied ? PAPI_EPERM : PAPI_ECMP;
        } else {
            rc = add_sums(tree, &cap, &ds);
        }
    }
    if (rc == PAPI_ENOMEM)
        snprintf(why, why_len, "out of memory listing the powercap events");
    if (rc != PAPI_OK)
        powercap_tree_free(tree);
    return rc;
}

void powercap_tree_free(struct powercap_tree *tree)
{
    free(tree->events);
    memset(tree, 0, sizeof *tree);
}
