/* infiniband_component.c: the "infiniband" component, the port counters the kernel's
 * InfiniBand drivers export in /sys/class/infiniband/<hca>/ports/<port>/counters (the
 * PortCounters, 32 bits) and hw_counters (the driver's 64-bit counters), for the ports
 * that are ACTIVE, named as PAPI names them: infiniband:::mlx5_0_1:symbol_error (32-bit)
 * and infiniband:::mlx5_0_1_ext:port_xmit_data (64-bit). port_xmit_data, port_rcv_data
 * and port_rcv_packets of counters/ are 64-bit in today's kernels (PortCountersExtended)
 * and are named _ext as PAPI does. The data counters count 4-byte words, as the kernel
 * gives them (multiply by 4 for bytes). A 32-bit counter that wraps once between start
 * and read still counts right (../slot_engine.c). The engine is node_events.c. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsroot.h"
#include "node_events.h"

#define IB_DIR "/sys/class/infiniband"

/* The three counters of counters/ that PAPI knows to be 64-bit. */
static int is_wide(const char *counter)
{
    return strcmp(counter, "port_xmit_data") == 0 || strcmp(counter, "port_rcv_data") == 0 ||
           strcmp(counter, "port_rcv_packets") == 0;
}

static const char *units_of(const char *counter)
{
    if (strstr(counter, "_data"))
        return "4-byte words";
    return strstr(counter, "packets") ? "packets" : "events";
}

static int add_counter(struct event_table *t, const char *hca, int port, const char *dir,
                       const char *counter, int ext)
{
    char path[1024], name[512], descr[1024];
    snprintf(path, sizeof path, IB_DIR "/%s/ports/%d/%s/%s", hca, port, dir, counter);
    unsigned long long v;
    if (fsroot_scan(path, "%llu", &v) != 0)
        return PAPI_OK; /* not a counter (PAPI lists only files that hold a number) */
    int wide = ext || is_wide(counter);
    snprintf(name, sizeof name, "%s_%d%s:%s", hca, port, wide ? "_ext" : "", counter);
    snprintf(descr, sizeof descr, "%s port %d %s (%s/%s, %d-bit%s)", hca, port, counter, dir,
             counter, wide ? 64 : 32,
             strstr(counter, "_data") ? "; 4-byte words: multiply by 4 for bytes" : "");
    struct node_event ev = {.name = name,
                            .descr = descr,
                            .units = units_of(counter),
                            .path = path,
                            .column = 0,
                            .width = wide ? 64 : 32,
                            .scale = 1};
    return node_table_add(t, &ev);
}

static int add_port_dir(struct event_table *t, const char *hca, int port, const char *dir, int ext)
{
    char abs[1024];
    struct dirent **list;
    snprintf(abs, sizeof abs, IB_DIR "/%s/ports/%d/%s", hca, port, dir);
    int n = node_list_dir(abs, &list), ret = PAPI_OK;
    for (int i = 0; i < n && ret == PAPI_OK; i++)
        ret = add_counter(t, hca, port, dir, list[i]->d_name, ext);
    if (n >= 0)
        node_free_list(list, n);
    return ret;
}

/* The ports of hca whose state is "4: ACTIVE" (PAPI counts active ports only). */
static int add_hca(struct event_table *t, const char *hca, int *active)
{
    char abs[512], state[64];
    struct dirent **list;
    snprintf(abs, sizeof abs, IB_DIR "/%s/ports", hca);
    int n = node_list_dir(abs, &list), ret = PAPI_OK;
    for (int i = 0; i < n && ret == PAPI_OK; i++) {
        int port = atoi(list[i]->d_name);
        snprintf(abs, sizeof abs, IB_DIR "/%s/ports/%d/state", hca, port);
        if (port <= 0 || fsroot_read_line(abs, state, sizeof state) != 0 || atoi(state) != 4)
            continue;
        ++*active;
        ret = add_port_dir(t, hca, port, "hw_counters", 1);
        if (ret == PAPI_OK)
            ret = add_port_dir(t, hca, port, "counters", 0);
    }
    if (n >= 0)
        node_free_list(list, n);
    return ret;
}

static int ib_discover(struct event_table *t, char *reason, size_t len)
{
    struct dirent **list;
    int n = node_list_dir(IB_DIR, &list), active = 0, ret = PAPI_OK;
    if (n < 0) {
        snprintf(reason, len, "%s%s: %m: no InfiniBand device (no RDMA driver loaded)", fsroot(),
                 IB_DIR);
        return PAPI_ECMP;
    }
    for (int i = 0; i < n && ret == PAPI_OK; i++)
        ret = add_hca(t, list[i]->d_name, &active);
    node_free_list(list, n);
    if (ret == PAPI_OK && active == 0) {
        snprintf(reason, len, "%s%s: no port is ACTIVE (state 4)", fsroot(), IB_DIR);
        ret = PAPI_ECMP;
    }
    return ret;
}

static struct node_source ib_source = {
    .common = {.prefix = "infiniband:::",
               .description = "Linux InfiniBand port counters (/sys/class/infiniband)"},
    .discover = ib_discover,
};

/* The instance the registry lists (components/registry.c). */
struct papi_component infiniband_component PAPI_INTERNAL = NODE_COMPONENT("infiniband", ib_source);
