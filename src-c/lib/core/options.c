/* options.c: PAPI_get_opt / PAPI_set_opt and the calls that are options in disguise
 * (domains, granularity, attach, cpu, inherit, multiplexing flags). Event-set options
 * reopen the set's events in a new component context, so they are allowed only while it is stopped; a failed
 * change puts the old setting back. */
#include <signal.h>
#include <stdbool.h>
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

/* The handler of one option in one direction (the table below PAPI_set_opt's). */
typedef int (*opt_fn)(int option, PAPI_option_t *ptr);

/* Apply a change that needs the perf events reopened; undo it if reopening fails. */
#define RECONFIGURE(es, field, value)               \
    do {                                            \
        __typeof__((es)->field) old_ = (es)->field; \
        (es)->field = (value);                      \
        if ((es)->nnat > 0) {                       \
            int r_ = es_reopen_all(es);             \
            if (r_ != PAPI_OK) {                    \
                (es)->field = old_;                 \
                es_reopen_all(es);                  \
                return r_;                          \
            }                                       \
        }                                           \
    } while (0)

static int set_domain(int option, PAPI_option_t *ptr)
{
    (void)option;
    const int handle = ptr->domain.eventset, domain = ptr->domain.domain;
    struct eventset *es;
    int ret = stopped_set(handle, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!valid_domain(domain))
        return papi_error(PAPI_EINVAL, "domain 0x%x is not a combination of PAPI_DOM_* bits",
                          domain);
    RECONFIGURE(es, domain, domain);
    return PAPI_OK;
}

static int set_granularity(int option, PAPI_option_t *ptr)
{
    (void)option;
    const int handle = ptr->granularity.eventset, grn = ptr->granularity.granularity;
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

static int set_cpu(int option, PAPI_option_t *ptr)
{
    (void)option;
    const int handle = ptr->cpu.eventset;
    const unsigned cpu = ptr->cpu.cpu_num;
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

static int set_inherit(int option, PAPI_option_t *ptr)
{
    (void)option;
    const int handle = ptr->inherit.eventset, inherit = ptr->inherit.inherit;
    struct eventset *es;
    int ret = stopped_set(handle, &es);
    if (ret != PAPI_OK)
        return ret;
    if (inherit != PAPI_INHERIT_ALL && inherit != PAPI_INHERIT_NONE)
        return papi_error(PAPI_EINVAL, "inherit must be PAPI_INHERIT_ALL or PAPI_INHERIT_NONE");
    RECONFIGURE(es, inherit, inherit);
    return PAPI_OK;
}

/* ---- PAPI_set_opt and PAPI_get_opt: one small handler per option and direction ------- */

enum {
    OPT_PTR = 1,  /* the handler reads or fills *ptr: a NULL pointer is refused first */
    OPT_EARLY = 2 /* allowed before PAPI_library_init */
};

static int set_debug(int option, PAPI_option_t *ptr)
{
    (void)option;
    int l = ptr->debug.level;
    if (l != PAPI_QUIET && l != PAPI_VERB_ECONT && l != PAPI_VERB_ESTOP)
        return papi_error(PAPI_EINVAL, "debug level %d is not PAPI_QUIET, VERB_ECONT or VERB_ESTOP",
                          l);
    g_papi.debug_level = l;
    g_papi.debug_handler = ptr->debug.handler;
    return PAPI_OK;
}

static int set_read_only(int option, PAPI_option_t *ptr)
{
    (void)ptr;
    return papi_error(PAPI_EINVAL, "option %d can only be read", option);
}

static int set_address_range(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return papi_error(PAPI_ECMP, "address-range restriction exists only on Itanium; perf_event "
                                 "has no equivalent");
}

static int set_modifier(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return papi_error(PAPI_ECMP, "use the libpfm4 modifiers :e= and :i= in the native event name");
}

static int set_profil(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return papi_error(PAPI_EINVAL, "PAPI_PROFIL is not an option; call PAPI_profil");
}

static int set_user_events(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return papi_error(PAPI_ENOSUPP, "user-defined events are not supported; define presets "
                                    "in a CSV file named by PAPI_CSV_EVENT_FILE");
}

static int set_defdom(int option, PAPI_option_t *ptr)
{
    (void)option;
    if (!valid_domain(ptr->defdomain.domain))
        return papi_error(PAPI_EINVAL, "domain 0x%x is not valid", ptr->defdomain.domain);
    g_papi.default_domain = ptr->defdomain.domain;
    return PAPI_OK;
}

static int set_defgrn(int option, PAPI_option_t *ptr)
{
    (void)option;
    int g = ptr->defgranularity.granularity;
    if (g == PAPI_GRN_PROCG || g == PAPI_GRN_SYS_CPU)
        return papi_error(PAPI_ECMP, "granularity 0x%x is not supported by perf_event", g);
    if (g != PAPI_GRN_THR && g != PAPI_GRN_PROC && g != PAPI_GRN_SYS)
        return papi_error(PAPI_EINVAL, "granularity 0x%x is not valid", g);
    g_papi.default_granularity = g;
    return PAPI_OK;
}

static int set_attach(int option, PAPI_option_t *ptr)
{
    (void)option;
    return PAPI_attach(ptr->attach.eventset, ptr->attach.tid);
}

static int set_detach(int option, PAPI_option_t *ptr)
{
    (void)option;
    return PAPI_detach(ptr->attach.eventset);
}

static int set_multiplex_opt(int option, PAPI_option_t *ptr)
{
    (void)option;
    return PAPI_set_multiplex(ptr->multiplex.eventset);
}

static int set_def_mpx_ns(int option, PAPI_option_t *ptr)
{
    (void)option;
    /* 3.x passes microseconds in .us, 7.x nanoseconds in .ns. */
    if (ptr->multiplex.ns > 0)
        g_papi.mpx_slice_ns = ptr->multiplex.ns;
    else if (ptr->multiplex.us > 0 && ptr->multiplex.us < 2147483)
        g_papi.mpx_slice_ns = ptr->multiplex.us * 1000;
    else
        return papi_error(PAPI_EINVAL, "the multiplexing time slice must be positive");
    return PAPI_OK;
}

static int set_def_itimer_ns(int option, PAPI_option_t *ptr)
{
    (void)option;
    if (ptr->itimer.ns <= 0)
        return papi_error(PAPI_EINVAL, "the timer interval must be positive");
    g_papi.mpx_slice_ns = ptr->itimer.ns;
    return PAPI_OK;
}

static int set_def_itimer(int option, PAPI_option_t *ptr)
{
    (void)option;
    /* As PAPI 7: the timer and signal as given, the interval kept when ns is 0. */
    const int num = ptr->itimer.itimer_num, sig = ptr->itimer.itimer_sig;
    if (num != ITIMER_REAL && num != ITIMER_VIRTUAL && num != ITIMER_PROF)
        return papi_error(PAPI_EINVAL,
                          "itimer_num %d is not ITIMER_REAL, ITIMER_VIRTUAL or ITIMER_PROF", num);
    if (sig <= 0 || sig > SIGRTMAX || sig == SIGKILL || sig == SIGSTOP)
        return papi_error(PAPI_EINVAL, "itimer_sig %d cannot carry the timer", sig);
    if (ptr->itimer.ns < 0)
        return papi_error(PAPI_EINVAL, "the timer interval %d ns is negative", ptr->itimer.ns);
    if (ptr->itimer.ns > 0)
        g_papi.mpx_slice_ns = ptr->itimer.ns;
    g_papi.itimer_num = num;
    g_papi.itimer_sig = sig;
    return PAPI_OK;
}

static int get_debug(int option, PAPI_option_t *ptr)
{
    (void)option;
    ptr->debug.level = g_papi.debug_level;
    ptr->debug.handler = g_papi.debug_handler;
    return PAPI_OK;
}

static int get_lib_version(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return PAPI_VERSION;
}

static int get_defdom(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return g_papi.default_domain;
}

static int get_defgrn(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return g_papi.default_granularity;
}

static int get_max_hwctrs(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return PAPI_num_hwctrs();
}

static int get_max_mpx_ctrs(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    return ES_MAX_NATIVES;
}

static int get_def_mpx_ns(int option, PAPI_option_t *ptr)
{
    (void)option;
    if (ptr) { /* optional: the slice is also the return value */
        ptr->multiplex.ns = g_papi.mpx_slice_ns;
        ptr->multiplex.us = g_papi.mpx_slice_ns / 1000;
    }
    return g_papi.mpx_slice_ns;
}

static int get_clockrate(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    return hw ? (int)hw->mhz : 0;
}

static int get_max_cpus(int option, PAPI_option_t *ptr)
{
    (void)option, (void)ptr;
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    return hw ? hw->totalcpus : 0;
}

static int get_not_on_perf(int option, PAPI_option_t *ptr)
{
    (void)ptr;
    return papi_error(PAPI_ECMP, "option %d does not exist on perf_event", option);
}

static int get_unreadable(int option, PAPI_option_t *ptr)
{
    (void)ptr;
    return papi_error(PAPI_EINVAL, "option %d cannot be read", option);
}

static int get_domain(int option, PAPI_option_t *ptr)
{
    (void)option;
    struct eventset *es;
    int ret = es_get(ptr->domain.eventset, &es);
    if (ret != PAPI_OK)
        return ret;
    ptr->domain.domain = es->domain;
    return es->domain;
}

static int get_granul(int option, PAPI_option_t *ptr)
{
    (void)option;
    struct eventset *es;
    int ret = es_get(ptr->granularity.eventset, &es);
    if (ret != PAPI_OK)
        return ret;
    ptr->granularity.granularity = es->granularity;
    return es->granularity;
}

/* PAPI_ATTACH returns 1 when the set is attached, PAPI_DETACH 1 when it is not. */
static int get_attach(int option, PAPI_option_t *ptr)
{
    struct eventset *es;
    int ret = es_get(ptr->attach.eventset, &es);
    if (ret != PAPI_OK)
        return ret;
    int attached = (es->state & PAPI_ATTACHED) != 0;
    ptr->attach.tid = attached ? (unsigned long)es->attach_tid : 0;
    return option == PAPI_ATTACH ? attached : !attached;
}

static int get_cpu_attach(int option, PAPI_option_t *ptr)
{
    (void)option;
    struct eventset *es;
    int ret = es_get(ptr->cpu.eventset, &es);
    if (ret != PAPI_OK)
        return ret;
    ptr->cpu.cpu_num = es->cpu >= 0 ? (unsigned)es->cpu : 0;
    return (es->state & PAPI_CPU_ATTACHED) ? 1 : 0;
}

static int get_inherit(int option, PAPI_option_t *ptr)
{
    (void)option;
    struct eventset *es;
    int ret = es_get(ptr->inherit.eventset, &es);
    if (ret != PAPI_OK)
        return ret;
    ptr->inherit.inherit = es->inherit;
    return es->inherit;
}

static int get_multiplex(int option, PAPI_option_t *ptr)
{
    (void)option;
    struct eventset *es;
    int ret = es_get(ptr->multiplex.eventset, &es);
    if (ret != PAPI_OK)
        return ret;
    ptr->multiplex.ns = g_papi.mpx_slice_ns;
    ptr->multiplex.us = g_papi.mpx_slice_ns / 1000;
    ptr->multiplex.flags = PAPI_MULTIPLEX_DEFAULT;
    return es->multiplexed;
}

static int get_itimer(int option, PAPI_option_t *ptr)
{
    (void)option;
    ptr->itimer.ns = g_papi.mpx_slice_ns;
    ptr->itimer.itimer_num = g_papi.itimer_sig ? g_papi.itimer_num : ITIMER_PROF;
    if (g_papi.itimer_sig) {
        ptr->itimer.itimer_sig = g_papi.itimer_sig;
    } else {
        const PAPI_component_info_t *c0 = component_info(0);
        ptr->itimer.itimer_sig = c0 ? c0->hardware_intr_sig : 0;
    }
    return PAPI_OK;
}

static int get_preload(int option, PAPI_option_t *ptr)
{
    (void)option;
    memset(&ptr->preload, 0, sizeof ptr->preload);
    papi_strcpy(ptr->preload.lib_preload_env, sizeof ptr->preload.lib_preload_env, "LD_PRELOAD");
    ptr->preload.lib_preload_sep = ' ';
    papi_strcpy(ptr->preload.lib_dir_env, sizeof ptr->preload.lib_dir_env, "LD_LIBRARY_PATH");
    ptr->preload.lib_dir_sep = ':';
    return PAPI_OK;
}

static int get_hwinfo(int option, PAPI_option_t *ptr)
{
    (void)option;
    ptr->hw_info = (PAPI_hw_info_t *)PAPI_get_hardware_info();
    return ptr->hw_info ? PAPI_OK : PAPI_ESYS;
}

static int get_exeinfo(int option, PAPI_option_t *ptr)
{
    (void)option;
    ptr->exe_info = (PAPI_exe_info_t *)PAPI_get_executable_info();
    return ptr->exe_info ? PAPI_OK : PAPI_ESYS;
}

static int get_shlibinfo(int option, PAPI_option_t *ptr)
{
    (void)option;
    ptr->shlib_info = (PAPI_shlib_info_t *)PAPI_get_shared_lib_info();
    return ptr->shlib_info ? PAPI_OK : PAPI_ESYS;
}

static int get_componentinfo(int option, PAPI_option_t *ptr)
{
    (void)option;
    ptr->cmp_info = (PAPI_component_info_t *)PAPI_get_component_info(0);
    return PAPI_OK;
}

struct opt_handlers {
    opt_fn opt_set, opt_get; /* named apart: doc/error_scan.py follows .opt_set to each */
    unsigned char set_flags, get_flags; /* OPT_PTR, OPT_EARLY */
};

/* set_read_only: the options that can only be read. */
static const struct opt_handlers opt_table[PAPI_USER_EVENTS_FILE + 1] = {
    [PAPI_DEBUG] = {.opt_set = set_debug,
                    .opt_get = get_debug,
                    .set_flags = OPT_PTR | OPT_EARLY,
                    .get_flags = OPT_PTR | OPT_EARLY},
    [PAPI_LIB_VERSION] = {.opt_set = set_read_only,
                          .opt_get = get_lib_version,
                          .set_flags = 0,
                          .get_flags = OPT_EARLY},
    [PAPI_DEFDOM] = {.opt_set = set_defdom,
                     .opt_get = get_defdom,
                     .set_flags = OPT_PTR,
                     .get_flags = 0},
    [PAPI_DOMAIN] = {.opt_set = set_domain,
                     .opt_get = get_domain,
                     .set_flags = OPT_PTR,
                     .get_flags = OPT_PTR},
    [PAPI_DEFGRN] = {.opt_set = set_defgrn,
                     .opt_get = get_defgrn,
                     .set_flags = OPT_PTR,
                     .get_flags = 0},
    [PAPI_GRANUL] = {.opt_set = set_granularity,
                     .opt_get = get_granul,
                     .set_flags = OPT_PTR,
                     .get_flags = OPT_PTR},
    [PAPI_ATTACH] = {.opt_set = set_attach,
                     .opt_get = get_attach,
                     .set_flags = OPT_PTR,
                     .get_flags = OPT_PTR},
    [PAPI_DETACH] = {.opt_set = set_detach,
                     .opt_get = get_attach,
                     .set_flags = OPT_PTR,
                     .get_flags = OPT_PTR},
    [PAPI_CPU_ATTACH] = {.opt_set = set_cpu,
                         .opt_get = get_cpu_attach,
                         .set_flags = OPT_PTR,
                         .get_flags = OPT_PTR},
    [PAPI_INHERIT] = {.opt_set = set_inherit,
                      .opt_get = get_inherit,
                      .set_flags = OPT_PTR,
                      .get_flags = OPT_PTR},
    [PAPI_MULTIPLEX] = {.opt_set = set_multiplex_opt,
                        .opt_get = get_multiplex,
                        .set_flags = OPT_PTR,
                        .get_flags = OPT_PTR},
    [PAPI_DEF_MPX_NS] = {.opt_set = set_def_mpx_ns,
                         .opt_get = get_def_mpx_ns,
                         .set_flags = OPT_PTR,
                         .get_flags = 0},
    [PAPI_DEF_ITIMER] = {.opt_set = set_def_itimer,
                         .opt_get = get_itimer,
                         .set_flags = OPT_PTR,
                         .get_flags = OPT_PTR},
    [PAPI_DEF_ITIMER_NS] = {.opt_set = set_def_itimer_ns,
                            .opt_get = get_itimer,
                            .set_flags = OPT_PTR,
                            .get_flags = OPT_PTR},
    [PAPI_MAX_HWCTRS] = {.opt_set = set_read_only,
                         .opt_get = get_max_hwctrs,
                         .set_flags = 0,
                         .get_flags = 0},
    [PAPI_MAX_MPX_CTRS] = {.opt_set = set_read_only,
                           .opt_get = get_max_mpx_ctrs,
                           .set_flags = 0,
                           .get_flags = 0},
    [PAPI_CLOCKRATE] = {.opt_set = set_read_only,
                        .opt_get = get_clockrate,
                        .set_flags = 0,
                        .get_flags = 0},
    [PAPI_MAX_CPUS] = {.opt_set = set_read_only,
                       .opt_get = get_max_cpus,
                       .set_flags = 0,
                       .get_flags = 0},
    [PAPI_HWINFO] = {.opt_set = set_read_only,
                     .opt_get = get_hwinfo,
                     .set_flags = 0,
                     .get_flags = OPT_PTR},
    [PAPI_EXEINFO] = {.opt_set = set_read_only,
                      .opt_get = get_exeinfo,
                      .set_flags = 0,
                      .get_flags = OPT_PTR},
    [PAPI_SHLIBINFO] = {.opt_set = set_read_only,
                        .opt_get = get_shlibinfo,
                        .set_flags = 0,
                        .get_flags = OPT_PTR},
    [PAPI_COMPONENTINFO] = {.opt_set = set_read_only,
                            .opt_get = get_componentinfo,
                            .set_flags = 0,
                            .get_flags = OPT_PTR},
    [PAPI_PRELOAD] = {.opt_set = set_read_only,
                      .opt_get = get_preload,
                      .set_flags = 0,
                      .get_flags = OPT_PTR},
    [PAPI_DATA_ADDRESS] = {.opt_set = set_address_range,
                           .opt_get = get_not_on_perf,
                           .set_flags = 0,
                           .get_flags = 0},
    [PAPI_INSTR_ADDRESS] = {.opt_set = set_address_range,
                            .opt_get = get_not_on_perf,
                            .set_flags = 0,
                            .get_flags = 0},
    [PAPI_EDGE_DETECT] = {.opt_set = set_modifier,
                          .opt_get = get_not_on_perf,
                          .set_flags = 0,
                          .get_flags = 0},
    [PAPI_INVERT] = {.opt_set = set_modifier,
                     .opt_get = get_not_on_perf,
                     .set_flags = 0,
                     .get_flags = 0},
    [PAPI_PROFIL] = {.opt_set = set_profil,
                     .opt_get = get_unreadable,
                     .set_flags = 0,
                     .get_flags = 0},
    [PAPI_USER_EVENTS_FILE] = {.opt_set = set_user_events,
                               .opt_get = get_unreadable,
                               .set_flags = 0,
                               .get_flags = 0},
};

/* The handler of option in one direction (get: 1), checked as its flags say; an unknown
 * option needs the library and a pointer like most, then is refused. */
static int run_option(int option, PAPI_option_t *ptr, int get)
{
    const struct opt_handlers *h =
        option > 0 && option <= PAPI_USER_EVENTS_FILE ? &opt_table[option] : NULL;
    bool known = h && (get ? h->opt_get : h->opt_set);
    unsigned flags = known ? (get ? h->get_flags : h->set_flags) : OPT_PTR;
    if (!(flags & OPT_EARLY))
        PAPI_CHECK_INIT();
    if ((flags & OPT_PTR) && !ptr)
        return papi_error(PAPI_EINVAL, "option pointer is NULL");
    if (!known)
        return papi_error(PAPI_EINVAL, "%d is not a PAPI option", option);
    return get ? h->opt_get(option, ptr) : h->opt_set(option, ptr);
}

int PAPI_set_opt(int option, PAPI_option_t *ptr)
{
    PAPI_CALL_GUARD();
    return run_option(option, ptr, 0);
}

int PAPI_get_opt(int option, PAPI_option_t *ptr)
{
    PAPI_CALL_GUARD();
    return run_option(option, ptr, 1);
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
