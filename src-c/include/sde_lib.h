/* sde_lib.h: software-defined events (SDE), the API of PAPI 7's libsde.
 *
 * A library exports its own counters under a name of its choosing: papi_sde_init("mylib")
 * returns a handle, and every counter registered or created through it is counted by
 * PAPI as the native event sde:::mylib::COUNTER (papi_native_avail lists them with their
 * descriptions). The names, signatures and constant values are PAPI 7's, so a library
 * written for PAPI 7 compiles unchanged; link it with -lsde. libpapi finds the counters
 * at run time, whether they were registered before or after PAPI_library_init; a program
 * that does not load libsde pays nothing for it. man papi_sde(3) describes each call. */
#ifndef PAPI_SDE_LIB_H
#define PAPI_SDE_LIB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PAPI_SDE_VERSION_NUMBER(_maj, _min) (((_maj) << 16) | (_min))
#define PAPI_SDE_VERSION                    PAPI_SDE_VERSION_NUMBER(1, 0)

/* cntr_mode: who may change the counter, and how PAPI reports it. */
#define PAPI_SDE_RO      0x00 /* read only */
#define PAPI_SDE_RW      0x01 /* PAPI may write (reset) it */
#define PAPI_SDE_DELTA   0x00 /* PAPI reports the change since PAPI_start */
#define PAPI_SDE_INSTANT 0x10 /* PAPI reports the value as it is now */

/* cntr_type: the C type of a registered counter's variable. */
#define PAPI_SDE_long_long 0x0
#define PAPI_SDE_int       0x1
#define PAPI_SDE_double    0x2
#define PAPI_SDE_float     0x3

/* group_flags: what a group's event reports of its members. */
#define PAPI_SDE_SUM 0x0
#define PAPI_SDE_MAX 0x1
#define PAPI_SDE_MIN 0x2

/* Return codes: the values of papi.h's PAPI_OK, PAPI_EINVAL, ... */
#define SDE_OK      0
#define SDE_EINVAL  -1
#define SDE_ENOMEM  -2
#define SDE_ECMP    -4
#define SDE_ENOEVNT -7

/* Older names of the same calls. */
#define register_fp_counter           register_counter_cb
#define papi_sde_register_fp_counter  papi_sde_register_counter_cb
#define destroy_counter               unregister_counter
#define destroy_counting_set          unregister_counter
#define papi_sde_destroy_counter      papi_sde_unregister_counter
#define papi_sde_destroy_counting_set papi_sde_unregister_counter

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Non-zero: libsde explains every error on stderr (PAPI's flags of the same names). */
extern int _sde_be_verbose;
extern int _sde_debug;
#define SDEDBG(format, ...)                         \
    do {                                            \
        if (_sde_debug)                             \
            fprintf(stderr, format, ##__VA_ARGS__); \
    } while (0)

/* printf's checks for SDE_ERROR's callers (and none for its own vfprintf). */
#if defined(__GNUC__)
#define SDE_PRINTF_FORMAT __attribute__((format(printf, 1, 2)))
#else
#define SDE_PRINTF_FORMAT
#endif
static inline void SDE_ERROR(const char *format, ...) SDE_PRINTF_FORMAT;
static inline void SDE_ERROR(const char *format, ...)
{
    if (!_sde_be_verbose)
        return;
    va_list ap;
    va_start(ap, format);
    fputs("PAPI SDE Error: ", stderr);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
    va_end(ap);
}

#ifdef __cplusplus
extern "C" {
#endif

/* A value PAPI read from an SDE of type double or float carries its bits. */
#define GET_FLOAT_SDE(x)  *((float *)&(x))
#define GET_DOUBLE_SDE(x) *((double *)&(x))
/* A recorder's event reads as the address of its records. */
#define GET_SDE_RECORDER_ADDRESS(x, rcrd_type) ((rcrd_type *)(x))

/* A counting set's event reads as the address of a list of these: one per distinct
 * element, with how many times it is in the set. */
typedef struct cset_list_object_s cset_list_object_t;
struct cset_list_object_s {
    uint32_t count;
    uint32_t type_id;
    size_t type_size;
    void *ptr;
    cset_list_object_t *next;
};

typedef long long int (*papi_sde_fptr_t)(void *);
typedef int (*papi_sde_cmpr_fptr_t)(void *);
typedef void *papi_handle_t;

/* Every call through a pointer: a library that fills this struct only when libsde is
 * there (POPULATE_SDE_FPTR_STRUCT) works with or without it. */
typedef struct papi_sde_fptr_struct_s {
    papi_handle_t (*init)(const char *lib_name);
    int (*shutdown)(papi_handle_t handle);
    int (*register_counter)(papi_handle_t handle, const char *event_name, int mode, int type,
                            void *counter);
    int (*register_counter_cb)(papi_handle_t handle, const char *event_name, int mode, int type,
                               papi_sde_fptr_t callback, void *param);
    int (*unregister_counter)(papi_handle_t handle, const char *event_name);
    int (*describe_counter)(papi_handle_t handle, const char *event_name,
                            const char *event_description);
    int (*add_counter_to_group)(papi_handle_t handle, const char *event_name,
                                const char *group_name, uint32_t group_flags);
    int (*create_counter)(papi_handle_t handle, const char *event_name, int cntr_type,
                          void **cntr_handle);
    int (*inc_counter)(papi_handle_t cntr_handle, long long int increment);
    int (*create_recorder)(papi_handle_t handle, const char *event_name, size_t typesize,
                           int (*cmpr_func_ptr)(const void *p1, const void *p2),
                           void **record_handle);
    int (*create_counting_set)(papi_handle_t handle, const char *cset_name, void **cset_handle);
    int (*counting_set_insert)(void *cset_handle, size_t element_size, size_t hashable_size,
                               const void *element, uint32_t type_id);
    int (*counting_set_remove)(void *cset_handle, size_t hashable_size, const void *element,
                               uint32_t type_id);
    int (*record)(void *record_handle, size_t typesize, const void *value);
    int (*reset_recorder)(void *record_handle);
    int (*reset_counter)(void *cntr_handle);
    void *(*get_counter_handle)(papi_handle_t handle, const char *event_name);
} papi_sde_fptr_struct_t;

papi_handle_t papi_sde_init(const char *name_of_library);
int papi_sde_shutdown(papi_handle_t handle);
int papi_sde_register_counter(papi_handle_t handle, const char *event_name, int cntr_mode,
                              int cntr_type, void *counter);
int papi_sde_register_counter_cb(papi_handle_t handle, const char *event_name, int cntr_mode,
                                 int cntr_type, papi_sde_fptr_t callback, void *param);
int papi_sde_unregister_counter(void *handle, const char *event_name);
int papi_sde_describe_counter(papi_handle_t handle, const char *event_name,
                              const char *event_description);
int papi_sde_add_counter_to_group(papi_handle_t handle, const char *event_name,
                                  const char *group_name, uint32_t group_flags);
int papi_sde_create_counter(papi_handle_t handle, const char *event_name, int cntr_mode,
                            void **cntr_handle);
int papi_sde_inc_counter(void *cntr_handle, long long int increment);
int papi_sde_create_recorder(papi_handle_t handle, const char *event_name, size_t typesize,
                             int (*cmpr_func_ptr)(const void *p1, const void *p2),
                             void **record_handle);
int papi_sde_create_counting_set(papi_handle_t handle, const char *cset_name, void **cset_handle);
int papi_sde_counting_set_insert(void *cset_handle, size_t element_size, size_t hashable_size,
                                 const void *element, uint32_t type_id);
int papi_sde_counting_set_remove(void *cset_handle, size_t hashable_size, const void *element,
                                 uint32_t type_id);
int papi_sde_record(void *record_handle, size_t typesize, const void *value);
int papi_sde_reset_recorder(void *record_handle);
int papi_sde_reset_counter(void *cntr_handle);
void *papi_sde_get_counter_handle(papi_handle_t handle, const char *event_name);

/* Comparators for recorders of the basic types (qsort's convention). */
int papi_sde_compare_long_long(const void *p1, const void *p2);
int papi_sde_compare_int(const void *p1, const void *p2);
int papi_sde_compare_double(const void *p1, const void *p2);
int papi_sde_compare_float(const void *p1, const void *p2);

/* Written by a library that exports SDEs, for tools that list them without running it. */
papi_handle_t papi_sde_hook_list_events(papi_sde_fptr_struct_t *fptr_struct);

#define POPULATE_SDE_FPTR_STRUCT(_A_)                               \
    do {                                                            \
        (_A_).init = papi_sde_init;                                 \
        (_A_).shutdown = papi_sde_shutdown;                         \
        (_A_).register_counter = papi_sde_register_counter;         \
        (_A_).register_counter_cb = papi_sde_register_counter_cb;   \
        (_A_).unregister_counter = papi_sde_unregister_counter;     \
        (_A_).describe_counter = papi_sde_describe_counter;         \
        (_A_).add_counter_to_group = papi_sde_add_counter_to_group; \
        (_A_).create_counter = papi_sde_create_counter;             \
        (_A_).inc_counter = papi_sde_inc_counter;                   \
        (_A_).create_recorder = papi_sde_create_recorder;           \
        (_A_).create_counting_set = papi_sde_create_counting_set;   \
        (_A_).counting_set_insert = papi_sde_counting_set_insert;   \
        (_A_).counting_set_remove = papi_sde_counting_set_remove;   \
        (_A_).record = papi_sde_record;                             \
        (_A_).reset_recorder = papi_sde_reset_recorder;             \
        (_A_).reset_counter = papi_sde_reset_counter;               \
        (_A_).get_counter_handle = papi_sde_get_counter_handle;     \
    } while (0)

#ifdef __cplusplus
}
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
