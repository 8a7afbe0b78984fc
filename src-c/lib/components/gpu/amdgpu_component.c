/* amdgpu_component.c: the "amdgpu" component, the files the kernel's amdgpu driver keeps
 * for each AMD GPU, read directly (no ROCm needed): under /sys/class/drm/cardN/device/
 * (cards whose vendor is 0x1002) gpu_busy_percent and mem_busy_percent (%),
 * mem_info_vram_used and mem_info_vram_total (bytes), and in its hwmon directory
 * power1_average and power1_input (uW), tempN_input (millidegrees C; the label, edge,
 * junction or mem, in the description) and freqN_input (Hz; sclk, mclk). Named
 * amdgpu:::cardN:<file>; the values are the device's now. The binary gpu_metrics file
 * (activity, power, energy, clocks, temperatures) is decoded by its revision
 * (amdgpu_metrics.c): amdgpu:::cardN:gpu_metrics:<field>; a revision it does not know,
 * or a file cut short, is said on the component's caveat line. Every path goes through
 * fsroot.h, so PAPI_FSROOT replays a recorded tree (tests/machines/amdgpu_node). A file
 * that vanishes while counting (the GPU was removed, the driver unloaded) fails the
 * event set's read with the file and the reason. The engine is gpu_events.c. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amdgpu_metrics.h"
#include "fsroot.h"
#include "gpu_events.h"

#define DRM_DIR "/sys/class/drm"

#define AMDGPU_MALFORMED (-1) /* the file holds no number */
/* gpu_metrics: its revisions' sizes are under 2 KiB; a larger file is read in part */
#define METRICS_MAX 4096

/* The device files: name, unit, what it is. */
static const struct {
    const char *file, *units, *what;
} device_files[] = {
    {"gpu_busy_percent", "%", "Percent of time the GPU was busy"},
    {"mem_busy_percent", "%", "Percent of time the GPU memory was busy"},
    {"mem_info_vram_used", "B", "VRAM in use, in bytes"},
    {"mem_info_vram_total", "B", "VRAM installed, in bytes"},
};

/* The hwmon kinds: prefix, suffix, unit, what. */
static const struct {
    const char *prefix, *suffix, *units, *what;
} hwmon_kinds[] = {
    {"power", "_average", "uW", "average power, in microwatts"},
    {"power", "_input", "uW", "power, in microwatts"},
    {"temp", "_input", "mC", "temperature, in millidegrees Celsius"},
    {"freq", "_input", "Hz", "clock, in Hz"},
};
#define NHWMON ((int)(sizeof hwmon_kinds / sizeof hwmon_kinds[0]))

/* The number in path now (async-signal-safe: open, pread, close): 0, an errno, or
 * AMDGPU_MALFORMED. */
static int read_number(const char *path, uint64_t *value)
{
    char buf[64];
    int saved = errno, fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
    ssize_t n = fd < 0 ? -1 : pread(fd, buf, sizeof buf - 1, 0);
    if (n < 0)
        err = errno;
    if (fd >= 0)
        close(fd);
    errno = saved;
    if (err)
        return err;
    int neg = n > 0 && buf[0] == '-', digits = 0;
    uint64_t v = 0;
    for (ssize_t i = neg; i < n && buf[i] >= '0' && buf[i] <= '9'; i++, digits++)
        v = v * 10 + (uint64_t)(buf[i] - '0');
    if (!digits)
        return AMDGPU_MALFORMED;
    *value = neg ? (uint64_t)0 - v : v;
    return 0;
}

/* The bytes of binary file path into buf (async-signal-safe): 0 or an errno. */
static int read_blob(const char *path, uint8_t *buf, size_t cap, size_t *got)
{
    int saved = errno, fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
    *got = 0;
    while (fd >= 0 && *got < cap) {
        ssize_t n = pread(fd, buf + *got, cap - *got, (off_t)*got);
        if (n <= 0) {
            err = n < 0 ? errno : 0;
            break;
        }
        *got += (size_t)n;
    }
    if (fd < 0)
        err = errno;
    else
        close(fd);
    errno = saved;
    return err;
}

/* A gpu_metrics event: kind is its field + 1, arg its layout (amdgpu_metrics.h). */
static int read_metric(const struct gpu_event *e, const char *path, uint64_t *value)
{
    uint8_t buf[METRICS_MAX];
    size_t got;
    int err = read_blob(path, buf, sizeof buf, &got);
    return err ? err : amdgpu_metrics_value(e->arg, e->kind - 1, buf, got, value);
}

static int amdgpu_read(const struct gpu_event *e, const char *path, uint64_t *value)
{
    return e->kind ? read_metric(e, path, value) : read_number(path, value);
}

/* Why gpu_metrics at path gives no value (err: amdgpu_metrics.h): the file read again. */
static void metrics_explain(const char *path, int err, char *buf, size_t len)
{
    uint8_t blob[METRICS_MAX];
    size_t got = 0;
    struct amdgpu_metrics_rev rev;
    read_blob(path, blob, sizeof blob, &got);
    amdgpu_metrics_header(blob, got, &rev);
    amdgpu_metrics_explain(err, &rev, got, buf, len);
}

static void amdgpu_explain(const struct gpu_event *e, int err, char *buf, size_t len)
{
    char path[4096], why[384];
    if (err <= AMDGPU_METRICS_SHORT && fsroot_path(e->path, path, sizeof path) == 0) {
        metrics_explain(path, err, why, sizeof why);
        snprintf(buf, len, "%s%s: %s", fsroot(), e->path, why);
    } else if (err == AMDGPU_MALFORMED) {
        snprintf(buf, len, "%s%s holds no number", fsroot(), e->path);
    } else {
        snprintf(buf, len, "cannot read %s%s: %s%s", fsroot(), e->path, strerror(err),
                 err == ENOENT || err == ENODEV ? " (the GPU was removed or amdgpu unloaded)" : "");
    }
}

/* Add the event of file abs when it reads a number now. */
static int add_file(struct event_table *t, const char *card, const char *abs, const char *file,
                    const char *units, const char *descr)
{
    char path[4096], name[512];
    uint64_t v;
    if (fsroot_path(abs, path, sizeof path) != 0 || read_number(path, &v) != 0)
        return PAPI_OK; /* absent on this GPU or kernel, or unreadable now: not listed */
    snprintf(name, sizeof name, "%s:%s", card, file);
    struct gpu_event ev = {
        .name = name, .descr = (char *)descr, .units = units, .path = (char *)abs, .instant = 1};
    return gpu_table_add(t, &ev);
}

static int hwmon_kind(const char *file)
{
    for (int k = 0; k < NHWMON; k++) {
        size_t p = strlen(hwmon_kinds[k].prefix), d;
        if (strncmp(file, hwmon_kinds[k].prefix, p) != 0)
            continue;
        d = strspn(file + p, "0123456789");
        if (d > 0 && strcmp(file + p + d, hwmon_kinds[k].suffix) == 0)
            return k;
    }
    return -1;
}

static int compare_names(const struct dirent **a, const struct dirent **b)
{
    return strverscmp((*a)->d_name, (*b)->d_name);
}

/* The sorted entries of abs under the root: their count, or -1. */
static int list_dir(const char *abs, struct dirent ***list)
{
    char path[4096];
    if (fsroot_path(abs, path, sizeof path) != 0)
        return -1;
    return scandir(path, list, NULL, compare_names);
}

static void free_list(struct dirent **list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

static int add_hwmon(struct event_table *t, const char *card, const char *dir)
{
    struct dirent **list;
    int n = list_dir(dir, &list), ret = PAPI_OK;
    for (int i = 0; i < n && ret == PAPI_OK; i++) {
        const char *f = list[i]->d_name;
        int k = hwmon_kind(f);
        if (k < 0)
            continue;
        char abs[4096], label[64] = "", descr[512];
        size_t stem = strlen(f) - strlen(hwmon_kinds[k].suffix);
        snprintf(abs, sizeof abs, "%s/%.*s_label", dir, (int)stem, f);
        fsroot_read_line(abs, label, sizeof label);
        snprintf(descr, sizeof descr, "%s%s%s (%s)", label, label[0] ? " " : "",
                 hwmon_kinds[k].what, card);
        snprintf(abs, sizeof abs, "%s/%s", dir, f);
        ret = add_file(t, card, abs, f, hwmon_kinds[k].units, descr);
    }
    if (n >= 0)
        free_list(list, n);
    return ret;
}

/* A caveat after the others in note. */
static void append(char *note, size_t len, const char *card, const char *words)
{
    size_t used = strlen(note);
    if (used < len)
        snprintf(note + used, len - used, "%s%s: %s", used ? "; " : "", card, words);
}

/* The fields of the card's gpu_metrics that it fills now; a revision this build does not
 * decode, or a file cut short, said in note (no events, the others listed). */
static int add_metrics(struct event_table *t, const char *card, char *note, size_t len)
{
    char abs[512], path[4096], name[512], descr[512], why[384];
    uint8_t buf[METRICS_MAX];
    size_t got;
    struct amdgpu_metrics_rev rev;
    snprintf(abs, sizeof abs, DRM_DIR "/%s/device/gpu_metrics", card);
    if (fsroot_path(abs, path, sizeof path) != 0 || read_blob(path, buf, sizeof buf, &got) != 0)
        return PAPI_OK; /* a kernel before 5.10, or not readable: no such events */
    int err = amdgpu_metrics_header(buf, got, &rev), ret = PAPI_OK;
    if (err) {
        amdgpu_metrics_explain(err, &rev, got, why, sizeof why);
        append(note, len, card, why);
        return PAPI_OK;
    }
    const struct amdgpu_metrics_field *f;
    for (int i = 0; ret == PAPI_OK && (f = amdgpu_metrics_field(rev.layout, i)); i++) {
        uint64_t v;
        if (amdgpu_metrics_value(rev.layout, i, buf, got, &v) != 0)
            continue; /* all ones: this GPU does not fill it */
        snprintf(name, sizeof name, "%s:gpu_metrics:%s", card, f->name);
        snprintf(descr, sizeof descr, "%s %s (gpu_metrics v%d.%d, %s)", f->name, f->what,
                 rev.format, rev.content, card);
        struct gpu_event ev = {.name = name,
                               .descr = descr,
                               .units = f->units,
                               .path = abs,
                               .kind = i + 1,
                               .arg = rev.layout,
                               .instant = !f->counter};
        ret = gpu_table_add(t, &ev);
    }
    return ret;
}

static int add_card(struct event_table *t, const char *card, char *note, size_t len)
{
    char abs[1024], descr[512];
    if (strlen(card) > 255)
        return PAPI_OK; /* no kernel names a card so */
    int ret = add_metrics(t, card, note, len);
    for (size_t i = 0; i < sizeof device_files / sizeof device_files[0] && ret == PAPI_OK; i++) {
        snprintf(abs, sizeof abs, DRM_DIR "/%s/device/%s", card, device_files[i].file);
        snprintf(descr, sizeof descr, "%s (%s)", device_files[i].what, card);
        ret = add_file(t, card, abs, device_files[i].file, device_files[i].units, descr);
    }
    struct dirent **list;
    snprintf(abs, sizeof abs, DRM_DIR "/%s/device/hwmon", card);
    int n = list_dir(abs, &list);
    for (int i = 0; i < n && ret == PAPI_OK; i++) {
        char dir[2048];
        if (strncmp(list[i]->d_name, "hwmon", 5) != 0)
            continue;
        snprintf(dir, sizeof dir, "%s/%s", abs, list[i]->d_name);
        ret = add_hwmon(t, card, dir);
    }
    if (n >= 0)
        free_list(list, n);
    return ret;
}

static int amdgpu_discover(struct gpu_source *src, char *reason, size_t len)
{
    struct dirent **list;
    char note[2048] = ""; /* the caveat: a line for every card's gpu_metrics */
    int n = list_dir(DRM_DIR, &list), ret = PAPI_OK, cards = 0;
    if (n < 0) {
        snprintf(reason, len, "no GPU: %s" DRM_DIR ": %s (no GPU driver loaded)", fsroot(),
                 strerror(errno));
        return PAPI_ECMP;
    }
    for (int i = 0; i < n && ret == PAPI_OK; i++) {
        const char *card = list[i]->d_name;
        char abs[512], vendor[32];
        if (strncmp(card, "card", 4) != 0 || strchr(card, '-'))
            continue; /* connectors (card0-DP-1), render nodes */
        snprintf(abs, sizeof abs, DRM_DIR "/%s/device/vendor", card);
        if (fsroot_read_line(abs, vendor, sizeof vendor) != 0 || strcmp(vendor, "0x1002") != 0)
            continue;
        cards++;
        ret = add_card(&src->common.table, card, note, sizeof note);
    }
    free_list(list, n);
    if (ret == PAPI_OK && cards == 0) {
        snprintf(reason, len, "no GPU: %s" DRM_DIR " lists no AMD GPU (vendor 0x1002)", fsroot());
        ret = PAPI_ECMP;
    } else if (ret == PAPI_OK && src->common.table.n == 0) {
        snprintf(reason, len,
                 "%s" DRM_DIR " lists %d AMD GPU(s) without amdgpu's files (gpu_busy_percent, "
                 "hwmon): another driver?",
                 fsroot(), cards);
        ret = PAPI_ECMP;
    } else if (ret == PAPI_OK) {
        snprintf(reason, len, "%s", note);
    }
    return ret;
}

static struct gpu_source amdgpu_source = {
    .common = {.prefix = "amdgpu:::",
               .description = "AMD GPUs through amdgpu's sysfs, hwmon and gpu_metrics files: "
                              "activity, power, energy, temperature, VRAM, clocks"},
    .discover = amdgpu_discover,
    .read = amdgpu_read,
    .explain = amdgpu_explain,
};

/* The instance the registry lists (components/registry.c). */
struct papi_component amdgpu_component PAPI_INTERNAL = GPU_COMPONENT("amdgpu", amdgpu_source);
