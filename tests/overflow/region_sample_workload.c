/* PAPI_SAMPLE's workload (check_region_sample.py runs it): region "alpha" spends 0.45 s of
 * CPU in rs_work_a, then 0.1 s in rs_work_c runs outside every region, both in the main
 * thread; a second thread then spends 0.15 s in rs_work_b in region "beta" (3:1 with alpha).
 * The functions are static: named from the symbol table (libdw). */
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile double sink;
/* Volatile: no constant-propagated clone (rs_work_a.constprop.0) of the functions. */
static volatile double secs_a = 0.45, secs_b = 0.15, secs_c = 0.1;

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Mostly user time: an overflow while in the kernel is dropped for a user-domain event.
 * Each function its own constant: identical bodies would be folded into one (gcc's ICF). */
#define SPIN(seconds, k)                                    \
    do {                                                    \
        double end_ = cpu_seconds() + (seconds), x_ = sink; \
        while (cpu_seconds() < end_)                        \
            for (int i_ = 0; i_ < 100000; i_++)             \
                x_ = x_ * (k) + 1e-9;                       \
        sink = x_;                                          \
    } while (0)

__attribute__((noinline)) static void rs_work_a(double s)
{
    SPIN(s, 1.0000001);
}

__attribute__((noinline)) static void rs_work_b(double s)
{
    SPIN(s, 1.0000002);
}

__attribute__((noinline)) static void rs_work_c(double s)
{
    SPIN(s, 1.0000003);
}

static int check(int ret, const char *what)
{
    if (ret != PAPI_OK)
        fprintf(stderr, "%s: %s\n", what, PAPI_strerror(ret));
    return ret != PAPI_OK;
}

static void *second_thread(void *arg)
{
    int *bad = arg;
    *bad |= check(PAPI_hl_region_begin("beta"), "begin beta");
    rs_work_b(secs_b);
    *bad |= check(PAPI_hl_region_end("beta"), "end beta");
    return NULL;
}

int main(void)
{
    int bad = 0, bad2 = 0;
    pthread_t th;
    bad |= check(PAPI_hl_region_begin("alpha"), "begin alpha");
    rs_work_a(secs_a);
    bad |= check(PAPI_hl_region_end("alpha"), "end alpha");
    rs_work_c(secs_c);
    if (pthread_create(&th, NULL, second_thread, &bad2) != 0 || pthread_join(th, NULL) != 0)
        return 1;
    return bad | bad2;
}
