/* default_events.c: the events counted when the user names none (default_events.h). */
#include "default_events.h"

const char *const default_hardware_events[DEFAULT_HARDWARE_N] = {"PAPI_TOT_INS", "PAPI_TOT_CYC",
                                                                 "PAPI_FP_OPS"};
const char *const default_software_events[DEFAULT_SOFTWARE_N] = {"perf::TASK-CLOCK",
                                                                 "perf::PAGE-FAULTS"};
const char *const default_mpi_software_events[DEFAULT_SOFTWARE_N] = {"perf::PAGE-FAULTS",
                                                                     "perf::TASK-CLOCK"};
const char *const default_run_events[DEFAULT_RUN_N] = {"perf::TASK-CLOCK", "perf::PAGE-FAULTS",
                                                       "perf::CONTEXT-SWITCHES", "PAPI_TOT_CYC",
                                                       "PAPI_TOT_INS"};
