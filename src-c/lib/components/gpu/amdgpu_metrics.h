/* amdgpu_metrics.h: the amdgpu driver's binary gpu_metrics file
 * (/sys/class/drm/cardN/device/gpu_metrics) decoded by its header's format and content
 * revision (amdgpu_metrics.c). The layouts are the kernel's public structures
 * (kgd_pp_interface.h: struct gpu_metrics_v1_1..v1_5 for discrete GPUs, v2_1..v2_4 for
 * APUs); a value is converted to the units of the component's hwmon events (mC, uW, Hz)
 * so that a card reads alike through either file. Pure functions on a buffer: the component reads
 * the file (amdgpu_component.c). */
#ifndef PAPI_AMDGPU_METRICS_H
#define PAPI_AMDGPU_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "papi_sdk.h"

/* Why a buffer or a field gives no value (amdgpu_metrics_explain words them). */
enum amdgpu_metrics_err {
    AMDGPU_METRICS_OK = 0,
    AMDGPU_METRICS_SHORT = -10,    /* fewer bytes than a header, or than its revision's */
    AMDGPU_METRICS_REVISION = -11, /* a format/content revision this decoder does not know */
    AMDGPU_METRICS_CHANGED = -12,  /* another revision than the one the event was made of */
    AMDGPU_METRICS_ABSENT = -13,   /* the field is all ones: this GPU does not provide it */
};

/* The header's revision and the layout it selects: layout is -1 when unknown. */
struct amdgpu_metrics_rev {
    int format, content, layout;
    size_t need;     /* the revision's size in bytes (0 when unknown) */
    size_t declared; /* the header's structure_size */
};

/* One field of a layout: its name, the units of its value, what it is, and whether it
 * counts up (energy) rather than reading a value now. */
struct amdgpu_metrics_field {
    const char *name, *units, *what;
    int counter;
};

/* The header of buf (n bytes) into rev: 0, AMDGPU_METRICS_SHORT (the header or the
 * revision's fields are cut) or AMDGPU_METRICS_REVISION. */
PAPI_INTERNAL int amdgpu_metrics_header(const uint8_t *buf, size_t n,
                                        struct amdgpu_metrics_rev *rev);
/* Field i of layout (i from 0), or NULL past its last. */
PAPI_INTERNAL const struct amdgpu_metrics_field *amdgpu_metrics_field(int layout, int i);
/* Field i of layout in buf, converted to its units: 0, or AMDGPU_METRICS_SHORT,
 * _CHANGED (buf is of another layout) or _ABSENT. */
PAPI_INTERNAL int amdgpu_metrics_value(int layout, int i, const uint8_t *buf, size_t n,
                                       uint64_t *value);
/* The revisions decoded, for a reason: "1.1-1.5, 2.1-2.4". */
PAPI_INTERNAL const char *amdgpu_metrics_known(void);
/* The words for err of a buffer whose header gave rev (one line, no newline). */
PAPI_INTERNAL void amdgpu_metrics_explain(int err, const struct amdgpu_metrics_rev *rev, size_t got,
                                          char *buf, size_t len);

#endif
