/* rocp_sdk_dispatch.h: which event set counts a kernel dispatch (rocp_sdk_dispatch.c). The
 * rocp_sdk component registers once per process as a rocprofiler-sdk tool with one context
 * whose dispatch counting service calls back on every kernel dispatch while a set counts:
 * on the thread that enqueues the kernel, the running set of that thread (if any) gives
 * the device's counter configuration; when the kernel's counts arrive, they are added to
 * that set's events whose counter, device and dimension instances they match. A dispatch
 * of a thread with no running set, or on a device its set does not count, is not counted. */
#ifndef PAPI_ROCP_SDK_DISPATCH_H
#define PAPI_ROCP_SDK_DISPATCH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "component.h"

#include "rocprofiler_sdk_api.h"

#define ROCP_MAX_DEVICES 16
#define ROCP_MAX_DIMS    8

/* One event of a set: what it counts, and what it has counted since it was added. */
struct rocp_counted {
    int device;
    uint64_t counter; /* the device's counter id */
    int ndims;        /* dimension instances chosen by qualifiers; the others summed */
    struct {
        rocprofiler_counter_dimension_id_t id;
        size_t pos;
    } dim[ROCP_MAX_DIMS];
    double total; /* written under the dispatch lock */
};

/* A running event set. */
struct rocp_run {
    uint64_t serial; /* set by rocp_dispatch_begin */
    pthread_t thread;
    rocprofiler_counter_config_id_t config[ROCP_MAX_DEVICES]; /* 0: the device not counted */
    struct rocp_counted **counted;
    int n;
    struct rocp_run *next;
};

/* Register the tool (rocprofiler_force_configure: once per process), its context and the
 * dispatch counting service: PAPI_OK, or PAPI_ECMP with one line in reason (another tool
 * configured the SDK first, the SDK refused the service ...). */
PAPI_INTERNAL int rocp_dispatch_configure(char *reason, size_t len);
/* The devices: agents[d] is device d's agent id. */
PAPI_INTERNAL void rocp_dispatch_agents(const rocprofiler_agent_id_t *agents, int n);
/* The device of an agent, or -1. */
PAPI_INTERNAL int rocp_dispatch_device_of(rocprofiler_agent_id_t agent);
/* A configuration counting the n counters on device; PAPI_OK or the error through
 * papi_error (PAPI_ECNFLCT where the hardware cannot count them together). */
PAPI_INTERNAL int rocp_dispatch_config(int device, const uint64_t *counters, int n,
                                       rocprofiler_counter_config_id_t *config);
PAPI_INTERNAL void rocp_dispatch_config_free(rocprofiler_counter_config_id_t *config);
/* Start counting run's dispatches on the calling thread: PAPI_OK, or PAPI_ECNFLCT when the
 * thread's other set counts (one configuration per dispatch) or another context holds the
 * service, through papi_error. */
PAPI_INTERNAL int rocp_dispatch_begin(struct rocp_run *run);
/* Stop counting run's dispatches (counts that arrive later are not added). */
PAPI_INTERNAL void rocp_dispatch_end(struct rocp_run *run);
/* The dispatch lock: held while reading the totals. */
PAPI_INTERNAL void rocp_dispatch_lock(void);
PAPI_INTERNAL void rocp_dispatch_unlock(void);

#endif
