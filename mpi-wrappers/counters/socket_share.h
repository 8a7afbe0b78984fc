/* socket_share.h: one reader per socket for the counters a socket shares (memory
 * controllers: uncore_imc, amd_df, arm_cmn): which rank of a node reads them, and how many
 * ranks the figure is attributed to. The choice is a pure function of the ranks'
 * packages (pmpi_socket_share), tested with made-up packages (test_socket_share). */
#ifndef PMPI_SOCKET_SHARE_H
#define PMPI_SOCKET_SHARE_H

#include <stddef.h>

struct pmpi_socket_share {
    int reader;    /* node-local index of the rank that reads the socket's counters */
    int shared_by; /* ranks of the node on the same package (this one included) */
    int is_reader; /* 1: this rank opens the socket's events */
    int package;   /* this rank's package, -1 when unknown (bound across packages) */
};

/* pkg[i]: the package of node-local rank i (-1: unknown; the unknown ones are one group).
 * me: this rank's index. The lowest index of each package reads for it. */
void pmpi_socket_share(const int *pkg, int n, int me, struct pmpi_socket_share *out);

/* 1 when event name (PMU::event) counts for a whole socket, not a thread: an uncore
 * memory-controller or fabric PMU, or a powercap energy sum (powercap:::ENERGY_UJ:TOTAL,
 * :PACKAGE, :CORE, :UNCORE, :DRAM; a psys sum covers the platform: the reader of an
 * unknown package reads the node's). */
int pmpi_socket_wide_event(const char *name);

/* 1 when event name counts a device of the node that every rank of the node reads, not
 * the rank: a GPU (nvml, rocm_smi, amdgpu) or a powercap zone. Each rank's row has the
 * device's figure; the job's totals take it once per node (pmpi_device_in_job). */
int pmpi_node_device_event(const char *name);

#define PMPI_ENERGY_PREFIX "powercap:::ENERGY_UJ:"
/* The name the reader of package opens for socket-wide event name: a powercap energy
 * sum is narrowed to that package's zones (ENERGY_UJ:TOTAL:PKG1), so each socket's
 * energy is read once, by its reader, never the whole node's by every socket's reader. */
void pmpi_socket_event_name(const char *name, int package, char *out, size_t len);

/* This process's package: the one every CPU of its affinity mask is on (sysfs
 * topology), or -1 (several, or unreadable). */
int pmpi_own_package(void);

#endif
