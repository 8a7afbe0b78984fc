/* default_events.h: the events counted when the user names none, every list in one place
 * (default_events.c): the region API (PAPI_EVENTS unset), the MPI wrapper
 * (PAPI_MPI_EVENTS and PAPI_EVENTS unset) and papi_run (no -e). Each tool tries its
 * hardware list first and counts its software list where no hardware event counts; the
 * order of a list is the order of the report's columns. */
#ifndef PAPI_DEFAULT_EVENTS_H
#define PAPI_DEFAULT_EVENTS_H

#define DE_HIDDEN __attribute__((visibility("hidden")))

/* The hardware counts every tool starts from: instructions, cycles, FP operations. */
#define DEFAULT_HARDWARE_N 3
DE_HIDDEN extern const char *const default_hardware_events[DEFAULT_HARDWARE_N];
/* The region API counts its CPU time first, then the hardware counts. */
#define DEFAULT_CPU_TIME_EVENT "perf::TASK-CLOCK"
/* Where no hardware event counts: the CPU time and the page faults (the region API's
 * order; the MPI wrapper's report lists them the other way round). */
#define DEFAULT_SOFTWARE_N 2
DE_HIDDEN extern const char *const default_software_events[DEFAULT_SOFTWARE_N];
DE_HIDDEN extern const char *const default_mpi_software_events[DEFAULT_SOFTWARE_N];
/* papi_run: what the kernel counts for any program, then cycles and instructions. */
#define DEFAULT_RUN_N 5
DE_HIDDEN extern const char *const default_run_events[DEFAULT_RUN_N];

#endif
