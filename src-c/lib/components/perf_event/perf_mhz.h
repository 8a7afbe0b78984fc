/* perf_mhz.h: the CPU clock from a cycles counter (perf_mhz.c). */
#ifndef PERF_MHZ_H
#define PERF_MHZ_H

__attribute__((visibility("hidden"))) int perf_measure_mhz(void);

#endif
