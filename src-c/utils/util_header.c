/* util_header.c: the hardware header every utility starts with. The labels are PAPI 7's
 * (scripts parse them); the counter lines tell the truth when there is no PMU. */
#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fsroot.h"
#include "util_common.h"

struct header_facts {
    char version[32];
    char os[160];
    const PAPI_hw_info_t *hw;
    const PAPI_component_info_t *cpu; /* the perf_event component */
    int counters;                     /* usable hardware counters */
    int mpx;
};

static void gather(struct header_facts *h)
{
    struct utsname u;
    memset(h, 0, sizeof *h);
    util_version_string(h->version, sizeof h->version);
    if (uname(&u) == 0)
        snprintf(h->os, sizeof h->os, "%s %s", u.sysname, u.release);
    h->cpu = PAPI_get_component_info(0);
    h->counters = PAPI_num_cmp_hwctrs(0);
    if (h->counters < 0)
        h->counters = 0;
    h->mpx = PAPI_get_cmp_opt(PAPI_MAX_MPX_CTRS, NULL, 0);
    if (h->mpx < 0)
        h->mpx = 0;
    h->hw = util_hardware_info(); /* last: it may still be loading in the background */
}

static int fast_read(const struct header_facts *h)
{
    return h->cpu && h->cpu->fast_counter_read;
}

/* The two permission facts that decide hardware counting besides the PMU itself. The
 * paranoid level is read through the library's one file-access layer (fsroot.h, linked
 * in from src-c/common like the library's own copy): on a recorded machine
 * (PAPI_FSROOT) it is that machine's, the same value the library's reasons name. */
static int perf_paranoid(void)
{
    int v = -100;
    if (fsroot_scan("/proc/sys/kernel/perf_event_paranoid", "%d", &v) != 0)
        v = -100;
    return v;
}

static int has_perfmon(void)
{
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &hdr, data) != 0)
        return 0;
    const int perfmon = 38, sys_admin = 21; /* CAP_PERFMON, CAP_SYS_ADMIN */
    return ((data[perfmon / 32].effective >> (perfmon % 32)) & 1) ||
           ((data[sys_admin / 32].effective >> (sys_admin % 32)) & 1);
}

static void permission_summary(char *buf, size_t len)
{
    int p = perf_paranoid();
    int cap = has_perfmon();
    snprintf(buf, len,
             "Permissions: kernel.perf_event_paranoid is %d and this process %s CAP_PERFMON "
             "(or CAP_SYS_ADMIN)%s.",
             p, cap ? "has" : "lacks",
             cap ? ", so permissions are not what stops hardware counting"
                 : (p > 2 ? ": hardware counting is refused until one of the two changes"
                          : ", which allows counting one's own threads"));
}

void util_print_no_counters(FILE *f)
{
    const PAPI_component_info_t *c = PAPI_get_component_info(0);
    if (PAPI_num_cmp_hwctrs(0) > 0 || !c)
        return;
    fprintf(f, "\nNo hardware counters can be used on this machine.\n");
    if (c->disabled_reason[0])
        util_print_wrapped(f, "", PAPI_get_component_reason(0), 80);
    else
        fprintf(f, "The kernel's software events (perf::TASK-CLOCK, perf::PAGE-FAULTS, ...) "
                   "can still be counted.\n");
    char perm[PAPI_MAX_STR_LEN * 2];
    permission_summary(perm, sizeof perm);
    util_print_wrapped(f, "", perm, 80);
}

void util_print_header(FILE *f, const char *title)
{
    struct header_facts h;
    gather(&h);
    const PAPI_hw_info_t *hw = h.hw;
    fprintf(f, "%s\n%s\n", title, UTIL_RULE);
    fprintf(f, "%-25s: %s\n", "PAPI version", h.version);
    fprintf(f, "%-25s: %s\n", "papi-compat version", PAPI_compat_version());
    fprintf(f, "%-25s: %s\n", "Operating system", h.os);
    if (hw) {
        fprintf(f, "%-25s: %s (%d, 0x%x)\n", "Vendor string and code", hw->vendor_string,
                hw->vendor, (unsigned)hw->vendor);
        fprintf(f, "%-25s: %s (%d, 0x%x)\n", "Model string and code", hw->model_string, hw->model,
                (unsigned)hw->model);
        fprintf(f, "%-25s: %f\n", "CPU revision", (double)hw->revision);
        if (hw->cpuid_family > 0)
            fprintf(f, "%-25s: Family/Model/Stepping %d/%d/%d, 0x%02x/0x%02x/0x%02x\n", "CPUID",
                    hw->cpuid_family, hw->cpuid_model, hw->cpuid_stepping,
                    (unsigned)hw->cpuid_family, (unsigned)hw->cpuid_model,
                    (unsigned)hw->cpuid_stepping);
        fprintf(f, "%-25s: %d\n", "CPU Max MHz", hw->cpu_max_mhz);
        fprintf(f, "%-25s: %d\n", "CPU Min MHz", hw->cpu_min_mhz);
        fprintf(f, "%-25s: %s\n", "CPU MHz source", PAPI_get_hardware_info_mhz_source());
        fprintf(f, "%-25s: %d\n", "Total cores", hw->totalcpus);
        fprintf(f, "%-25s: %d\n", "SMT threads per core", hw->threads);
        fprintf(f, "%-25s: %d\n", "Cores per socket", hw->cores);
        fprintf(f, "%-25s: %d\n", "Sockets", hw->sockets);
        fprintf(f, "%-25s: %d\n", "Cores per NUMA region", hw->ncpu);
        fprintf(f, "%-25s: %d\n", "NUMA regions", hw->nnodes);
        fprintf(f, "%-25s: %s\n", "Running in a VM", hw->virtualized ? "yes" : "no");
        if (hw->virtualized)
            fprintf(f, "%-25s: %s\n", "VM Vendor", hw->virtual_vendor_string);
    }
    fprintf(f, "%-25s: %d\n", "Number Hardware Counters", h.counters);
    fprintf(f, "%-25s: %d\n", "Max Multiplex Counters", h.mpx);
    fprintf(f, "%-25s: %s\n", "Fast counter read (rdpmc)", fast_read(&h) ? "yes" : "no");
    fprintf(f, "%s\n", UTIL_RULE);
    util_print_no_counters(f);
}

void util_json_header(struct jw *w)
{
    struct header_facts h;
    gather(&h);
    const PAPI_hw_info_t *hw = h.hw;
    jw_str(w, "papi_version", h.version);
    jw_str(w, "papi_compat_version", PAPI_compat_version());
    jw_str(w, "operating_system", h.os);
    jw_obj_begin(w, "hardware");
    if (hw) {
        jw_str(w, "vendor_string", hw->vendor_string);
        jw_int(w, "vendor_code", hw->vendor);
        jw_str(w, "model_string", hw->model_string);
        jw_int(w, "model_code", hw->model);
        jw_double(w, "cpu_revision", (double)hw->revision);
        jw_int(w, "cpuid_family", hw->cpuid_family);
        jw_int(w, "cpuid_model", hw->cpuid_model);
        jw_int(w, "cpuid_stepping", hw->cpuid_stepping);
        jw_double(w, "mhz", (double)hw->mhz);
        jw_int(w, "cpu_max_mhz", hw->cpu_max_mhz);
        jw_int(w, "cpu_min_mhz", hw->cpu_min_mhz);
        jw_str(w, "cpu_mhz_source", PAPI_get_hardware_info_mhz_source());
        jw_int(w, "total_cores", hw->totalcpus);
        jw_int(w, "smt_threads_per_core", hw->threads);
        jw_int(w, "cores_per_socket", hw->cores);
        jw_int(w, "sockets", hw->sockets);
        jw_int(w, "cores_per_numa_region", hw->ncpu);
        jw_int(w, "numa_regions", hw->nnodes);
        jw_bool(w, "running_in_vm", hw->virtualized);
        if (hw->virtualized)
            jw_str(w, "vm_vendor", hw->virtual_vendor_string);
    }
    jw_obj_end(w);
    jw_obj_begin(w, "counters");
    jw_int(w, "number_hardware_counters", h.counters);
    jw_int(w, "max_multiplex_counters", h.mpx);
    jw_bool(w, "fast_counter_read", fast_read(&h));
    if (h.counters == 0 && h.cpu)
        jw_str(w, "no_counters_reason", PAPI_get_component_reason(0));
    jw_int(w, "perf_event_paranoid", perf_paranoid());
    jw_bool(w, "cap_perfmon", has_perfmon());
    jw_obj_end(w);
}

void util_json_begin(struct jw *w)
{
    jw_init(w, stdout);
    jw_obj_begin(w, NULL);
    util_json_header(w);
}
