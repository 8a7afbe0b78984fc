/* profil_cycles (arm64 PMU lane): PAPI_profil on CPU_CYCLES over the program text
 * (PAPI_get_executable_info) puts more than 90% of the samples in the buckets of the
 * known loop. */
#include <stdint.h>

#include "pmu_hw.h"

int main(void)
{
    init_or_die();
    pmu_require_hw();
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    CHECK(exe != NULL, "no executable info");
    if (!exe)
        return test_done("profil_cycles");
    uintptr_t start = (uintptr_t)exe->address_info.text_start;
    uintptr_t end = (uintptr_t)exe->address_info.text_end;
    uintptr_t loop = (uintptr_t)&pmu_loop;
    CHECK(start <= loop && loop < end, "pmu_loop %#lx outside text %#lx-%#lx",
          (unsigned long)loop, (unsigned long)start, (unsigned long)end);
    unsigned bufsiz = (unsigned)(end - start);
    unsigned short *buf = calloc(1, bufsiz);
    const char *names[] = {"CPU_CYCLES"};
    int es = pmu_set_of(names, 1), code;
    CHECK_RET(PAPI_event_name_to_code("CPU_CYCLES", &code), PAPI_OK);
    CHECK_RET(PAPI_profil(buf, bufsiz, (vptr_t)start, 0x10000, es, code, 1000000,
                          PAPI_PROFIL_POSIX), PAPI_OK);
    long long cyc;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(5000000);
    CHECK_RET(PAPI_stop(es, &cyc), PAPI_OK);
    CHECK_RET(PAPI_profil(buf, bufsiz, (vptr_t)start, 0x10000, es, code, 0, 0), PAPI_OK);
    /* The loop is two instructions after the entry; allow the whole small function. */
    size_t lo = (loop - start) / 2, hi = (loop + 32 - start) / 2;
    unsigned long long in = 0, all = 0;
    for (size_t i = 0; i < bufsiz / 2; i++) {
        all += buf[i];
        if (i >= lo && i < hi)
            in += buf[i];
    }
    printf("profil_cycles: %lld cycles, %llu samples in the text, %llu in the loop (%.1f%%)\n", cyc,
           all, in, all ? 100.0 * (double)in / (double)all : 0.0);
    CHECK(all > 0, "no samples");
    CHECK(in * 10 > all * 9, "only %llu of %llu samples in the loop", in, all);
    free(buf);
    pmu_free_set(&es);
    return test_done("profil_cycles");
}
