/* mpi_waits.c: staged programs with known wait states (check_waits.py). Every rank
 * reads CLOCK_MONOTONIC just before the staged call (one clock for the ranks of one
 * node) and rank 0 prints "EXPECT <mode> <rank> <seconds>" lines: the wait each rank
 * must have by those times, which the checker compares with the report (and with the
 * nominal sleeps, which a loaded machine can only make longer).
 *   late_sender: rank 0 sleeps 200 ms, then MPI_Send to rank 1, which is in MPI_Recv;
 *     again with MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) + MPI_Wait(MPI_STATUS_IGNORE).
 *   late_receiver: rank 1 sleeps 200 ms, then receives rank 0's MPI_Ssend.
 *   late_receiver_issend: the same with MPI_Issend + MPI_Wait (a synchronous send, however
 *     small: rank 0 waits in the MPI_Wait).
 *   barrier: rank r sleeps r x 100 ms, then MPI_Barrier: rank r waits (P-1-r) x 100 ms.
 *   pop: rank 0 works (sleeps) 400 ms, the others 200 ms, in the region "work", then
 *     MPI_Barrier: load balance 0.75 on 2 ranks, for the run and the region (the work
 *     each rank measured, "pop_useful", and its barrier wait, "pop_barrier", printed:
 *     a loaded machine stretches them).
 *   collectives: rank r sleeps r x 100 ms before MPI_Allreduce (wait at N x N); root 0
 *     sleeps 200 ms before MPI_Bcast (late root); the others sleep 200 ms before
 *     MPI_Reduce to root 0 (early reduce).
 *   waitany: rank 1 posts two MPI_Irecv and completes them with MPI_Waitany; rank 0
 *     sends the first 200 ms late, the second at once.
 *   testany: rank 1 completes an MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) by polling
 *     MPI_Testany (status ignored), then two more by polling MPI_Testsome (statuses
 *     kept): every receive's sender is learned from the completing call, all 3 matched.
 *   persistent: MPI_Recv_init on rank 1, MPI_Send_init on rank 0, two rounds of
 *     MPI_Start + MPI_Wait; rank 0 starts the first round 200 ms late.
 *   split_barrier (4 ranks): MPI_Comm_split into the even and odd ranks; rank r sleeps
 *     r x 100 ms, then MPI_Barrier on its half: ranks 0 and 1 wait 200 ms, 2 and 3 none.
 *   intercomm (4 ranks): an intercommunicator between the even and the odd ranks; rank r
 *     sleeps r x 100 ms, then MPI_Barrier on it (every member waits for the last, rank
 *     3: 300, 200, 100, 0 ms); then root 0 sleeps 200 ms before MPI_Bcast on it: the
 *     odd ranks wait 200 ms for their root, rank 2 (MPI_PROC_NULL) for nothing.
 *   checkpoint_abort (4 ranks, PAPI_MPI_CHECKPOINT set): the late sender of rank 0 to rank
 *     1 and the split barrier, then 500 ms of checkpoints, then rank 3 calls abort() while the
 *     others wait in a barrier: the job dies with no report; the event logs keep the
 *     late sender (check_waits_log.py).
 *   checkpoint_kill (4 ranks, PAPI_MPI_CHECKPOINT set): the same, but rank 3 ends by SIGKILL
 *     (no exit path runs): its log is what its last checkpoint appended.
 *   polls, polls_kill (2 ranks, PAPI_MPI_CHECKPOINT set): rank 0 polls an MPI_Irecv with
 *     POLLS MPI_Test calls before rank 1 sends (after the barrier that follows), so none
 *     completes: the log folds them; then 300 ms of checkpoints; polls_kill: rank 1 ends
 *     by SIGKILL (the job dies with no report), polls: the job finishes.
 *   nxn_more (3 ranks): rank 1 sleeps 200 ms before each of MPI_Alltoall, MPI_Allgather and
 *     MPI_Iallreduce + MPI_Wait, each in its own MPI_Pcontrol region (the region's per-rank
 *     waits are that call's): ranks 0 and 2 wait at N x N for rank 1.
 *   pop_transfer (2 ranks, region "xfer"): rank 0 works 300 ms, then sends 256 MiB to rank
 *     1, waiting in MPI_Recv (late sender 300 ms, then the copy: transfer); rank 1 works
 *     300 ms, then sends 8 bytes to rank 0, waiting in MPI_Recv (late sender 300 ms).
 *     Serialisation 0.5, transfer efficiency 0.6 / (0.6 + copy): each rank writes what its
 *     clock measured (region span, work, transfer) into the file named by argument 2.
 *   vm (any ranks): rank 0 prints its peak virtual memory (kB) after MPI_Init, for a limit
 *     (ulimit -v) under which the event log's allocation fails and nothing else does.
 * A mode may end in ":MS": the late sender's sleep, or the barrier's step, in ms. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "test_workload.h"

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* With PAPI_MPI_TRACE=otf2, rank 3's checkpoint archive written after `since` (its last
 * MPI call), waited for up to 60 s: a loaded node writes it in more than the 500 ms of
 * checkpoints (killed before its first archive was whole, the rank left none). */
static void otf2_checkpoint_after(const struct timespec *since)
{
    const char *trace = getenv("PAPI_MPI_TRACE"), *dir = getenv("PAPI_MPI_OUTPUT_DIR");
    char path[4096];
    struct stat st;
    if (!trace || strcmp(trace, "otf2") != 0)
        return;
    snprintf(path, sizeof path, "%s/papi_mpi_trace.rank3.checkpoint/traces.otf2", dir ? dir : ".");
    for (int i = 0; i < 3000; i++, sleep_ms(20))
        if (stat(path, &st) == 0 &&
            (st.st_mtim.tv_sec > since->tv_sec ||
             (st.st_mtim.tv_sec == since->tv_sec && st.st_mtim.tv_nsec >= since->tv_nsec)))
            return;
}

/* Rank 0 prints what each rank's wait must be: until `until` (the moment the call
 * could complete: rank 0's choice) minus the rank's own enter time t. */
static void expect(const char *what, double t, int mine_waits, double until_mine)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double v[2] = {t, mine_waits ? until_mine : -1}, all[2 * 64];
    MPI_Gather(v, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 0; r < size && r < 64; r++)
            if (all[2 * r + 1] >= 0)
                printf("EXPECT %s %d %.6f\n", what, r,
                       all[2 * r + 1] > all[2 * r] ? all[2 * r + 1] - all[2 * r] : 0.0);
    fflush(stdout);
}

/* nxn_more: one late rank (1) at Alltoall, Allgather and Iallreduce + Wait, each call in
 * its own region; the others' waits are what each measured until rank 1 arrived. */
static void nxn_more(int rank, int size)
{
    int in[64], out[64], v = rank, w = 0;
    double t = 0, max = 0;
    const char *names[3] = {"alltoall", "allgather", "iallreduce"};
    for (int i = 0; i < 64; i++)
        in[i] = rank;
    for (int k = 0; k < 3; k++) {
        MPI_Pcontrol(1, names[k]);
        sleep_ms(rank == 1 ? 200 : 0);
        t = test_now();
        if (k == 0) {
            MPI_Alltoall(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD); /* ALLTOALL_LINE */
        } else if (k == 1) {
            MPI_Allgather(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD); /* ALLGATHER_LINE */
        } else {
            MPI_Request rq;
            MPI_Iallreduce(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq); /* IALLREDUCE_LINE */
            MPI_Wait(&rq, MPI_STATUS_IGNORE);                                 /* IALL_WAIT_LINE */
        }
        MPI_Pcontrol(-1, names[k]);
        /* rank 1's enter time (the latest), outside the regions */
        MPI_Allreduce(&t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        expect(names[k], t, 1, max);
    }
    (void)size;
}

/* pop_transfer: serialisation and transfer with known parts (see the top comment). */
static void pop_transfer(int rank, const char *file)
{
    enum { BIG = 32 * 1024 * 1024 }; /* doubles: 256 MiB */
    double *buf = malloc(BIG * sizeof *buf), s = 0, t0, t1, work = 0, xfer = 0;
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buf, 0, BIG * sizeof *buf); /* pages touched before the region: no fault in it */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(1, "xfer");
    t0 = test_now();
    if (rank == 0) {
        sleep_ms(300);
        buf[0] = test_now(); /* the send's start, which ends rank 1's late-sender wait */
        work = buf[0] - t0;
        MPI_Send(buf, BIG, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD); /* XFER_SEND_LINE */
        xfer = test_now() - buf[0]; /* posted by rank 1 long before: all of it transfer */
        MPI_Recv(&s, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(buf, BIG, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        xfer = test_now() - buf[0]; /* the part after rank 0 began its send */
        s = test_now();
        sleep_ms(300);
        work = test_now() - s;
        s = test_now();
        MPI_Send(&s, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    }
    t1 = test_now();
    MPI_Pcontrol(-1, "xfer");
    FILE *f = fopen(file, "a"); /* one line per rank, one write each */
    if (f) {
        fprintf(f, "EXPECT xfer_span %d %.6f\nEXPECT xfer_work %d %.6f\nEXPECT xfer_copy %d %.6f\n",
                rank, t1 - t0, rank, work, rank, xfer);
        fclose(f);
    }
    free(buf);
}

#define POLLS 500

static void polls(int rank, int kill_rank1)
{
    double v = 0;
    if (rank == 0) {
        MPI_Request rq;
        int done = 0, pending = 0;
        MPI_Irecv(&v, 1, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, &rq);
        for (int i = 0; i < POLLS; i++) {
            MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
            pending += !done;
        }
        printf("EXPECT polls_pending 0 %d\n", pending);
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1)
            MPI_Send(&v, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    }
    sleep_ms(300); /* checkpoints every 50 ms append the log */
    if (rank == 1 && kill_rank1)
        raise(SIGKILL);          /* no exit path: the last checkpoint is all that is left */
    MPI_Barrier(MPI_COMM_WORLD); /* polls_kill: never completes, the launcher ends the job */
}

int main(int argc, char **argv)
{
    int rank, size, v = 0, w = 0;
    double t[2] = {0, 0}, s[2] = {0, 0}, max = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char mode[64];
    snprintf(mode, sizeof mode, "%s", argc > 1 ? argv[1] : "late_sender");
    char *colon = strchr(mode, ':');
    int ms = colon ? atoi(colon + 1) : 0; /* "late_sender:300": the sleep chosen */
    if (colon)
        *colon = 0;
    const int late_ms = ms > 0 ? ms : 200, step_ms = ms > 0 ? ms : 100;
    /* the stages start together, whatever MPI_Init took (an Allreduce: the barrier
     * waits are the staged barrier's alone) */
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (strcmp(mode, "late_sender") == 0 && size >= 2) {
        if (rank == 0) {
            sleep_ms(late_ms);
            s[0] = test_now();
            MPI_Send(s, 1, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
            sleep_ms(late_ms);
            s[1] = test_now();
            MPI_Send(s + 1, 1, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Request rq;
            t[0] = test_now();
            MPI_Recv(s, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* RECV_LINE */
            MPI_Irecv(s + 1, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq);
            t[1] = test_now();
            MPI_Wait(&rq, MPI_STATUS_IGNORE); /* WAIT_LINE */
        }
        expect("late_sender_recv", t[0], rank == 1, s[0]);
        expect("late_sender_wait", t[1], rank == 1, s[1]);
    } else if (strcmp(mode, "waitany") == 0 && size >= 2) {
        if (rank == 0) {
            sleep_ms(200);
            s[0] = test_now();
            MPI_Send(s, 1, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
            MPI_Send(s + 1, 1, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Request rq[2];
            int idx = -1;
            MPI_Irecv(s, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(s + 1, 1, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, &rq[1]);
            t[0] = test_now();
            for (int k = 0; k < 2; k++)
                MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE); /* WAITANY_LINE */
        }
        expect("waitany", t[0], rank == 1, s[0]);
    } else if (strcmp(mode, "testany") == 0 && size >= 2) {
        if (rank == 0) {
            sleep_ms(100);
            for (int k = 0; k < 3; k++)
                MPI_Send(&v, 1, MPI_INT, 1, 5 + k, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Request rq[2];
            MPI_Status st[2];
            int got[3], idx = -1, flag = 0, out = 0, ix[2];
            MPI_Irecv(got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[0]);
            while (!flag)
                MPI_Testany(1, rq, &idx, &flag, MPI_STATUS_IGNORE);
            MPI_Irecv(got + 1, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(got + 2, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[1]);
            for (int done = 0; done < 2;) {
                MPI_Testsome(2, rq, &out, ix, st);
                done += out == MPI_UNDEFINED ? 2 : out;
            }
        }
    } else if (strcmp(mode, "persistent") == 0 && size >= 2) {
        MPI_Request rq = MPI_REQUEST_NULL;
        if (rank == 0)
            MPI_Send_init(s, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, &rq);
        else if (rank == 1)
            MPI_Recv_init(s, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, &rq);
        for (int round = 0; round < 2 && rank < 2; round++) {
            if (rank == 0 && round == 0) {
                sleep_ms(200);
                s[0] = test_now();
            }
            if (rank == 1 && round == 0)
                t[0] = test_now();
            MPI_Start(&rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE); /* PERSIST_WAIT_LINE */
        }
        if (rank < 2)
            MPI_Request_free(&rq);
        MPI_Bcast(s, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        expect("persistent", t[0], rank == 1, s[0]);
    } else if (strcmp(mode, "split_barrier") == 0) {
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        /* the split's own waits apart (an N x N wait: the barrier waits are the half's) */
        MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        sleep_ms(rank * 100);
        t[0] = test_now();
        MPI_Barrier(half); /* SPLIT_BARRIER_LINE */
        MPI_Allreduce(t, &max, 1, MPI_DOUBLE, MPI_MAX, half);
        expect("split_barrier", t[0], 1, max);
        MPI_Comm_free(&half);
    } else if (strcmp(mode, "intercomm") == 0 && size >= 4) {
        MPI_Comm half, inter;
        int even = rank % 2 == 0;
        MPI_Comm_split(MPI_COMM_WORLD, !even, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, even ? 1 : 0, 7, &inter);
        MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        sleep_ms(rank * 100);
        t[0] = test_now();
        MPI_Barrier(inter); /* INTER_BARRIER_LINE */
        MPI_Allreduce(t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        expect("inter_barrier", t[0], 1, max);
        MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            sleep_ms(200);
        t[1] = test_now();
        /* the root passes MPI_ROOT, its group's other member MPI_PROC_NULL, the other
         * group the root's rank in the root's group */
        int root = even ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        MPI_Bcast(&w, 1, MPI_INT, root, inter); /* INTER_BCAST_LINE */
        /* the root's enter time, by an N x N call: rank 2, back at once, waits there */
        s[0] = rank == 0 ? t[1] : 0;
        MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        expect("inter_bcast", t[1], !even, s[0]);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    } else if ((strcmp(mode, "checkpoint_abort") == 0 || strcmp(mode, "checkpoint_kill") == 0) &&
               size >= 4) {
        if (rank == 0) {
            sleep_ms(200);
            s[0] = test_now();
            MPI_Send(s, 1, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
        } else if (rank == 1) {
            t[0] = test_now();
            MPI_Recv(s, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        expect("late_sender_recv", t[0], rank == 1, s[0]);
        MPI_Comm half; /* and the split barrier's waits, as in split_barrier */
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        sleep_ms(rank * 100);
        t[0] = test_now();
        MPI_Barrier(half);
        MPI_Allreduce(t, &max, 1, MPI_DOUBLE, MPI_MAX, half);
        expect("split_barrier", t[0], 1, max);
        struct timespec quiet; /* no MPI call of this rank from here on */
        clock_gettime(CLOCK_REALTIME, &quiet);
        sleep_ms(500); /* checkpoints every 50 ms append the log */
        if (rank == 3 && strcmp(mode, "checkpoint_kill") == 0) {
            otf2_checkpoint_after(&quiet);
            raise(SIGKILL); /* no exit path: the last checkpoint is all that is left */
        }
        if (rank == 3)
            abort();
        MPI_Barrier(MPI_COMM_WORLD); /* never completes: the launcher ends the job */
    } else if ((strcmp(mode, "polls") == 0 || strcmp(mode, "polls_kill") == 0) && size >= 2) {
        polls(rank, strcmp(mode, "polls_kill") == 0);
    } else if (strcmp(mode, "nxn_more") == 0 && size >= 3) {
        nxn_more(rank, size);
    } else if (strcmp(mode, "pop_transfer") == 0 && size == 2 && argc > 2) {
        pop_transfer(rank, argv[2]);
    } else if (strcmp(mode, "vm") == 0 && rank == 0) {
        char line[256];
        FILE *f = fopen("/proc/self/status", "r");
        while (f && fgets(line, sizeof line, f))
            if (strncmp(line, "VmPeak:", 7) == 0)
                printf("EXPECT vm_peak_kb 0 %ld\n", atol(line + 7));
        if (f)
            fclose(f);
    } else if (strcmp(mode, "late_receiver") == 0 && size >= 2) {
        if (rank == 0) {
            t[0] = test_now();
            MPI_Ssend(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD); /* SSEND_LINE */
        } else if (rank == 1) {
            sleep_ms(200);
            s[0] = test_now();
            MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Bcast(s, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
        expect("late_receiver", t[0], rank == 0, s[0]);
    } else if (strcmp(mode, "late_receiver_issend") == 0 && size >= 2) {
        if (rank == 0) {
            MPI_Request req;
            t[0] = test_now();
            MPI_Issend(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE); /* ISSEND_WAIT_LINE */
        } else if (rank == 1) {
            sleep_ms(200);
            s[0] = test_now();
            MPI_Recv(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Bcast(s, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
        expect("late_receiver", t[0], rank == 0, s[0]);
    } else if (strcmp(mode, "barrier") == 0) {
        sleep_ms(rank * step_ms);
        t[0] = test_now();
        MPI_Barrier(MPI_COMM_WORLD); /* BARRIER_LINE */
        MPI_Allreduce(t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        expect("barrier", t[0], 1, max);
    } else if (strcmp(mode, "pop") == 0) {
        MPI_Pcontrol(1, "work");
        s[0] = test_now();
        sleep_ms(rank == 0 ? 400 : 200);
        t[0] = test_now();
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Pcontrol(-1, "work");
        MPI_Allreduce(t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        expect("pop_useful", s[0], 1, t[0]);
        expect("pop_barrier", t[0], 1, max);
    } else if (strcmp(mode, "collectives") == 0) {
        sleep_ms(rank * 100);
        t[0] = test_now();
        MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* ALLREDUCE_LINE */
        MPI_Allreduce(t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        expect("nxn", t[0], 1, max);
        sleep_ms(rank == 0 ? 200 : 0);
        t[0] = test_now();
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD); /* BCAST_LINE */
        max = t[0];
        MPI_Bcast(&max, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        expect("late_root", t[0], rank != 0, max);
        sleep_ms(rank == 0 ? 0 : 200);
        t[0] = test_now();
        MPI_Reduce(&v, &w, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD); /* REDUCE_LINE */
        MPI_Allreduce(t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        expect("early_reduce", t[0], rank == 0, max);
    }
    MPI_Finalize();
    return 0;
}
