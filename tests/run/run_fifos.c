/* run_fifos: puts a FIFO at every name papi_run hands over by (issue 69, N5): the
 * hand-over files of the per-thread rows (PAPI_RUN_THREADS_FILE), the OpenMP tables
 * (PAPI_RUN_OMPT_TABLE_FILE), the OpenMP and GPU traces (PAPI_RUN_OMPT_TRACE_FILE,
 * PAPI_RUN_GPU_TRACE_FILE) and a process's stacks block (.sample_RUNID_1.txt in
 * PAPI_RUN_SAMPLE_DIR, run_sample_stacks.h), those papi_run gave it; prints "fifo NAME" for each, runs an
 * OpenMP parallel region where built with OpenMP, exits 0. Before, papi_run (or the
 * program's own preloaded writer at its exit) waited for ever in an open of one. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void fifo(const char *path)
{
    unlink(path);
    if (mkfifo(path, 0600) == 0)
        printf("fifo %s\n", path);
    else
        perror(path);
}

int main(void)
{
    const char *names[] = {"PAPI_RUN_THREADS_FILE", "PAPI_RUN_OMPT_TABLE_FILE",
                           "PAPI_RUN_OMPT_TRACE_FILE", "PAPI_RUN_GPU_TRACE_FILE"};
    char path[4096];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (getenv(names[i]) && *getenv(names[i]))
            fifo(getenv(names[i]));
    const char *dir = getenv("PAPI_RUN_SAMPLE_DIR"), *id = getenv("PAPI_RUN_ID");
    if (dir && id) {
        snprintf(path, sizeof path, "%s/.sample_%s_1.txt", dir, id);
        fifo(path);
    }
    int threads = 0;
#pragma omp parallel reduction(+ : threads)
    threads++;
    printf("threads %d\n", threads);
    fflush(stdout);
    return 0;
}
