/* fortran_test_support.c: what the Fortran tests need from C, callable without an
 * interface (lower-case name with a trailing underscore, arguments by reference). The
 * expected values come from the C API, so the Fortran side is compared with C. */
#include <string.h>
#include <unistd.h>

#include "papi_test.h"

void papif_test_touch_pages_(const int *n);
void papif_test_touch_pages_(const int *n)
{
    touch_pages(*n);
}

void papif_test_warm_up_(void);
void papif_test_warm_up_(void)
{
    warm_up();
}

/* Exit 77 with the reason when counting is refused (no perf_event access). */
void papif_test_skip_if_refused_(const int *code);
void papif_test_skip_if_refused_(const int *code)
{
    if (*code == PAPI_EPERM || *code == PAPI_ECMP || *code == PAPI_ESYS || *code == PAPI_ENOCMP)
        test_skip(PAPI_strerror(*code));
}

void papif_test_page_size_(long long *size);
void papif_test_page_size_(long long *size)
{
    *size = sysconf(_SC_PAGESIZE);
}

/* The C name of an event code, blank padded into a Fortran string (expected value). */
void papif_test_c_code_to_name_(const int *code, char *out, int *ret, size_t len);
void papif_test_c_code_to_name_(const int *code, char *out, int *ret, size_t len)
{
    char name[PAPI_MAX_STR_LEN] = "";
    *ret = PAPI_event_code_to_name(*code, name);
    size_t n = strnlen(name, len);
    memcpy(out, name, n);
    memset(out + n, ' ', len - n);
}

/* PAPI_strerror of a code, blank padded. */
void papif_test_c_strerror_(const int *code, char *out, size_t len);
void papif_test_c_strerror_(const int *code, char *out, size_t len)
{
    const char *msg = PAPI_strerror(*code);
    size_t n = msg ? strnlen(msg, len) : 0;
    if (n)
        memcpy(out, msg, n);
    memset(out + n, ' ', len - n);
}

/* The sysdetect API's CPU name as C sees it, blank-padded into a Fortran character
 * variable (its length is the compilers' hidden trailing argument). */
void papif_test_c_cpu_name_(char *out, size_t len);
void papif_test_c_cpu_name_(char *out, size_t len)
{
    const char *name = NULL;
    void *cpu = NULL;
    memset(out, ' ', len);
    if (PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__CPU, &cpu) == PAPI_OK &&
        PAPI_get_dev_attr(cpu, 0, PAPI_DEV_ATTR__CPU_CHAR_NAME, &name) == PAPI_OK && name)
        memcpy(out, name, strlen(name) < len ? strlen(name) : len);
}

void papif_test_c_hw_totalcpus_(int *n);
void papif_test_c_hw_totalcpus_(int *n)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    *n = hw ? hw->totalcpus : -1;
}
