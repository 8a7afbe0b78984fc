/* papif_helpers.c: the hand-written part of the Fortran API (see papif_helpers.h). */
#include "papif_helpers.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"

void papifh_copy_c_string(const char *src, char *dst, int cap)
{
    if (!dst || cap <= 0)
        return;
    size_t n = strnlen(src, (size_t)cap - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

char *papifh_string_from_fortran(const char *s, size_t len)
{
    /* Old codes pass trim(name)//char(0): stop at a NUL as well as at the blanks. */
    size_t n = s ? strnlen(s, len) : 0;
    while (n > 0 && s[n - 1] == ' ')
        n--;
    char *c = malloc(n + 1);
    if (!c)
        return NULL;
    if (n)
        memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

void papifh_string_to_fortran(const char *src, char *dst, size_t len)
{
    if (!dst)
        return;
    size_t n = strnlen(src, len);
    memcpy(dst, src, n);
    memset(dst + n, ' ', len - n);
}

int papifh_split_result(int result, int *value)
{
    if (result < 0)
        return result;
    *value = result;
    return PAPI_OK;
}

/* PAPI_thread_init wants unsigned long (*)(void); a Fortran function returns C_INT. */
static _Atomic(int (*)(void)) fortran_thread_id;

static unsigned long call_fortran_thread_id(void)
{
    int (*fn)(void) = atomic_load(&fortran_thread_id);
    return fn ? (unsigned long)(unsigned int)fn() : 0;
}

int papifh_thread_init(int (*id_function)(void))
{
    if (!id_function)
        return PAPI_thread_init(NULL);
    atomic_store(&fortran_thread_id, id_function);
    return PAPI_thread_init(call_fortran_thread_id);
}

int papifh_get_event_info(int code, char *symbol, char *long_descr, char *short_descr, int *count,
                         char *note, int *flags)
{
    PAPI_event_info_t info;
    int ret = PAPI_get_event_info(code, &info);
    if (ret != PAPI_OK)
        return ret;
    snprintf(symbol, PAPI_HUGE_STR_LEN, "%s", info.symbol);
    snprintf(long_descr, PAPI_HUGE_STR_LEN, "%s", info.long_descr);
    snprintf(short_descr, PAPI_HUGE_STR_LEN, "%s", info.short_descr);
    snprintf(note, PAPI_HUGE_STR_LEN, "%s", info.note);
    *count = (int)info.count;
    *flags = (int)info.event_type;
    return PAPI_OK;
}

int papifh_set_event_domain(int eventset, int domain)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.domain.eventset = eventset;
    opt.domain.domain = domain;
    return PAPI_set_opt(PAPI_DOMAIN, &opt);
}

/* PAPI_get_opt of the library default (mode def) or of the event set's setting that opt
 * names (mode per), split as papifh_split_result does; PAPI_EINVAL for another mode. */
static int get_default_or_set(int mode, int def, int per, PAPI_option_t *opt, int *value)
{
    int ret;
    if (mode == def)
        ret = PAPI_get_opt(def, NULL);
    else if (mode == per)
        ret = PAPI_get_opt(per, opt);
    else
        return PAPI_EINVAL;
    return papifh_split_result(ret, value);
}

/* mode PAPI_DEFDOM: the library default; PAPI_DOMAIN: the event set's domain. */
int papifh_get_domain(int eventset, int *domain, int mode)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.domain.eventset = eventset;
    return get_default_or_set(mode, PAPI_DEFDOM, PAPI_DOMAIN, &opt, domain);
}

int papifh_get_granularity(int eventset, int *granularity, int mode)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.granularity.eventset = eventset;
    return get_default_or_set(mode, PAPI_DEFGRN, PAPI_GRANUL, &opt, granularity);
}

int papifh_set_inherit(int inherit)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.inherit.inherit = inherit;
    return PAPI_set_opt(PAPI_INHERIT, &opt);
}

int papifh_get_preload(char *lib_preload_env)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    int ret = PAPI_get_opt(PAPI_PRELOAD, &opt);
    if (ret < 0)
        return ret;
    snprintf(lib_preload_env, PAPI_HUGE_STR_LEN, "%s", opt.preload.lib_preload_env);
    return PAPI_OK;
}

/* The array is indexed by PAPIF_DMEM_* (1-based in Fortran). */
int papifh_get_dmem_info(long long *dmem)
{
    PAPI_dmem_info_t d;
    int ret = PAPI_get_dmem_info(&d);
    if (ret != PAPI_OK)
        return ret;
    const long long fields[PAPIF_DMEM_MAXVAL] = {
        [PAPIF_DMEM_VMPEAK - 1] = d.peak,       [PAPIF_DMEM_VMSIZE - 1] = d.size,
        [PAPIF_DMEM_RESIDENT - 1] = d.resident, [PAPIF_DMEM_HIGH_WATER - 1] = d.high_water_mark,
        [PAPIF_DMEM_SHARED - 1] = d.shared,     [PAPIF_DMEM_TEXT - 1] = d.text,
        [PAPIF_DMEM_LIBRARY - 1] = d.library,   [PAPIF_DMEM_HEAP - 1] = d.heap,
        [PAPIF_DMEM_LOCKED - 1] = d.locked,     [PAPIF_DMEM_STACK - 1] = d.stack,
        [PAPIF_DMEM_PAGESIZE - 1] = d.pagesize, [PAPIF_DMEM_PTE - 1] = d.pte,
    };
    memcpy(dmem, fields, sizeof fields);
    return PAPI_OK;
}

int papifh_get_exe_info(char *fullname, char *name, long long *text_start, long long *text_end,
                       long long *data_start, long long *data_end, long long *bss_start,
                       long long *bss_end)
{
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    if (!exe)
        return PAPI_ENOINIT;
    snprintf(fullname, PAPI_HUGE_STR_LEN, "%s", exe->fullname);
    snprintf(name, PAPI_HUGE_STR_LEN, "%s", exe->name);
    *text_start = (long long)(size_t)exe->address_info.text_start;
    *text_end = (long long)(size_t)exe->address_info.text_end;
    *data_start = (long long)(size_t)exe->address_info.data_start;
    *data_end = (long long)(size_t)exe->address_info.data_end;
    *bss_start = (long long)(size_t)exe->address_info.bss_start;
    *bss_end = (long long)(size_t)exe->address_info.bss_end;
    return PAPI_OK;
}

/* No check argument in the reference: on failure every number is -1, strings empty. */
void papifh_get_hardware_info(int *ncpu, int *nnodes, int *totalcpus, int *vendor,
                             char *vendor_string, int *model, char *model_string, float *revision,
                             float *mhz)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    if (!hw) {
        *ncpu = *nnodes = *totalcpus = *vendor = *model = -1;
        *revision = *mhz = -1.0f;
        vendor_string[0] = model_string[0] = '\0';
        return;
    }
    *ncpu = hw->ncpu;
    *nnodes = hw->nnodes;
    *totalcpus = hw->totalcpus;
    *vendor = hw->vendor;
    snprintf(vendor_string, PAPI_HUGE_STR_LEN, "%s", hw->vendor_string);
    *model = hw->model;
    snprintf(model_string, PAPI_HUGE_STR_LEN, "%s", hw->model_string);
    *revision = hw->revision;
    *mhz = hw->mhz;
}
