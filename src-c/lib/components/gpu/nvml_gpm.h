/* nvml_gpm.h: the nvml component's GPM events (nvml_gpm.c): NVML's GPU Performance
 * Monitoring metrics of a device (SM activity and occupancy, tensor/FP64/FP32/FP16 pipe
 * activity, DRAM bandwidth, PCIe and NVLink traffic), each computed by nvmlGpmMetricsGet
 * from two GPM samples of the device: one taken where the counting interval begins
 * (PAPI_start, PAPI_reset), one at PAPI_read or PAPI_stop. They are averages over that
 * interval, not counters (slot engine's instants: PAPI_read gives the average since the
 * start, PAPI_stop freezes it, PAPI_accum's sum telescopes to the latest average); each
 * has a counter form beside it (<name>_ns, <name>_bytes: the average times the
 * interval), which adds up over regions and ranks. */
#ifndef PAPI_NVML_GPM_H
#define PAPI_NVML_GPM_H

#include <stddef.h>

#include "gpu_events.h"
#include "nvml_api.h"

/* NVML's GPM calls in handle (and nvmlDeviceGetMigMode), looked up apart from the
 * component's other symbols: 1 when every GPM call is there, else 0 with the reason
 * that GPM events are absent in why[len]. devs: the component's device handles. */
PAPI_INTERNAL int nvml_gpm_load(void *handle, nvmlDevice_t *devs, char *why, size_t len);
/* Device i's GPM events into t (named "<dname>:device_<i>:gpm_..."), where it supports
 * GPM, is not in MIG mode and gives a sample; else nothing, with the reason appended to
 * note[len] ("; device 1 (NAME): ..."). PAPI_OK or PAPI_ENOMEM. */
PAPI_INTERNAL int nvml_gpm_add_device(struct event_table *t, int i, const char *dname, char *note,
                                      size_t len);
/* The GPM calls forgotten (at release). */
PAPI_INTERNAL void nvml_gpm_unload(void);

/* A GPM event's reading (gpu_events.h's interval), its reason and its PAPI code. */
extern const struct gpu_interval nvml_gpm_interval PAPI_INTERNAL;
PAPI_INTERNAL void nvml_gpm_explain(const struct gpu_event *e, int err, char *buf, size_t len);
PAPI_INTERNAL int nvml_gpm_papi_code(int err);

#endif
