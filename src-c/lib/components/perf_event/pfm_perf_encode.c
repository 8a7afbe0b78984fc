/* pfm_perf_encode.c: the one place that includes libpfm4's perf_event header.
 * libpfm4 ships its own struct perf_event_attr, which clashes with the kernel's
 * <linux/perf_event.h> used everywhere else; both describe the same ABI prefix, so the
 * encoding is copied out as bytes. */
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "pfm_perf_encode.h"

int pfm_perf_encode(const char *name, int plm, void *attr_out, size_t attr_size, char **fstr,
                    int *idx)
{
    struct perf_event_attr attr;
    pfm_perf_encode_arg_t arg;
    memset(&attr, 0, sizeof attr);
    memset(&arg, 0, sizeof arg);
    arg.attr = &attr;
    arg.fstr = fstr;
    arg.size = sizeof arg;
    int ret = pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT_EXT, &arg);
    if (ret != PFM_SUCCESS)
        return ret;
    memset(attr_out, 0, attr_size);
    memcpy(attr_out, &attr, attr_size < sizeof attr ? attr_size : sizeof attr);
    if (idx)
        *idx = arg.idx;
    return PFM_SUCCESS;
}
