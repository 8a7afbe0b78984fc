/* options.c: PAPI_get_opt / PAPI_set_opt and the calls that are options in disguise
 * (domains, granularity, attach, cpu, inherit, multiplexing flags). Event-set options
 * reopen the set's events in a new component context, so they are allowed only while it is stopped; a failed
 * change puts the old setting back. */
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#include "component_registry.h"
#include "eventset.h"
#include "call_guard.h"

static int valid_domain(int d)
{
    return d > 0 && (d & ~PAPI_DOM_ALL) == 0;
}

static int stopped_set(int handle, struct eventset **es)
{
    int ret = es_get(handle, es);
    if (ret != PAPI_OK)
        return ret;
    if ((*es)->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is running: stop it first", handle);
    return PAPI_OK;
}

/* Apply a change that needs the perf events reopened; undo it if reopening fails. */
#define RECONFIGURE(es, field, value)                                         \
    do {                                                                      \
        __typeof__((es)->field) old_ = (es)->field;                           \
        (es)->field = (value);                                                \
        if ((es)->nnat > 0) {                                                 \
            int r_ = es_reopen_all(es);                                       \
            if (r_ != PAPI_OK) {                                              \
                (es)->field = old_;                                           \
                es_reopen_all(es);                                            \
                return r_;                                                    \
            }                                                                 \
        }                                                                     \
    } while (0)

static int set_domain(int handle, int domain)
{
    struct eventset *es;
    int ret = stopped_set(handle, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!valid_domain(domain))
        return papi_error(PAPI_EINVAL, "domain 0x%x is not a combination of PAPI_DOM_* bits", domain);
    RECONFIGURE(es, domain, domain);
    return PAPI_OK;
}

static int set_granularity(int handle, int grn)
{
    struct eventset *es;
    int ret = stopped_set(handle, &es);
    if (ret != PAPI_OK)
        return ret;
    switch (grn) {
    case PAPI_GRN_THR:
        es->inherit = 0;
        RECONFIGURE(es, granularity, grn);
        return PAPI_OK;
    case PAPI_GRN_PROC:
        /* The calling thread and the threads it creates from now on (perf inherit). */
        es->inherit = 1;
        RECONFIGURE(es, granularity, grn);
        return PAPI_OK;
    case PAPI_GRN_SYS:
        RECONFIGURE(es, granularity, grn);
        return PAPI_OK;
    case PAPI_GRN_PROCG:
    case PAPI_GRN_SYS_CPU:
        return papi_error(PAPI_ECMP, "granularity 0x%x is not supported by perf_event", grn);
    default:
        return papi_error(PAPI_EINVAL, "granularity 0x%x is not a PAPI_GRN_* value", grn);
    }
}

int PAPI_attach(int EventSet, unsigned long tid)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = stopped_set(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (tid == 0 || tid > 0x7fffffffUL)
        return papi_error(PAPI_EINVAL, "%lu is not a process or thread id", tid);
    int old_state = es->state;
    pid_t old_tid = es->attach_tid;
    es->attach_tid = (pid_t)tid;
    es->state |= PAPI_ATTACHED;
    if (es->nnat > 0 && (ret = es_reopen_all(es)) != PAPI_OK) {
        es->state = old_state;
        es->attach_tid = old_tid;
        es_reopen_all(es);
        return ret;
    }
    return PAPI_OK;
}

int PAPI_detach(int EventSet)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = stopped_set(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!(es->state & PAPI_ATTACHED))
        return papi_error(PAPI_EINVAL, "EventSet %d is not attached", EventSet);
    es->state &= ~PAPI_ATTACHED;
    es->attach_tid = 0;
    if (es->nnat > 0)
        return es_reopen_all(es);
    return PAPI_OK;
}

static int set_cpu(int handle, unsigned cpu)
{
    struct eventset *es;
    int ret = stopped_set(handle, &es);
    if (ret != PAPI_OK)
        return ret;
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    if (hw && hw->totalcpus > 0 && cpu >= (unsigned)hw->totalcpus)
        return papi_error(PAPI_EINVAL, "CPU %u does not exist (%d CPUs)", cpu, hw->totalcpus);
    int old_state = es->state, old_cpu = es->cpu, old_grn = es->granularity;
    es->state |= PAPI_CPU_ATTACHED;
    es->cpu = (int)cpu;
    es->granularity = PAPI_GRN_SYS;
    if (es->nnat > 0 && (ret = es_reopen_all(es)) != PAPI_OK) {
        es->state = old_state;
        es->cpu = old_cpu;
        es->granularity = old_grn;
        es_reopen_all(es);
        return ret;
    }
    return PAPI_OK;
}

static int set_inherit(int handle, int inherit)
{
    struct eventset *es;
    int ret = stopped_set(handle, &es);
    if (ret != PAPI_OK)
        return ret;
    if (inherit != PAPI_INHERIT_ALL && inherit != PAPI_INHERIT_NONE)
        return papi_error(PAPI_EINVAL, "inherit must be PAPI_INHERIT_ALL or PAPI_INHERIT_NONE");
    RECONFIGURE(es, inherit, inherit);
    return PAPI_OK;
}

int PAPI_set_opt(int option, PAPI_option_t *ptr)
{
    PAPI_CALL_GUARD();
    if (option == PAPI_DEBUG) { /* allowed before PAPI_library_init */
        if (!ptr)
            return papi_error(PAPI_EINVAL, "option pointer is NULL");
        int l = ptr->debug.level;
        if (l != PAPI_QUIET && l != PAPI_VERB_ECONT && l != PAPI_VERB_ESTOP)
            return papi_error(PAPI_EINVAL, "debug level %d is not PAPI_QUIET, VERB_ECONT or VERB_ESTOP", l);
        g_papi.debug_level = l;
        g_papi.debug_handler = ptr->debug.handler;
        return PAPI_OK;
    }
    PAPI_CHECK_INIT();
    switch (option) {
    case PAPI_CLOCKRATE: case PAPI_MAX_HWCTRS: case PAPI_HWINFO: case PAPI_EXEINFO:
    case PAPI_MAX_CPUS: case PAPI_SHLIBINFO: case PAPI_LIB_VERSION: case PAPI_COMPONENTINFO:
    case PAPI_PRELOAD: case PAPI_MAX_MPX_CTRS:
        return papi_error(PAPI_EINVAL, "option %d can only be read", option);
    case PAPI_DATA_ADDRESS:
    case PAPI_INSTR_ADDRESS:
        return papi_error(PAPI_ECMP, "address-range restriction exists only on Itanium; perf_event "
                                     "has no equivalent");
    case PAPI_EDGE_DETECT:
    case PAPI_INVERT:
        return papi_error(PAPI_ECMP, "use the libpfm4 modifiers :e= and :i= in the native event name");
    case PAPI_PROFIL:
        return papi_error(PAPI_EINVAL, "PAPI_PROFIL is not an option; call PAPI_profil");
    case PAPI_USER_EVENTS_FILE:
        return papi_error(PAPI_ENOSUPP, "user-defined events are not supported; define presets "
                                        "in a CSV file named by PAPI_CSV_EVENT_FILE");
    }
    if (!ptr)
        return papi_error(PAPI_EINVAL, "option pointer is NULL");
    switch (option) {
    case PAPI_DEFDOM:
        if (!valid_domain(ptr->defdomain.domain))
            return papi_error(PAPI_EINVAL, "domain 0x%x is not valid", ptr->defdomain.domain);
        g_papi.default_domain = ptr->defdomain.domain;
        return PAPI_OK;
    case PAPI_DOMAIN:
        return set_domain(ptr->domain.eventset, ptr->domain.domain);
    case PAPI_DEFGRN:
        if (ptr->defgranularity.granularity != PAPI_GRN_THR &&
            ptr->defgranularity.granularity != PAPI_GRN_PROC &&
            ptr->defgranularity.granularity != PAPI_GRN_SYS) {
            int g = ptr->defgranularity.granularity;
            if (g == PAPI_GRN_PROCG || g == PAPI_GRN_SYS_CPU)
                return papi_error(PAPI_ECMP, "granularity 0x%x is not supported by perf_event", g);
            return papi_error(PAPI_EINVAL, "granularity 0x%x is not valid", g);
        }
        g_papi.default_granularity = ptr->defgranularity.granularity;
        return PAPI_OK;
    case PAPI_GRANUL:
        return set_granularity(ptr->granularity.eventset, ptr->granularity.granularity);
    case PAPI_ATTACH:
        return PAPI_attach(ptr->attach.eventset, ptr->attach.tid);
    case PAPI_DETACH:
        return PAPI_detach(ptr->attach.eventset);
    case PAPI_CPU_ATTACH:
        return set_cpu(ptr->cpu.eventset, ptr->cpu.cpu_num);
    case PAPI_INHERIT:
        return set_inherit(ptr->inherit.eventset, ptr->inherit.inherit);
    case PAPI_MULTIPLEX:
        return PAPI_set_multiplex(ptr->multiplex.eventset);
    case PAPI_DEF_MPX_NS:
        /* 3.x passes microseconds in .us, 7.x nanoseconds in .ns. */
        if (ptr->multiplex.ns > 0)
            g_papi.mpx_slice_ns = ptr->multiplex.ns;
        else if (ptr->multiplex.us > 0 && ptr->multiplex.us < 2147483)
            g_papi.mpx_slice_ns = ptr->multiplex.us * 1000;
        else
            return papi_error(PAPI_EINVAL, "the multiplexing time slice must be positive");
        return PAPI_OK;
    case PAPI_DEF_ITIMER_NS:
        if (ptr->itimer.ns <= 0)
            return papi_error(PAPI_EINVAL, "the timer interval must be positive");
        g_papi.mpx_slice_ns = ptr->itimer.ns;
        return PAPI_OK;
    case PAPI_DEF_ITIMER:
        /* As PAPI 7: the timer and signal as given, the interval kept when ns is 0. */
        if (ptr->itimer.itimer_num != ITIMER_REAL && ptr->itimer.itimer_num != ITIMER_VIRTUAL &&
            ptr->itimer.itimer_num != ITIMER_PROF)
            return papi_error(PAPI_EINVAL, "itimer_num %d is not ITIMER_REAL, ITIMER_VIRTUAL or "
                              "ITIMER_PROF", ptr->itimer.itimer_num);
        if (ptr->itimer.itimer_sig <= 0 || ptr->itimer.itimer_sig > SIGRTMAX ||
            ptr->itimer.itimer_sig == SIGKILL || ptr->itimer.itimer_sig == SIGSTOP)
            return papi_error(PAPI_EINVAL, "itimer_sig %d cannot carry the timer",
                              ptr->itimer.itimer_sig);
        if (ptr->itimer.ns < 0)
            return papi_error(PAPI_EINVAL, "the timer interval %d ns is negative", ptr->itimer.ns);
        if (ptr->itimer.ns > 0)
            g_papi.mpx_slice_ns = ptr->itimer.ns;
        g_papi.itimer_num = ptr->itimer.itimer_num;
        g_papi.itimer_sig = ptr->itimer.itimer_sig;
        return PAPI_OK;
    default:
        return papi_error(PAPI_EINVAL, "%d is not a PAPI option", option);
    }
}

static int get_es_field(int handle, struct eventset **es)
{
    return es_get(handle, es);
}

int PAPI_get_opt(int option, PAPI_option_t *ptr)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret;
    if (option == PAPI_DEBUG) {
        if (!ptr)
            return papi_error(PAPI_EINVAL, "option pointer is NULL");
        ptr->debug.level = g_papi.debug_level;
        ptr->debug.handler = g_papi.debug_handler;
        return PAPI_OK;
    }
    if (option == PAPI_LIB_VERSION)
        return PAPI_VERSION;
    PAPI_CHECK_INIT();
    switch (option) {
    case PAPI_DEFDOM:
        return g_papi.default_domain;
    case PAPI_DEFGRN:
        return g_papi.default_granularity;
    case PAPI_MAX_HWCTRS:
        return PAPI_num_hwctrs();
    case PAPI_MAX_MPX_CTRS:
        return ES_MAX_NATIVES;
    case PAPI_DEF_MPX_NS:
        if (ptr) {
            ptr->multiplex.ns = g_papi.mpx_slice_ns;
            ptr->multiplex.us = g_papi.mpx_slice_ns / 1000;
        }
        return g_papi.mpx_slice_ns;
    case PAPI_CLOCKRATE: {
        const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
        return hw ? (int)hw->mhz : 0;
    }
    case PAPI_MAX_CPUS: {
        const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
        return hw ? hw->totalcpus : 0;
    }
    case PAPI_DATA_ADDRESS:
    case PAPI_INSTR_ADDRESS:
    case PAPI_EDGE_DETECT:
    case PAPI_INVERT:
        return papi_error(PAPI_ECMP, "option %d does not exist on perf_event", option);
    case PAPI_PROFIL:
    case PAPI_USER_EVENTS_FILE:
        return papi_error(PAPI_EINVAL, "option %d cannot be read", option);
    }
    if (!ptr)
        return papi_error(PAPI_EINVAL, "option pointer is NULL");
    switch (option) {
    case PAPI_DOMAIN:
        if ((ret = get_es_field(ptr->domain.eventset, &es)) != PAPI_OK)
            return ret;
        ptr->domain.domain = es->domain;
        return es->domain;
    case PAPI_GRANUL:
        if ((ret = get_es_field(ptr->granularity.eventset, &es)) != PAPI_OK)
            return ret;
        ptr->granularity.granularity = es->granularity;
        return es->granularity;
    case PAPI_ATTACH:
        if ((ret = get_es_field(ptr->attach.eventset, &es)) != PAPI_OK)
            return ret;
        ptr->attach.tid = (es->state & PAPI_ATTACHED) ? (unsigned long)es->attach_tid : 0;
        return (es->state & PAPI_ATTACHED) ? 1 : 0;
    case PAPI_DETACH:
        if ((ret = get_es_field(ptr->attach.eventset, &es)) != PAPI_OK)
            return ret;
        ptr->attach.tid = (es->state & PAPI_ATTACHED) ? (unsigned long)es->attach_tid : 0;
        return (es->state & PAPI_ATTACHED) ? 0 : 1;
    case PAPI_CPU_ATTACH:
        if ((ret = get_es_field(ptr->cpu.eventset, &es)) != PAPI_OK)
            return ret;
        ptr->cpu.cpu_num = es->cpu >= 0 ? (unsigned)es->cpu : 0;
        return (es->state & PAPI_CPU_ATTACHED) ? 1 : 0;
    case PAPI_INHERIT:
        if ((ret = get_es_field(ptr->inherit.eventset, &es)) != PAPI_OK)
            return ret;
        ptr->inherit.inherit = es->inherit;
        return es->inherit;
    case PAPI_MULTIPLEX:
        if ((ret = get_es_field(ptr->multiplex.eventset, &es)) != PAPI_OK)
            return ret;
        ptr->multiplex.ns = g_papi.mpx_slice_ns;
        ptr->multiplex.us = g_papi.mpx_slice_ns / 1000;
        ptr->multiplex.flags = PAPI_MULTIPLEX_DEFAULT;
        return es->multiplexed;
    case PAPI_DEF_ITIMER:
    case PAPI_DEF_ITIMER_NS:
        ptr->itimer.ns = g_papi.mpx_slice_ns;
        ptr->itimer.itimer_num = g_papi.itimer_sig ? g_papi.itimer_num : ITIMER_PROF;
        if (g_papi.itimer_sig) {
            ptr->itimer.itimer_sig = g_papi.itimer_sig;
        } else {
            const PAPI_component_info_t *c0 = component_info(0);
            ptr->itimer.itimer_sig = c0 ? c0->hardware_intr_sig : 0;
        }
        return PAPI_OK;
    case PAPI_PRELOAD:
        memset(&ptr->preload, 0, sizeof ptr->preload);
        papi_strcpy(ptr->preload.lib_preload_env, sizeof ptr->preload.lib_preload_env, "LD_PRELOAD");
        ptr->preload.lib_preload_sep = ' ';
        papi_strcpy(ptr->preload.lib_dir_env, sizeof ptr->preload.lib_dir_env, "LD_LIBRARY_PATH");
        ptr->preload.lib_dir_sep = ':';
        return PAPI_OK;
    case PAPI_HWINFO:
        ptr->hw_info = (PAPI_hw_info_t *)PAPI_get_hardware_info();
        return ptr->hw_info ? PAPI_OK : PAPI_ESYS;
    case PAPI_EXEINFO:
        ptr->exe_info = (PAPI_exe_info_t *)PAPI_get_executable_info();
        return ptr->exe_info ? PAPI_OK : PAPI_ESYS;
    case PAPI_SHLIBINFO:
        ptr->shlib_info = (PAPI_shlib_info_t *)PAPI_get_shared_lib_info();
        return ptr->shlib_info ? PAPI_OK : PAPI_ESYS;
    case PAPI_COMPONENTINFO:
        ptr->cmp_info = (PAPI_component_info_t *)PAPI_get_component_info(0);
        return PAPI_OK;
    default:
        return papi_error(PAPI_EINVAL, "%d is not a PAPI option", option);
    }
}

int PAPI_get_cmp_opt(int option, PAPI_option_t *ptr, int cidx)
{
    PAPI_CHECK_INIT();
    if (!component_get(cidx))
        return PAPI_ENOCMP;
    switch (option) {
    case PAPI_MAX_HWCTRS:
        return PAPI_num_cmp_hwctrs(cidx);
    case PAPI_MAX_MPX_CTRS:
        return PAPI_get_component_info(cidx)->num_mpx_cntrs;
    case PAPI_DEFDOM:
        return PAPI_get_component_info(cidx)->default_domain;
    case PAPI_DEFGRN:
        return PAPI_get_component_info(cidx)->default_granularity;
    case PAPI_COMPONENTINFO:
        if (!ptr)
            return papi_error(PAPI_EINVAL, "option pointer is NULL");
        ptr->cmp_info = (PAPI_component_info_t *)PAPI_get_component_info(cidx);
        return PAPI_OK;
    default:
        return PAPI_get_opt(option, ptr);
    }
}

int PAPI_set_domain(int domain)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.defdomain.domain = domain;
    return PAPI_set_opt(PAPI_DEFDOM, &opt);
}

int PAPI_set_granularity(int granularity)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.defgranularity.granularity = granularity;
    return PAPI_set_opt(PAPI_DEFGRN, &opt);
}

int PAPI_set_cmp_domain(int domain, int cidx)
{
    PAPI_CHECK_INIT();
    if (!component_get(cidx))
        return PAPI_ENOCMP;
    return PAPI_set_domain(domain);
}

int PAPI_set_cmp_granularity(int granularity, int cidx)
{
    PAPI_CHECK_INIT();
    if (!component_get(cidx))
        return PAPI_ENOCMP;
    return PAPI_set_granularity(granularity);
}

/* Sets that reopen each event as its own perf group so the kernel rotates them. */
int PAPI_multiplex_init(void)
{
    PAPI_CHECK_INIT();
    g_papi.multiplex_inited = 1;
    return PAPI_OK;
}

int PAPI_set_multiplex(int EventSet)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = stopped_set(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!g_papi.multiplex_inited)
        return papi_error(PAPI_EINVAL, "call PAPI_multiplex_init before PAPI_set_multiplex");
    if (es->multiplexed)
        return papi_error(PAPI_EINVAL, "EventSet %d is already multiplexed", EventSet);
    RECONFIGURE(es, multiplexed, 1);
    es->state |= PAPI_MULTIPLEXING;
    return PAPI_OK;
}

int PAPI_get_multiplex(int EventSet)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    return es->multiplexed ? 1 : 0;
}

/* Moved here from errors.c: PAPI_set_debug is the PAPI_DEBUG option. */
int PAPI_set_debug(int level)
{
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.debug.level = level;
    opt.debug.handler = g_papi.debug_handler;
    return PAPI_set_opt(PAPI_DEBUG, &opt);
}
