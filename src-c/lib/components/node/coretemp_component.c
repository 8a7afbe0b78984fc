/* coretemp_component.c: the "coretemp" component, the hardware monitoring sensors of
 * /sys/class/hwmon (Documentation/hwmon/sysfs-interface.rst): temperatures, fans,
 * voltages and power, named as PAPI names them (coretemp:::hwmon0:temp1_input), in the
 * kernel's units (millidegrees Celsius, RPM, millivolts, microwatts), with the sensor's
 * label and chip in the description. The values are instantaneous: PAPI_read gives the
 * value now. Sensors under hwmonN/device/ (older drivers) are listed too. The engine is
 * node_events.c. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "fsroot.h"
#include "node_events.h"

#define HWMON_DIR "/sys/class/hwmon"

/* The sensor kinds: file prefix, value file suffix, unit, what it is. */
static const struct {
    const char *prefix, *suffix, *units, *what;
} kinds[] = {
    {"temp", "_input", "millidegrees C", "temperature"},
    {"fan", "_input", "RPM", "fan speed"},
    {"in", "_input", "mV", "voltage"},
    {"power", "_input", "uW", "power"},
    {"power", "_average", "uW", "average power"},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

/* The kind of file "temp1_input" (prefix, digits, suffix), or -1. */
static int kind_of(const char *file)
{
    for (int k = 0; k < NKINDS; k++) {
        size_t p = strlen(kinds[k].prefix), d;
        if (strncmp(file, kinds[k].prefix, p) != 0)
            continue;
        d = strspn(file + p, "0123456789");
        if (d > 0 && strcmp(file + p + d, kinds[k].suffix) == 0)
            return k;
    }
    return -1;
}

static int add_sensor(struct event_table *t, const char *hwmon, const char *dir, const char *file,
                      int k)
{
    char path[1024], label[256] = "", chip[128] = "?", name[512], descr[1024];
    size_t stem = strlen(file) - strlen(kinds[k].suffix);
    snprintf(path, sizeof path, "%s/%.*s_label", dir, (int)stem, file);
    if (fsroot_read_line(path, label, sizeof label) != 0)
        snprintf(label, sizeof label, "%.*s", (int)stem, file);
    snprintf(path, sizeof path, HWMON_DIR "/%s/name", hwmon);
    fsroot_read_line(path, chip, sizeof chip);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    long long v;
    if (fsroot_scan(path, "%lld", &v) != 0)
        return PAPI_OK; /* a sensor that reads nothing now (a fault): not listed */
    snprintf(name, sizeof name, "%s:%s", hwmon, file);
    snprintf(descr, sizeof descr, "%s %s, %s (%s)", label, kinds[k].what, chip, kinds[k].units);
    struct node_event ev = {.name = name,
                            .descr = descr,
                            .units = kinds[k].units,
                            .path = path,
                            .width = 64,
                            .instant = 1,
                            .scale = 1};
    return node_table_add(t, &ev);
}

/* The sensors of dir (hwmonN or hwmonN/device). */
static int add_dir(struct event_table *t, const char *hwmon, const char *dir)
{
    struct dirent **list;
    int n = node_list_dir(dir, &list), ret = PAPI_OK;
    for (int i = 0; i < n && ret == PAPI_OK; i++) {
        int k = kind_of(list[i]->d_name);
        if (k >= 0)
            ret = add_sensor(t, hwmon, dir, list[i]->d_name, k);
    }
    if (n >= 0)
        node_free_list(list, n);
    return ret;
}

static int coretemp_discover(struct event_table *t, char *reason, size_t len)
{
    struct dirent **list;
    int n = node_list_dir(HWMON_DIR, &list), ret = PAPI_OK;
    if (n < 0) {
        snprintf(reason, len, "%s%s: %m: no hardware monitoring sensors (no hwmon driver)",
                 fsroot(), HWMON_DIR);
        return PAPI_ECMP;
    }
    for (int i = 0; i < n && ret == PAPI_OK; i++) {
        char dir[512];
        snprintf(dir, sizeof dir, HWMON_DIR "/%s", list[i]->d_name);
        ret = add_dir(t, list[i]->d_name, dir);
        snprintf(dir, sizeof dir, HWMON_DIR "/%s/device", list[i]->d_name);
        if (ret == PAPI_OK)
            ret = add_dir(t, list[i]->d_name, dir);
    }
    node_free_list(list, n);
    return ret;
}

static struct node_source coretemp_source = {
    .common = {.prefix = "coretemp:::",
               .description =
                   "Linux hwmon sensors (/sys/class/hwmon): temperatures, fans, voltages, power"},
    .discover = coretemp_discover,
    .none_found = HWMON_DIR " lists no temperature, fan, voltage or power sensor",
};

/* The instance the registry lists (components/registry.c). */
struct papi_component coretemp_component PAPI_INTERNAL =
    NODE_COMPONENT("coretemp", coretemp_source);
