/* papif_helpers.h: what the generated PAPIF_* shims need beyond one C call: string
 * conversion between Fortran (blank padded, hidden length) and C (NUL terminated), and
 * the routines whose Fortran signature flattens a C structure or an option. */
#ifndef PAPIF_HELPERS_H
#define PAPIF_HELPERS_H

#include <stddef.h>

/* Internal to libpapi: the shims call these, nothing outside does (only PAPIF_* and the
 * module's papif_core_* are exported). */
#pragma GCC visibility push(hidden)

/* Copy src into dst of capacity cap (>= 1), truncated and always NUL-terminated. */
void papifh_copy_c_string(const char *src, char *dst, int cap);
/* Fortran CHARACTER(len) -> malloc'd C string without trailing blanks (NULL: no memory). */
char *papifh_string_from_fortran(const char *s, size_t len);
/* C string -> Fortran CHARACTER(len): truncated, or padded with blanks. */
void papifh_string_to_fortran(const char *src, char *dst, size_t len);
/* A C result that is a value when >= 0 and an error code when < 0. */
int papifh_split_result(int result, int *value);

/* Output strings below are buffers of PAPI_HUGE_STR_LEN bytes. */
int papifh_thread_init(int (*id_function)(void));
int papifh_get_event_info(int code, char *symbol, char *long_descr, char *short_descr, int *count,
                         char *note, int *flags);
int papifh_set_event_domain(int eventset, int domain);
int papifh_get_domain(int eventset, int *domain, int mode);
int papifh_get_granularity(int eventset, int *granularity, int mode);
int papifh_set_inherit(int inherit);
int papifh_get_preload(char *lib_preload_env);
int papifh_get_dmem_info(long long *dmem);
int papifh_get_exe_info(char *fullname, char *name, long long *text_start, long long *text_end,
                       long long *data_start, long long *data_end, long long *bss_start,
                       long long *bss_end);
void papifh_get_hardware_info(int *ncpu, int *nnodes, int *totalcpus, int *vendor,
                             char *vendor_string, int *model, char *model_string, float *revision,
                             float *mhz);

/* PAPI_overflow_frequency with a Fortran handler (an INTEGER function without arguments)
 * and the call chain as 64-bit integers (papif_overflow.c; extensions of this library). */
int papifh_overflow_frequency(int EventSet, int EventCode, int hz, int flags, int (*handler)(void));
int papifh_get_overflow_callchain(long long *pcs, int max);

/* PAPI 7's device API with a device type index instead of a handle (papif_sysdetect.c). */
int papifh_enum_dev_type(int modifier, int *handle_index);
int papifh_get_dev_type_attr(int handle_index, int attribute, int *value, char *string);
int papifh_get_dev_attr(int handle_index, int id, int attribute, int *value, char *string);

#pragma GCC visibility pop

#endif
