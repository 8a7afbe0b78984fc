/* bench_metrics: what a named metric costs (papi_metrics(3)). Nothing is added to
 * PAPI_read's path: a metric is evaluated where its counts are summed (a region's end in
 * the report, an MPI rank's row, a program's own PAPIM_evaluate). This prints ns per
 * PAPIM_evaluate of IPC and of MEM_BW-like sums against ns per PAPI_read of one software
 * event, both the median of short alternating rounds. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_timing.h"
#include "papi.h"
#include "papi_metrics.h"

#define ROUNDS 101
#define CALLS  1000

static double per_call_read(int es)
{
    long long v[1];
    long long t0 = now_ns();
    for (int i = 0; i < CALLS; i++)
        PAPI_read(es, v);
    return (double)(now_ns() - t0) / CALLS;
}

static double per_call_eval(const char *metric, int n, const char *const *names,
                            const long long *values)
{
    double r = 0;
    long long t0 = now_ns();
    for (int i = 0; i < CALLS; i++)
        if (PAPIM_evaluate(metric, n, names, values, 1.5, &r) != PAPI_OK) {
            fprintf(stderr, "bench_metrics: %s: %s\n", metric, PAPI_strerror_detail());
            exit(1);
        }
    return (double)(now_ns() - t0) / CALLS;
}

int main(void)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "bench_metrics: PAPI_library_init failed\n");
        return 1;
    }
    int es = PAPI_NULL;
    if (PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_add_named_event(es, "perf::TASK-CLOCK") != PAPI_OK || PAPI_start(es) != PAPI_OK) {
        fprintf(stderr, "bench_metrics: perf::TASK-CLOCK does not count here: %s\n",
                PAPI_strerror_detail());
        return 1;
    }
    static const char *const ipc[] = {"PAPI_TOT_INS", "PAPI_TOT_CYC"};
    static const long long ipc_v[] = {3000000, 1200000};
    static const char *const cu[] = {"perf::TASK-CLOCK"};
    static const long long cu_v[] = {1500000000};
    double read[ROUNDS], eipc[ROUNDS], ecu[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        read[r] = per_call_read(es);
        eipc[r] = per_call_eval("IPC", 2, ipc, ipc_v);
        ecu[r] = per_call_eval("CPU_UTILIZATION", 1, cu, cu_v);
    }
    double m_read = median(read, ROUNDS), m_ipc = median(eipc, ROUNDS), m_cu = median(ecu, ROUNDS);
    printf("PAPI_read (1 software event)      %8.1f ns\n", m_read);
    printf("PAPIM_evaluate IPC                %8.1f ns  (%.2fx the read)\n", m_ipc, m_ipc / m_read);
    printf("PAPIM_evaluate CPU_UTILIZATION    %8.1f ns  (%.2fx the read)\n", m_cu, m_cu / m_read);
    printf("median of %d rounds of %d calls; PAPI_read's own path is unchanged by metrics\n",
           ROUNDS, CALLS);
    return 0;
}
