/* pmu_domains: PAPI_DOM_USER counts only user instructions (exact, repeatable);
 * PAPI_DOM_ALL (PAPI_set_opt PAPI_DOMAIN on a set, or PAPI_set_domain for new sets)
 * adds the kernel's instructions for the workload's system calls; PAPI_DOM_KERNEL
 * counts those alone. */
#include <sys/syscall.h>

#include "pmu_hw.h"

#define N 200000L
#define SYSCALLS 200

static void workload(void)
{
    pmu_loop(N);
    for (int i = 0; i < SYSCALLS; i++)
        syscall(SYS_getppid);
}

static long long measure(int es)
{
    long long v[1] = {0};
    CHECK_RET(PAPI_start(es), PAPI_OK);
    workload();
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    return v[0];
}

static int set_domain_of(int es, int domain)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.domain.eventset = es;
    opt.domain.domain = domain;
    return PAPI_set_opt(PAPI_DOMAIN, &opt);
}

static int domain_of(int es)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.domain.eventset = es;
    int r = PAPI_get_opt(PAPI_DOMAIN, &opt);
    return r < 0 ? r : opt.domain.domain;
}

int main(void)
{
    init_or_die();
    pmu_require_hw();
    const char *inst[] = {"INST_RETIRED"};
    int es = pmu_set_of(inst, 1);
    CHECK_EQ_LL(domain_of(es), PAPI_DOM_USER);
    measure(es); /* warm-up */
    long long u1 = measure(es), u2 = measure(es);
    CHECK_EQ_LL(u2, u1); /* user-only counts are exact */
    CHECK(u1 >= PMU_LOOP_INSNS * N, "user count %lld below the loop's %ld", u1, PMU_LOOP_INSNS * N);

    /* The same set switched to user+kernel (its events are reopened). */
    CHECK_RET(set_domain_of(es, PAPI_DOM_ALL), PAPI_OK);
    CHECK_EQ_LL(domain_of(es), PAPI_DOM_ALL);
    long long a = measure(es);

    CHECK_RET(set_domain_of(es, PAPI_DOM_KERNEL), PAPI_OK);
    CHECK_EQ_LL(domain_of(es), PAPI_DOM_KERNEL);
    long long k = measure(es);
    pmu_free_set(&es);

    /* Each getppid costs well over 20 kernel instructions. */
    CHECK(a >= u1 + 20LL * SYSCALLS, "user+kernel %lld not above user %lld + syscalls", a, u1);
    CHECK(k >= 20LL * SYSCALLS, "kernel-only count %lld too small", k);
    CHECK(k < a, "kernel-only %lld not below user+kernel %lld", k, a);
    /* user + kernel ~ all (kernel counts vary a little: timer ticks) */
    long long diff = a - (u1 + k);
    CHECK(diff < a / 20 && -diff < a / 20, "user %lld + kernel %lld far from all %lld", u1, k, a);

    /* The default domain for new sets. */
    CHECK_RET(PAPI_set_domain(PAPI_DOM_ALL), PAPI_OK);
    int es2 = pmu_set_of(inst, 1);
    CHECK_EQ_LL(domain_of(es2), PAPI_DOM_ALL);
    long long a2 = measure(es2);
    CHECK(a2 >= u1 + 20LL * SYSCALLS, "default PAPI_DOM_ALL set counted %lld, user %lld", a2, u1);
    pmu_free_set(&es2);
    CHECK_RET(PAPI_set_domain(PAPI_DOM_USER), PAPI_OK);
    int es3 = pmu_set_of(inst, 1);
    CHECK_EQ_LL(domain_of(es3), PAPI_DOM_USER);
    long long u3 = measure(es3);
    CHECK_EQ_LL(u3, u1);
    pmu_free_set(&es3);

    printf("pmu_domains: user=%lld kernel=%lld all=%lld (user+kernel-all=%lld) default-all=%lld "
           "user-again=%lld\n",
           u1, k, a, -diff, a2, u3);
    return test_done("pmu_domains");
}
