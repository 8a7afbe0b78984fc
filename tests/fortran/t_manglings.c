/* t_manglings: the PAPIF_* entry points in all four manglings (papif_x_, papif_x,
 * papif_x__, PAPIF_X) as a Fortran compiler calls them: everything by reference, the
 * CHARACTER length hidden after the other arguments, blank padded. Each mangling of
 * PAPIF_read reads exactly N page faults. (check_manglings.py checks that every routine
 * has all four.) */
#include "papi_test.h"

#define N 300

void PAPIF_LIBRARY_INIT(int *check);
void papif_create_eventset(int *es, int *check);
void papif_event_name_to_code__(const char *name, int *code, int *check, size_t len);
void papif_add_event_(const int *es, const int *code, int *check);
void PAPIF_START(const int *es, int *check);
void papif_reset(const int *es, int *check);
void papif_stop__(const int *es, long long *values, int *check);
void papif_read_(const int *es, long long *values, int *check);
void papif_read(const int *es, long long *values, int *check);
void papif_read__(const int *es, long long *values, int *check);
void PAPIF_READ(const int *es, long long *values, int *check);
void PAPIF_EVENT_CODE_TO_NAME(const int *code, char *name, int *check, size_t len);

int main(void)
{
    void (*const reads[4])(const int *, long long *, int *) = {papif_read_, papif_read,
                                                              papif_read__, PAPIF_READ};
    int check = PAPI_VER_CURRENT, es = PAPI_NULL, code = 0;
    long long v[1] = {0};
    PAPIF_LIBRARY_INIT(&check);
    CHECK_EQ_LL(check, PAPI_VER_CURRENT);
    papif_create_eventset(&es, &check);
    CHECK_EQ_LL(check, PAPI_OK);
    const char name[] = "perf::PAGE-FAULTS       "; /* a CHARACTER(len=24), no NUL used */
    papif_event_name_to_code__(name, &code, &check, sizeof name - 1);
    CHECK_EQ_LL(check, PAPI_OK);
    papif_add_event_(&es, &code, &check);
    if (check == PAPI_EPERM || check == PAPI_ECMP || check == PAPI_ESYS)
        test_skip(PAPI_strerror(check));
    CHECK_EQ_LL(check, PAPI_OK);

    char out[8];
    PAPIF_EVENT_CODE_TO_NAME(&code, out, &check, sizeof out);
    CHECK(check == PAPI_OK && !memcmp(out, "perf::PA", 8), "code_to_name into len 8");

    warm_up();
    PAPIF_START(&es, &check);
    CHECK_EQ_LL(check, PAPI_OK);
    for (int round = 0; round < 2; round++) {
        for (int m = 0; m < 4; m++) {
            papif_reset(&es, &check);
            touch_pages(N);
            reads[m](&es, v, &check);
            CHECK_EQ_LL(check, PAPI_OK);
            if (round == 1)
                CHECK(v[0] == N, "mangling %d reads %lld, want %d", m, v[0], N);
        }
    }
    papif_stop__(&es, v, &check);
    CHECK_EQ_LL(check, PAPI_OK);
    return test_done("t_manglings");
}
