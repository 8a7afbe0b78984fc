/* mpi_banner_lines: rank 0's banner at MPI_Finalize comes out in whole lines while another
 * rank prints (check_banner_lines.py). Rank 0 calls MPI_Comm_rank from 200 call sites
 * (a banner of 200 site lines with PAPI_MPI_TOP=200, over 20 KB) and leaves a few lines
 * of its own in stdout's buffer; rank 1's thread prints short marker lines, each one
 * write, from before its MPI_Finalize until 300 ms after it, and then their count.
 * Rank 0 says on stderr what its stdout is (a pipe, a terminal). */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile int sink;

#define S1                                  \
    {                                       \
        int r_;                             \
        MPI_Comm_rank(MPI_COMM_WORLD, &r_); \
        sink += r_;                         \
    }
#define S10 S1 S1 S1 S1 S1 S1 S1 S1 S1 S1

static void sites(void)
{
    S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10
}

static atomic_int stop;
static int marks;

/* "MARK 1 <n> xxx...x": one write(2) each, so rank 1's own lines are whole. */
static void *marker(void *arg)
{
    (void)arg;
    char line[96];
    const struct timespec pause = {0, 200000}; /* 0.2 ms */
    while (!atomic_load(&stop)) {
        int n = snprintf(line, sizeof line, "MARK 1 %d %s\n", marks,
                         "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
        if (write(STDOUT_FILENO, line, (size_t)n) != n)
            break;
        marks++;
        nanosleep(&pause, NULL);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rank;
    pthread_t t;
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        struct stat st;
        fprintf(stderr, "banner_lines: rank 0's stdout is %s\n",
                fstat(STDOUT_FILENO, &st) != 0 ? "closed"
                : isatty(STDOUT_FILENO)        ? "a terminal"
                : S_ISFIFO(st.st_mode)         ? "a pipe"
                                               : "another file");
        sites();
        for (int i = 0; i < 3; i++) /* left in stdout's buffer: printed before the banner */
            printf("MARK 0 %d %s\n", i, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    } else if (rank == 1) {
        pthread_create(&t, NULL, marker, NULL);
    }
    MPI_Finalize();
    if (rank == 1) {
        const struct timespec after = {0, 300000000};
        nanosleep(&after, NULL);
        atomic_store(&stop, 1);
        pthread_join(t, NULL);
        printf("MARKS 1 %d\n", marks);
    }
    return 0;
}
