/* rocp_sdk_dispatch.c: which event set counts a kernel dispatch (rocp_sdk_dispatch.h). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rocp_sdk_dispatch.h"
#include "rocp_sdk_libs.h"

/* The running sets and the counts added to them: taken by the SDK's callbacks (on the
 * enqueuing thread, and where the counts arrive) and by the component around its reads;
 * no other lock inside, only the SDK's record queries. */
static pthread_mutex_t dispatch_lock = PTHREAD_MUTEX_INITIALIZER;
/* The context's start at the first running set and stop after the last (the SDK's calls
 * under it; dispatch_lock is never held with it). */
static pthread_mutex_t context_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
    int configured;  /* rocprofiler_force_configure called (once per process) */
    int initialised; /* the SDK ran our initialize: the context is made */
    int finalized;   /* the SDK finalized the tool (the process exits) */
    int status;      /* the failed call's status, when not initialised */
    const char *failed;
    rocprofiler_context_id_t context;
    rocprofiler_agent_id_t agents[ROCP_MAX_DEVICES];
    int ndevices;
    struct rocp_run *runs; /* the running sets */
    uint64_t next_serial;
    int started; /* running sets, the context started while > 0 */
} sdk;

void rocp_dispatch_lock(void)
{
    pthread_mutex_lock(&dispatch_lock);
}

void rocp_dispatch_unlock(void)
{
    pthread_mutex_unlock(&dispatch_lock);
}

void rocp_dispatch_agents(const rocprofiler_agent_id_t *agents, int n)
{
    pthread_mutex_lock(&dispatch_lock);
    sdk.ndevices = n < ROCP_MAX_DEVICES ? n : ROCP_MAX_DEVICES;
    memcpy(sdk.agents, agents, (size_t)sdk.ndevices * sizeof *agents);
    pthread_mutex_unlock(&dispatch_lock);
}

/* Under dispatch_lock, or once the agents are set. */
int rocp_dispatch_device_of(rocprofiler_agent_id_t agent)
{
    for (int d = 0; d < sdk.ndevices; d++)
        if (sdk.agents[d].handle == agent.handle)
            return d;
    return -1;
}

/* ---- the SDK's callbacks ---------------------------------------------------------------- */
static void on_dispatch(rocprofiler_dispatch_counting_service_data_t data,
                        rocprofiler_counter_config_id_t *config, rocprofiler_user_data_t *user,
                        void *args)
{
    (void)args;
    pthread_t self = pthread_self();
    pthread_mutex_lock(&dispatch_lock);
    int device = rocp_dispatch_device_of(data.dispatch_info.agent_id);
    for (struct rocp_run *r = sdk.runs; device >= 0 && r; r = r->next)
        if (pthread_equal(r->thread, self)) {
            if (r->config[device].handle) {
                *config = r->config[device];
                user->value = r->serial;
            }
            break;
        }
    pthread_mutex_unlock(&dispatch_lock);
}

/* Whether the record is of c's counter and dimension instances. */
static int matches(const struct rocp_counted *c, rocprofiler_counter_instance_id_t id,
                   uint64_t counter)
{
    if (counter != c->counter)
        return 0;
    for (int k = 0; k < c->ndims; k++) {
        size_t pos = 0;
        if (rocp_lib.rocprofiler_query_record_dimension_position(id, c->dim[k].id, &pos) !=
                ROCPROFILER_STATUS_SUCCESS ||
            pos != c->dim[k].pos)
            return 0;
    }
    return 1;
}

static void on_records(rocprofiler_dispatch_counting_service_data_t data,
                       rocprofiler_counter_record_t *records, size_t count,
                       rocprofiler_user_data_t user, void *args)
{
    (void)args;
    pthread_mutex_lock(&dispatch_lock);
    int device = rocp_dispatch_device_of(data.dispatch_info.agent_id);
    struct rocp_run *r = sdk.runs;
    while (r && r->serial != user.value)
        r = r->next; /* a set stopped since the dispatch: its counts are not added */
    for (size_t i = 0; r && device >= 0 && i < count; i++) {
        const rocprofiler_counter_record_t *rec =
            (const void *)((const char *)records + i * rocp_lib.record_size);
        rocprofiler_counter_id_t counter = {0};
        if (rocp_lib.rocprofiler_query_record_counter_id(rec->id, &counter) !=
            ROCPROFILER_STATUS_SUCCESS)
            continue;
        for (int k = 0; k < r->n; k++)
            if (r->counted[k]->device == device && matches(r->counted[k], rec->id, counter.handle))
                r->counted[k]->total += rec->counter_value;
    }
    pthread_mutex_unlock(&dispatch_lock);
}

/* ---- the tool's registration ----------------------------------------------------------- */
static int tool_initialize(rocprofiler_client_finalize_t finalize, void *data)
{
    (void)finalize;
    (void)data;
    rocprofiler_status_t s = rocp_lib.rocprofiler_create_context(&sdk.context);
    if (s != ROCPROFILER_STATUS_SUCCESS) {
        sdk.failed = "rocprofiler_create_context";
        sdk.status = s;
        return -1;
    }
    s = rocp_lib.rocprofiler_configure_callback_dispatch_counting_service(sdk.context, on_dispatch,
                                                                          NULL, on_records, NULL);
    if (s != ROCPROFILER_STATUS_SUCCESS) {
        sdk.failed = "rocprofiler_configure_callback_dispatch_counting_service";
        sdk.status = s;
        return -1;
    }
    sdk.initialised = 1;
    return 0;
}

static void tool_finalize(void *data)
{
    (void)data;
    pthread_mutex_lock(&dispatch_lock);
    sdk.finalized = 1;
    pthread_mutex_unlock(&dispatch_lock);
}

static rocprofiler_tool_configure_result_t *tool_configure(uint32_t version, const char *runtime,
                                                           uint32_t priority,
                                                           rocprofiler_client_id_t *id)
{
    (void)version;
    (void)runtime;
    (void)priority;
    static rocprofiler_tool_configure_result_t result = {
        .size = sizeof result, .initialize = tool_initialize, .finalize = tool_finalize};
    if (id)
        id->name = "papi-compat rocp_sdk";
    return &result;
}

int rocp_dispatch_configure(char *reason, size_t len)
{
    if (!sdk.configured) {
        sdk.configured = 1;
        rocprofiler_status_t s = rocp_lib.rocprofiler_force_configure(tool_configure);
        if (s != ROCPROFILER_STATUS_SUCCESS && !sdk.failed) {
            sdk.failed = "rocprofiler_force_configure";
            sdk.status = s;
        }
    }
    if (sdk.initialised)
        return PAPI_OK;
    if (!sdk.failed)
        snprintf(reason, len,
                 "rocprofiler_force_configure of %s did not initialise this tool: another tool "
                 "configured rocprofiler-sdk first",
                 rocp_lib.path);
    else if (sdk.status == ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED)
        snprintf(reason, len,
                 "%s of %s failed: %s: rocprofiler-sdk was configured before (another tool, or "
                 "the GPU runtime started first)",
                 sdk.failed, rocp_lib.path, rocp_sdk_words(sdk.status));
    else
        snprintf(reason, len, "%s of %s failed: %s", sdk.failed, rocp_lib.path,
                 rocp_sdk_words(sdk.status));
    return PAPI_ECMP;
}

/* ---- configurations and running sets --------------------------------------------------- */
int rocp_dispatch_config(int device, const uint64_t *counters, int n,
                         rocprofiler_counter_config_id_t *config)
{
    rocprofiler_counter_id_t ids[64];
    if (n > 64)
        return papi_error(PAPI_ECNFLCT, "rocp_sdk: %d counters on device %d (64 at most)", n,
                          device);
    for (int i = 0; i < n; i++)
        ids[i].handle = counters[i];
    *config = (rocprofiler_counter_config_id_t){0};
    rocprofiler_status_t s =
        rocp_lib.rocprofiler_create_counter_config(sdk.agents[device], ids, (size_t)n, config);
    if (s == ROCPROFILER_STATUS_SUCCESS)
        return PAPI_OK;
    *config = (rocprofiler_counter_config_id_t){0};
    return papi_error(s == ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT ? PAPI_ECNFLCT : PAPI_ECMP,
                      "rocp_sdk: rocprofiler_create_counter_config for %d counter%s on device %d "
                      "failed: %s",
                      n, n == 1 ? "" : "s", device, rocp_sdk_words(s));
}

void rocp_dispatch_config_free(rocprofiler_counter_config_id_t *config)
{
    if (config->handle)
        rocp_lib.rocprofiler_destroy_counter_config(*config);
    config->handle = 0;
}

int rocp_dispatch_begin(struct rocp_run *run)
{
    pthread_t self = pthread_self();
    pthread_mutex_lock(&dispatch_lock);
    int busy = 0;
    for (struct rocp_run *r = sdk.runs; r; r = r->next)
        busy |= pthread_equal(r->thread, self);
    int finalized = sdk.finalized;
    pthread_mutex_unlock(&dispatch_lock);
    if (busy)
        return papi_error(PAPI_ECNFLCT,
                          "rocp_sdk: another event set of this thread counts GPU dispatches "
                          "already (a dispatch is counted for one set): stop it first");
    if (finalized)
        return papi_error(PAPI_ECMP, "rocp_sdk: rocprofiler-sdk finalized this tool (the "
                                     "process is exiting)");
    pthread_mutex_lock(&context_lock);
    if (sdk.started == 0) {
        rocprofiler_status_t s = rocp_lib.rocprofiler_start_context(sdk.context);
        if (s != ROCPROFILER_STATUS_SUCCESS) {
            pthread_mutex_unlock(&context_lock);
            int conflict = s == ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT ||
                           s == ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT;
            return papi_error(conflict ? PAPI_ECNFLCT : PAPI_ECMP,
                              "rocp_sdk: rocprofiler_start_context failed: %s%s", rocp_sdk_words(s),
                              conflict ? ": another context (another profiler, or agent "
                                         "counting) holds the GPU's counters"
                                       : "");
        }
    }
    sdk.started++;
    pthread_mutex_lock(&dispatch_lock);
    run->thread = self;
    run->serial = ++sdk.next_serial;
    run->next = sdk.runs;
    sdk.runs = run;
    pthread_mutex_unlock(&dispatch_lock);
    pthread_mutex_unlock(&context_lock);
    return PAPI_OK;
}

void rocp_dispatch_end(struct rocp_run *run)
{
    pthread_mutex_lock(&context_lock);
    pthread_mutex_lock(&dispatch_lock);
    int found = 0;
    for (struct rocp_run **p = &sdk.runs; *p; p = &(*p)->next)
        if (*p == run) {
            *p = run->next;
            found = 1;
            break;
        }
    pthread_mutex_unlock(&dispatch_lock);
    if (found && --sdk.started == 0)
        rocp_lib.rocprofiler_stop_context(sdk.context);
    pthread_mutex_unlock(&context_lock);
}
