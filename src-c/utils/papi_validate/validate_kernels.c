/* validate_kernels.c: what the ISA tables share: a kernel's expected count per
 * iteration, and the empty table of an ISA papi_validate has no kernels for. */
#include "validate_kernels.h"

#include <string.h>

const char *vk_need_none(void)
{
    return NULL;
}

static const struct vk_expect *find(const struct vk_kernel *k, const char *event)
{
    for (int i = 0; i < VK_MAX_EXPECT && k->expect[i].event; i++)
        if (strcmp(k->expect[i].event, event) == 0)
            return &k->expect[i];
    return NULL;
}

int vk_determines(const struct vk_kernel *k, const char *event)
{
    const struct vk_expect *e = find(k, event);
    return e && e->per_iter != 0;
}

double vk_expected_per_iter(const struct vk_kernel *k, const char *event)
{
    const struct vk_expect *e = find(k, event);
    if (!e)
        return 0;
    return (e->flags & VK_PER_LANE) && k->lanes ? e->per_iter * k->lanes() : e->per_iter;
}

int vk_known_counts(const struct vk_kernel *k, int n, const char *const names[],
                    const long long counted[], double iterations, long long known[],
                    double *tol_rel)
{
    int put = 0;
    *tol_rel = 0;
    for (int i = 0; i < n; i++) {
        known[i] = counted[i];
        if (!vk_determines(k, names[i]))
            continue;
        known[i] = (long long)(vk_expected_per_iter(k, names[i]) * iterations + 0.5);
        if (vk_tol_rel(k, names[i]) > *tol_rel)
            *tol_rel = vk_tol_rel(k, names[i]);
        put++;
    }
    return put;
}

#define VK_MAX_KERNELS 64

static struct vk_kernel all[VK_MAX_KERNELS];
static int nall = -1; /* the ISA's kernels come first, then the memory ones, itlb */

const struct vk_kernel *vk_kernels(int *n)
{
    if (nall < 0) { /* one table of both parts, made once (papi_validate is one thread) */
        int np[3];
        const struct vk_kernel *part[3] = {vk_isa_kernels(&np[0]), vk_mem_kernels(&np[1]),
                                           vk_itlb_kernels(&np[2])};
        nall = 0;
        for (int p = 0; p < 3; p++)
            for (int i = 0; i < np[p] && nall < VK_MAX_KERNELS; i++)
                all[nall++] = part[p][i];
    }
    *n = nall;
    return all;
}

const char *vk_ready(const struct vk_kernel *k)
{
    const char *lack = k->missing();
    if (!lack)
        lack = vk_mem_ready(k);
    return lack ? lack : vk_itlb_ready(k);
}

double vk_tol_rel(const struct vk_kernel *k, const char *event)
{
    const struct vk_expect *e = find(k, event);
    if (!e)
        return 0;
    return e->flags & VK_BW ? VK_BW_TOL : e->flags & VK_CACHE ? VK_CACHE_TOL : 0;
}

#if !defined(__x86_64__) && !defined(__aarch64__)
const struct vk_kernel *vk_isa_kernels(int *n)
{
    *n = 0;
    return NULL;
}

const char *vk_isa(void)
{
    return "none";
}
#endif
