/* sde_registry.h: how libpapi's sde component reads the counters that libsde holds.
 *
 * libpapi never links libsde: its component looks up the one entry below at run time
 * (dlsym), so programs that use no SDE pay nothing, and counters registered before or
 * after PAPI_library_init are found whenever PAPI asks. Every counter has an id: its
 * slot and the slot's generation. A counter that was unregistered (or whose library was
 * shut down) reads SDE_ENOEVNT from then on, also once a later counter took its slot
 * (under another id; the id's generation wraps after 64 reuses of one slot, so an event
 * set holds the counter's key instead where libsde has the second entry below: its slot
 * and a 43-bit generation). */
#ifndef PAPI_SDE_REGISTRY_H
#define PAPI_SDE_REGISTRY_H

#include <stddef.h>

#define SDE_REGISTRY_ENTRY   "papi_compat_sde_registry"
#define SDE_REGISTRY_VERSION 2    /* 1: without key and read_key */
#define SDE_NAME_MAX         1024 /* "LIB::COUNTER" and its NUL, at most */

/* What a read gives: the value's bits and how PAPI reports them. */
struct sde_reading {
    long long value; /* int widened; double's bits; float's bits in the low 32 */
    int type;        /* PAPI_SDE_long_long, _int, _double, _float */
    int mode;        /* PAPI_SDE_DELTA or PAPI_SDE_INSTANT (| PAPI_SDE_RW) */
};

struct sde_registry_api {
    int version; /* SDE_REGISTRY_VERSION */
    /* The live counter after id (-1: the first), or -1 at the end. */
    int (*next)(int id);
    /* The id of the live counter "LIB::COUNTER", or of a placeholder made for it that
     * reads 0 until its library registers it (-1 for a malformed name). */
    int (*find)(const char *name);
    /* Its name and description into out (truncated to len); SDE_ENOEVNT when gone. */
    int (*name)(int id, char *out, size_t len);
    int (*describe)(int id, char *out, size_t len);
    /* Its value now; SDE_ENOEVNT when gone. No lock taken for plain counters. */
    int (*read)(int id, struct sde_reading *out);
};

typedef const struct sde_registry_api *(*sde_registry_fn)(void);

/* A second entry, so that either side may be older than the other: the key of the live
 * counter id (-1 when gone), and its value now as read gives it, SDE_ENOEVNT once that
 * counter is gone however often its slot was reused since. */
#define SDE_REGISTRY_KEYS_ENTRY "papi_compat_sde_registry_keys"
struct sde_registry_keys {
    long long (*key)(int id);
    int (*read_key)(long long key, struct sde_reading *out);
};
typedef const struct sde_registry_keys *(*sde_registry_keys_fn)(void);

/* libsde's entry (exported); libpapi finds it with dlsym, never by linking. */
const struct sde_registry_api *papi_compat_sde_registry(void);
const struct sde_registry_keys *papi_compat_sde_registry_keys(void);

#endif
