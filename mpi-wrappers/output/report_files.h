/* report_files.h: the report's shared files, written by rank 0 from every rank's parts
 * (report_files.c). */
#ifndef PAPI_MPI_REPORT_FILES_H
#define PAPI_MPI_REPORT_FILES_H

#include <stddef.h>

#define PMPI_TMP_NAME   256
#define PMPI_MAX_SHARED 3

/* One shared file: rank 0's head, this rank's body (NULL: missing, e.g. it did not fit
 * its buffer), the separator put before every rank's body but rank 0's, and the tail
 * after the last rank's. */
struct pmpi_shared {
    const char *head; /* rank 0 only; NULL there: missing */
    size_t head_len;
    const char *body;
    size_t body_len;
    const char *sep, *tail;
    /* rank 0, when not NULL: the tail instead, made after every rank's record came and
     * handed to put(o, s, n) piece by piece as it is made (never held whole); 0, or -1
     * when it could not be made (said by it) */
    int (*late_tail)(void *arg, void (*put)(void *o, const char *s, size_t n), void *o);
    void *arg;
};

/* A record of fixed size every rank hands rank 0 in its stream beside its parts (the
 * wait report's part), for what rank 0 writes after the rows (a late tail). Rank 0
 * folds each as it comes (take): it keeps no record per rank. */
struct pmpi_shared_record {
    const void *mine; /* this rank's, size bytes; NULL: it has none */
    size_t size;
    /* rank 0, when not NULL: called once per rank, in rank order, with its record (NULL:
     * it sent none, or one of another size) */
    void (*take)(void *arg, int rank, const void *record);
    void *arg;
};

/* The handles of the pull's settings in an agreement round (finalize_agreement.h):
 * rank 0's directory, window and piece, and that the round ran. */
struct pmpi_pull_agreed {
    int slot[4];
};
/* On every rank before the wait states' agreement round (pmpi_waits_compute): rank 0's
 * pull settings and whether it has a directory registered with it; the handles returned
 * go to pmpi_write_shared, which then needs no broadcast. */
struct pmpi_pull_agreed pmpi_report_files_prepare(void);
/* Collective: the n (at most PMPI_MAX_SHARED) files written by rank 0 under temporary
 * names (tmps, PMPI_TMP_NAME bytes each; "" when none was made), every rank's parts in
 * rank order, and every rank's record (rec, NULL: none) handed to rank 0's take, even
 * when rank 0 has no directory. Returns nonzero (on rank 0 for every failure, on another
 * rank for its own) when some part was not written whole: pmpi_publish_shared tells
 * every rank. agreed: pmpi_report_files_prepare's handles, their round run (NULL: a
 * round of its own). bytes: what this rank handed over, added. */
int pmpi_write_shared(const char *const *names, const struct pmpi_shared *f, int n,
                      const struct pmpi_shared_record *rec, const struct pmpi_pull_agreed *agreed,
                      long long *bytes, char (*tmps)[PMPI_TMP_NAME]);
/* Collective: the n temporaries published under their names by rank 0, all or (bad on
 * some rank, or one rename failed) none. Returns nonzero on every rank when nothing was
 * published. */
int pmpi_publish_shared(const char *const *names, char (*tmps)[PMPI_TMP_NAME], int n, int bad);

#endif
