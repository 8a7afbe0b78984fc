/* replay_fault_shim.c: preloaded ahead of the wrapper by check_mpi_root_causes.py --part
 * conservation. The first message of the root-cause replay (its tag, 17, on the
 * wrapper's communicator) that a rank receives has its first flow's waiting time lost
 * (PAPI_TEST_REPLAY_FAULT=lose: set to 0) or counted twice (double), as a replay with a
 * bug would: the conservation check must then fail. The message's layout is
 * cause_replay.c's (a 32-byte head with nact at byte 8 and nflow at 12, nact 16-byte
 * activities, then 24-byte flows, each's ns at byte 16). At PMPI_Finalize each rank
 * prints "REPLAY_FAULT rank R applied N". Built per MPI: the prototypes are that MPI's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_REPLAY = 17 };
static int probed_replay, applied;

static void *next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "replay_fault_shim: no %s after this library\n", name);
        abort();
    }
    return f;
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *msg, MPI_Status *st)
{
    static int (*real)(int, int, MPI_Comm, int *, MPI_Message *, MPI_Status *);
    if (!real)
        *(void **)&real = next("PMPI_Improbe");
    int rc = real(source, tag, comm, flag, msg, st);
    probed_replay = rc == MPI_SUCCESS && *flag && tag == TAG_REPLAY;
    return rc;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Status *st)
{
    static int (*real)(void *, int, MPI_Datatype, MPI_Message *, MPI_Status *);
    if (!real)
        *(void **)&real = next("PMPI_Mrecv");
    int rc = real(buf, count, type, msg, st);
    const char *how = getenv("PAPI_TEST_REPLAY_FAULT");
    int32_t nact, nflow;
    if (rc != MPI_SUCCESS || !probed_replay || applied || !how || count < 32)
        return rc;
    probed_replay = 0;
    memcpy(&nact, (char *)buf + 8, sizeof nact);
    memcpy(&nflow, (char *)buf + 12, sizeof nflow);
    size_t at = 32 + (size_t)nact * 16 + 16;
    if (nflow < 1 || at + sizeof(double) > (size_t)count)
        return rc;
    double ns;
    memcpy(&ns, (char *)buf + at, sizeof ns);
    ns = strcmp(how, "double") == 0 ? 2 * ns : 0;
    memcpy((char *)buf + at, &ns, sizeof ns);
    applied++;
    return rc;
}

int PMPI_Finalize(void)
{
    static int (*real)(void);
    int rank = -1;
    if (!real)
        *(void **)&real = next("PMPI_Finalize");
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("REPLAY_FAULT rank %d applied %d\n", rank, applied);
    fflush(stdout);
    return real();
}
