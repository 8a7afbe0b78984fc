/* sysfs_cpu_model.h: CPU models newer than libpfm4 (sysfs_cpu_model.c). */
#ifndef SYSFS_CPU_MODEL_H
#define SYSFS_CPU_MODEL_H

#include "papi_sdk.h"

/* The preset table name of the CPU whose core PMU(s) sysfs lists (read through the
 * file-access root: /proc/cpuinfo, /sys/bus/event_source/devices), for the models that
 * have a table written on the sysfs route ("amd64_fam1ah_zen5", "gnr", "emr", "mtl"), or
 * NULL. */
PAPI_INTERNAL const char *sysfs_cpu_model_table(void);

#endif
