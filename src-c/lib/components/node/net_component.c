/* net_component.c: the "net" component, PAPI's 16 counters per network interface from
 * /proc/net/dev (net:::eth0:rx:bytes ... net:::eth0:tx:compressed), counted from
 * PAPI_start. /proc/net/dev is the calling process's network namespace (the kernel's
 * link to /proc/self/net/dev); under PAPI_FSROOT the recorded tree's proc/net/dev is
 * read instead. The engine is node_events.c. */
#include <stdio.h>
#include <string.h>

#include "fsroot.h"
#include "node_events.h"

#define NET_FILE "/proc/net/dev"

/* The kernel's columns after "iface:", in order: PAPI's names. */
static const struct {
    const char *name, *units, *descr;
} net_columns[16] = {
    {"rx:bytes", "bytes", "received bytes"},
    {"rx:packets", "packets", "received packets"},
    {"rx:errors", "errors", "receive errors"},
    {"rx:dropped", "packets", "received packets dropped"},
    {"rx:fifo", "errors", "receive FIFO buffer errors"},
    {"rx:frame", "errors", "receive packet framing errors"},
    {"rx:compressed", "packets", "received compressed packets"},
    {"rx:multicast", "packets", "received multicast frames"},
    {"tx:bytes", "bytes", "transmitted bytes"},
    {"tx:packets", "packets", "transmitted packets"},
    {"tx:errors", "errors", "transmit errors"},
    {"tx:dropped", "packets", "transmitted packets dropped"},
    {"tx:fifo", "errors", "transmit FIFO buffer errors"},
    {"tx:colls", "events", "collisions detected on the interface"},
    {"tx:carrier", "errors", "carrier losses detected"},
    {"tx:compressed", "packets", "transmitted compressed packets"},
};

/* The interface named on line (before its ':') into name; 0, or -1 for a header line. */
static int interface_of(const char *line, char *name, size_t len)
{
    const char *colon = strchr(line, ':');
    if (!colon || strchr(line, '|'))
        return -1;
    line += strspn(line, " \t");
    size_t n = (size_t)(colon - line);
    if (n == 0 || n >= len)
        return -1;
    memcpy(name, line, n);
    name[n] = '\0';
    return strpbrk(name, " \t") ? -1 : 0;
}

static int add_interface(struct event_table *t, const char *ifname)
{
    for (int c = 0; c < 16; c++) {
        char name[128], descr[192];
        snprintf(name, sizeof name, "%s:%s", ifname, net_columns[c].name);
        snprintf(descr, sizeof descr, "%s %s", ifname, net_columns[c].descr);
        struct node_event ev = {.name = name,
                                .descr = descr,
                                .units = net_columns[c].units,
                                .path = NET_FILE,
                                .key = (char *)ifname,
                                .column = c,
                                .width = 64,
                                .scale = 1};
        int ret = node_table_add(t, &ev);
        if (ret != PAPI_OK)
            return ret;
    }
    return PAPI_OK;
}

/* Every interface line must carry its 16 numbers: a malformed file disables net with
 * the file and line rather than listing events that would not read. */
static int check_line(const char *line, int lineno, char *reason, size_t len)
{
    const char *p = strchr(line, ':') + 1;
    unsigned long long v;
    int used = 0, n = 0;
    while (n < 16 && sscanf(p, "%llu%n", &v, &used) == 1) {
        p += used;
        n++;
    }
    if (n == 16)
        return PAPI_OK;
    snprintf(reason, len, "%s%s line %d is malformed: %d numbers where the kernel prints 16",
             fsroot(), NET_FILE, lineno, n);
    return PAPI_ECMP;
}

static int net_line(struct event_table *t, const char *line, int lineno, void *arg, char *reason,
                    size_t len)
{
    (void)arg;
    char ifname[64];
    if (interface_of(line, ifname, sizeof ifname) != 0)
        return PAPI_OK;
    int ret = check_line(line, lineno, reason, len);
    return ret == PAPI_OK ? add_interface(t, ifname) : ret;
}

static int net_discover(struct event_table *t, char *reason, size_t len)
{
    return node_scan_lines(NET_FILE, "no /proc, or no network", t, net_line, NULL, reason, len);
}

static struct node_source net_source = {
    .common = {.prefix = "net:::",
               .description = "Linux network interface statistics (/proc/net/dev)"},
    .discover = net_discover,
    .none_found = NET_FILE " lists no network interface",
};

/* The instance the registry lists (components/registry.c). */
struct papi_component net_component PAPI_INTERNAL = NODE_COMPONENT("net", net_source);
