/* probe_fails_shim.c: preloaded ahead of the wrapper by check_probe_fails.py. Every
 * PMPI_Improbe and PMPI_Mprobe fails with MPI_ERR_OTHER (the wrapper's sparse exchange
 * probes with them at MPI_Finalize; the pattern program probes with MPI_Probe only),
 * leaving poison in its status and message handle as a failing MPI may leave anything
 * there: a caller that reads them after the error reads a source far past any rank and a
 * handle that is none. At PMPI_Finalize each rank prints one line, "PROBE_FAILS rank R
 * failed N", N the probes it failed. Built per MPI: the prototypes are that MPI's own. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;

static void poison(MPI_Message *msg, MPI_Status *st)
{
    if (st && st != MPI_STATUS_IGNORE)
        memset(st, 0x7f, sizeof *st);
    if (msg)
        memset(msg, 0x7f, sizeof *msg);
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *msg, MPI_Status *st)
{
    (void)source, (void)tag, (void)comm;
    *flag = 0x7f;
    poison(msg, st);
    failed++;
    return MPI_ERR_OTHER;
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *st)
{
    (void)source, (void)tag, (void)comm;
    poison(msg, st);
    failed++;
    return MPI_ERR_OTHER;
}

int PMPI_Finalize(void)
{
    static int (*real)(void);
    int rank = -1;
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "PMPI_Finalize");
    if (!real) {
        fprintf(stderr, "probe_fails_shim: no PMPI_Finalize after this library\n");
        abort();
    }
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("PROBE_FAILS rank %d failed %d\n", rank, failed);
    fflush(stdout);
    return real();
}
