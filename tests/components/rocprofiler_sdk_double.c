/* rocprofiler_sdk_double.c: a test double of AMD's rocprofiler-sdk (librocprofiler-sdk.so.0),
 * built against the component's own declarations (rocprofiler_sdk_api.h), for the rocp_sdk
 * component's tests. What it holds is staged in the file PAPI_TEST_ROCP_SDK names, one
 * line each:
 *     agent cpu | agent gpu <name> <product>       the agents, in node order
 *     counter <NAME> <gpus: 0,1> <value> <DIM:SIZE,...|-> <description ...>
 *     configure_locked | context_conflict | hw_limit <n>
 * (the last three also from PAPI_TEST_ROCP_SDK_MODE, one of them, or agents_fail: the
 * agents query fails as the SDK's does where the HSA runtime cannot start).
 * A "dispatch" is made by the test: rocp_sdk_double_dispatch(device) calls the dispatch
 * callback on the calling thread, and, where it chose a configuration, the record callback
 * with one record per counter of it and per dimension instance (instance i, in row-major
 * order of the counter's dimensions, counts value * (i + 1)). The record's instance id is
 * the counter's id plus the instance << 16; counter ids are the line's order from 1, the
 * same on every device (as one architecture's are). Version 1.0.0: records of 40 bytes;
 * built with ROCP_DOUBLE_V0, version 0.6.0: records of 32 (no agent id at their end). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocprofiler_sdk_api.h"

#define MAX_AGENTS   8
#define MAX_COUNTERS 16
#define MAX_DIMS     4
#define MAX_CONFIGS  256
#define MAX_NAMES    16

static struct {
    int loaded;
    rocprofiler_agent_v0_t agent[MAX_AGENTS];
    char agent_names[MAX_AGENTS][2][64];
    int nagents;
    struct {
        char name[64], descr[256];
        unsigned gpus; /* bit per GPU index */
        double value;
        int ndims;
        int dim[MAX_DIMS]; /* into dim_names */
        size_t size[MAX_DIMS];
    } counter[MAX_COUNTERS];
    int ncounters;
    char dim_names[MAX_NAMES][48];
    int nnames;
    int configure_locked, context_conflict, hw_limit, agents_fail;
    /* the tool */
    rocprofiler_dispatch_counting_service_cb_t dispatch_cb;
    rocprofiler_dispatch_counting_record_cb_t record_cb;
    void *dispatch_args, *record_args;
    int contexts, started, configures;
    struct {
        int live, gpu, n;
        uint64_t ids[MAX_COUNTERS];
    } config[MAX_CONFIGS];
} d;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int dim_id(const char *name)
{
    for (int i = 0; i < d.nnames; i++)
        if (strcmp(d.dim_names[i], name) == 0)
            return i;
    snprintf(d.dim_names[d.nnames], sizeof d.dim_names[0], "%s", name);
    return d.nnames++;
}

static void load(void)
{
    if (d.loaded)
        return;
    d.loaded = 1;
    const char *path = getenv("PAPI_TEST_ROCP_SDK");
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[512];
    int gpus = 0;
    while (f && fgets(line, sizeof line, f)) {
        char w[5][256] = {{0}};
        int off = 0;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || sscanf(line, "%255s%n", w[0], &off) < 1)
            continue;
        if (strcmp(w[0], "agent") == 0 && d.nagents < MAX_AGENTS) {
            rocprofiler_agent_v0_t *a = &d.agent[d.nagents];
            sscanf(line + off, "%255s %63s %63s", w[1], d.agent_names[d.nagents][0],
                   d.agent_names[d.nagents][1]);
            a->size = sizeof *a;
            a->id.handle = 1000 + (uint64_t)d.nagents;
            a->type =
                strcmp(w[1], "gpu") == 0 ? ROCPROFILER_AGENT_TYPE_GPU : ROCPROFILER_AGENT_TYPE_CPU;
            a->name = d.agent_names[d.nagents][0];
            a->product_name = d.agent_names[d.nagents][1];
            a->node_id = (uint32_t)d.nagents;
            a->logical_node_id = d.nagents;
            a->logical_node_type_id = a->type == ROCPROFILER_AGENT_TYPE_GPU ? gpus++ : 0;
            d.nagents++;
        } else if (strcmp(w[0], "counter") == 0 && d.ncounters < MAX_COUNTERS) {
            int used = 0;
            sscanf(line + off, "%63s %255s %255s %255s %n", w[1], w[2], w[3], w[4], &used);
            snprintf(d.counter[d.ncounters].name, 64, "%s", w[1]);
            for (char *g = strtok(w[2], ","); g; g = strtok(NULL, ","))
                d.counter[d.ncounters].gpus |= 1u << atoi(g);
            d.counter[d.ncounters].value = atof(w[3]);
            for (char *t = strtok(w[4], ","); t && strcmp(t, "-") != 0; t = strtok(NULL, ",")) {
                char *colon = strchr(t, ':');
                int k = d.counter[d.ncounters].ndims++;
                *colon = '\0';
                d.counter[d.ncounters].dim[k] = dim_id(t);
                d.counter[d.ncounters].size[k] = (size_t)atoi(colon + 1);
            }
            snprintf(d.counter[d.ncounters].descr, 256, "%s", line + off + used);
            d.ncounters++;
        } else if (strcmp(w[0], "configure_locked") == 0) {
            d.configure_locked = 1;
        } else if (strcmp(w[0], "context_conflict") == 0) {
            d.context_conflict = 1;
        } else if (strcmp(w[0], "hw_limit") == 0) {
            d.hw_limit = atoi(line + off);
        }
    }
    if (f)
        fclose(f);
    const char *mode = getenv("PAPI_TEST_ROCP_SDK_MODE");
    if (mode && strcmp(mode, "configure_locked") == 0)
        d.configure_locked = 1;
    else if (mode && strcmp(mode, "context_conflict") == 0)
        d.context_conflict = 1;
    else if (mode && strncmp(mode, "hw_limit=", 9) == 0)
        d.hw_limit = atoi(mode + 9);
    else if (mode && strcmp(mode, "agents_fail") == 0)
        d.agents_fail = 1;
}

static int gpu_of(rocprofiler_agent_id_t agent)
{
    for (int i = 0; i < d.nagents; i++)
        if (d.agent[i].id.handle == agent.handle && d.agent[i].type == ROCPROFILER_AGENT_TYPE_GPU)
            return d.agent[i].logical_node_type_id;
    return -1;
}

static size_t instances(int c)
{
    size_t n = 1;
    for (int k = 0; k < d.counter[c].ndims; k++)
        n *= d.counter[c].size[k];
    return n;
}

/* ---- the SDK's calls -------------------------------------------------------------------- */
rocprofiler_status_t rocprofiler_get_version(uint32_t *major, uint32_t *minor, uint32_t *patch)
{
#ifdef ROCP_DOUBLE_V0
    *major = 0; /* ROCm 6.x's: records without the agent's id */
    *minor = 6;
#else
    *major = 1;
    *minor = 0;
#endif
    *patch = 0;
    return ROCPROFILER_STATUS_SUCCESS;
}

const char *rocprofiler_get_status_string(rocprofiler_status_t status)
{
    switch (status) {
    case ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT:
        return "Context operation failed due to a conflict with another context";
    case ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED:
        return "Function call is not valid outside of rocprofiler configuration";
    case ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT:
        return "Exceeds hardware limits for collection";
    case ROCPROFILER_STATUS_ERROR_HSA_NOT_LOADED:
        return "Call requires HSA to be loaded before performed";
    default:
        return "Generalized error";
    }
}

rocprofiler_status_t rocprofiler_force_configure(rocprofiler_configure_func_t configure)
{
    load();
    d.configures++;
    if (d.configure_locked)
        return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    rocprofiler_client_id_t id = {.name = NULL, .handle = 1};
    rocprofiler_tool_configure_result_t *r = configure(1, "1.0.0", 0, &id);
    if (r && r->initialize)
        r->initialize(NULL, r->tool_data);
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_create_context(rocprofiler_context_id_t *context)
{
    context->handle = (uint64_t)++d.contexts;
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_start_context(rocprofiler_context_id_t context)
{
    if (context.handle == 0 || (int)context.handle > d.contexts)
        return ROCPROFILER_STATUS_ERROR;
    if (d.context_conflict)
        return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
    d.started++;
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_stop_context(rocprofiler_context_id_t context)
{
    (void)context;
    d.started--;
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_query_available_agents(
    rocprofiler_agent_version_t version, rocprofiler_query_available_agents_cb_t callback,
    size_t agent_size, void *user_data)
{
    load();
    if (version != ROCPROFILER_AGENT_INFO_VERSION_0 || agent_size != sizeof(rocprofiler_agent_v0_t))
        return ROCPROFILER_STATUS_ERROR;
    if (d.agents_fail)
        return ROCPROFILER_STATUS_ERROR_HSA_NOT_LOADED;
    const void *list[MAX_AGENTS];
    for (int i = 0; i < d.nagents; i++)
        list[i] = &d.agent[i];
    return callback(version, list, (size_t)d.nagents, user_data);
}

rocprofiler_status_t rocprofiler_iterate_agent_supported_counters(
    rocprofiler_agent_id_t agent, rocprofiler_available_counters_cb_t callback, void *user_data)
{
    int gpu = gpu_of(agent);
    if (gpu < 0)
        return ROCPROFILER_STATUS_ERROR;
    rocprofiler_counter_id_t ids[MAX_COUNTERS];
    size_t n = 0;
    for (int c = 0; c < d.ncounters; c++)
        if (d.counter[c].gpus & (1u << gpu))
            ids[n++].handle = (uint64_t)c + 1;
    return callback(agent, ids, n, user_data);
}

rocprofiler_status_t rocprofiler_query_counter_info(rocprofiler_counter_id_t counter,
                                                    rocprofiler_counter_info_version_id_t version,
                                                    void *info)
{
    if (counter.handle == 0 || counter.handle > (uint64_t)d.ncounters ||
        version != ROCPROFILER_COUNTER_INFO_VERSION_0)
        return ROCPROFILER_STATUS_ERROR;
    rocprofiler_counter_info_v0_t *i = info;
    *i = (rocprofiler_counter_info_v0_t){.id = counter,
                                         .name = d.counter[counter.handle - 1].name,
                                         .description = d.counter[counter.handle - 1].descr,
                                         .block = "SQ"};
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_iterate_counter_dimensions(
    rocprofiler_counter_id_t counter, rocprofiler_available_dimensions_cb_t callback,
    void *user_data)
{
    if (counter.handle == 0 || counter.handle > (uint64_t)d.ncounters)
        return ROCPROFILER_STATUS_ERROR;
    int c = (int)counter.handle - 1;
    rocprofiler_record_dimension_info_t dims[MAX_DIMS];
    for (int k = 0; k < d.counter[c].ndims; k++)
        dims[k] = (rocprofiler_record_dimension_info_t){.name = d.dim_names[d.counter[c].dim[k]],
                                                        .instance_size = d.counter[c].size[k],
                                                        .id = (uint64_t)d.counter[c].dim[k] + 1};
    return callback(counter, dims, (size_t)d.counter[c].ndims, user_data);
}

rocprofiler_status_t rocprofiler_create_counter_config(rocprofiler_agent_id_t agent,
                                                       rocprofiler_counter_id_t *counters, size_t n,
                                                       rocprofiler_counter_config_id_t *config)
{
    int gpu = gpu_of(agent);
    if (gpu < 0 || n == 0 || n > MAX_COUNTERS || config->handle != 0)
        return ROCPROFILER_STATUS_ERROR;
    if (d.hw_limit && (int)n > d.hw_limit)
        return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
    pthread_mutex_lock(&lock);
    int k = 0;
    while (k < MAX_CONFIGS && d.config[k].live)
        k++;
    if (k == MAX_CONFIGS) {
        pthread_mutex_unlock(&lock);
        return ROCPROFILER_STATUS_ERROR;
    }
    d.config[k].live = 1;
    d.config[k].gpu = gpu;
    d.config[k].n = (int)n;
    for (size_t i = 0; i < n; i++)
        d.config[k].ids[i] = counters[i].handle;
    pthread_mutex_unlock(&lock);
    config->handle = (uint64_t)k + 1;
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t config)
{
    pthread_mutex_lock(&lock);
    int ok = config.handle && config.handle <= MAX_CONFIGS && d.config[config.handle - 1].live;
    if (ok)
        d.config[config.handle - 1].live = 0;
    pthread_mutex_unlock(&lock);
    return ok ? ROCPROFILER_STATUS_SUCCESS : ROCPROFILER_STATUS_ERROR;
}

rocprofiler_status_t rocprofiler_configure_callback_dispatch_counting_service(
    rocprofiler_context_id_t context, rocprofiler_dispatch_counting_service_cb_t dispatch_cb,
    void *dispatch_args, rocprofiler_dispatch_counting_record_cb_t record_cb, void *record_args)
{
    if (context.handle == 0 || !dispatch_cb || !record_cb)
        return ROCPROFILER_STATUS_ERROR;
    d.dispatch_cb = dispatch_cb;
    d.dispatch_args = dispatch_args;
    d.record_cb = record_cb;
    d.record_args = record_args;
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_query_record_counter_id(rocprofiler_counter_instance_id_t id,
                                                         rocprofiler_counter_id_t *counter)
{
    counter->handle = id & 0xffff;
    return counter->handle && counter->handle <= (uint64_t)d.ncounters ? ROCPROFILER_STATUS_SUCCESS
                                                                       : ROCPROFILER_STATUS_ERROR;
}

rocprofiler_status_t rocprofiler_query_record_dimension_position(
    rocprofiler_counter_instance_id_t id, rocprofiler_counter_dimension_id_t dim, size_t *pos)
{
    uint64_t c = id & 0xffff;
    size_t flat = (size_t)(id >> 16);
    if (c == 0 || c > (uint64_t)d.ncounters)
        return ROCPROFILER_STATUS_ERROR;
    for (int k = d.counter[c - 1].ndims - 1; k >= 0; k--) { /* the last dimension fastest */
        size_t here = flat % d.counter[c - 1].size[k];
        flat /= d.counter[c - 1].size[k];
        if ((uint64_t)d.counter[c - 1].dim[k] + 1 == dim) {
            *pos = here;
            return ROCPROFILER_STATUS_SUCCESS;
        }
    }
    return ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND;
}

/* ---- the test's side ---------------------------------------------------------------------- */
/* A kernel dispatched on GPU device by the calling thread, and its counts delivered: the
 * number of records delivered (0: the tool chose no configuration), -1 for no such GPU or
 * no service configured. */
int rocp_sdk_double_dispatch(int device)
{
    int agent = -1;
    for (int i = 0; i < d.nagents; i++)
        if (d.agent[i].type == ROCPROFILER_AGENT_TYPE_GPU &&
            d.agent[i].logical_node_type_id == device)
            agent = i;
    if (agent < 0 || !d.dispatch_cb || d.started <= 0)
        return -1;
    static uint64_t next_dispatch = 1;
    rocprofiler_dispatch_counting_service_data_t data = {.size = sizeof data};
    data.dispatch_info.size = sizeof data.dispatch_info;
    data.dispatch_info.agent_id = d.agent[agent].id;
    pthread_mutex_lock(&lock);
    data.dispatch_info.dispatch_id = next_dispatch++;
    pthread_mutex_unlock(&lock);
    rocprofiler_counter_config_id_t config = {0};
    rocprofiler_user_data_t user = {0};
    d.dispatch_cb(data, &config, &user, d.dispatch_args);
    if (config.handle == 0)
        return 0;
    if (config.handle > MAX_CONFIGS || !d.config[config.handle - 1].live ||
        d.config[config.handle - 1].gpu != device)
        return -2; /* a configuration of another device, or destroyed */
    /* The records at the stride of the version the double reports. */
    static _Thread_local unsigned char bytes[256 * sizeof(rocprofiler_counter_record_t)];
#ifdef ROCP_DOUBLE_V0
    size_t stride = ROCP_RECORD_SIZE_V0;
#else
    size_t stride = ROCP_RECORD_SIZE_V1;
#endif
    size_t n = 0;
    for (int i = 0; i < d.config[config.handle - 1].n; i++) {
        int c = (int)d.config[config.handle - 1].ids[i] - 1;
        for (size_t k = 0; k < instances(c) && n < 256; k++, n++) {
            rocprofiler_counter_record_t r = {.id = (uint64_t)(c + 1) | ((uint64_t)k << 16),
                                              .counter_value = d.counter[c].value * (double)(k + 1),
                                              .dispatch_id = data.dispatch_info.dispatch_id,
                                              .user_data = user,
                                              .agent_id = d.agent[agent].id};
            memcpy(bytes + n * stride, &r, stride);
        }
    }
    d.record_cb(data, (rocprofiler_counter_record_t *)(void *)bytes, n, user, d.record_args);
    return (int)n;
}

/* How many times rocprofiler_force_configure was called. */
int rocp_sdk_double_configures(void)
{
    return d.configures;
}

/* Contexts started and not stopped. */
int rocp_sdk_double_started(void)
{
    return d.started;
}

/* Configurations made and not destroyed. */
int rocp_sdk_double_live_configs(void)
{
    int n = 0;
    pthread_mutex_lock(&lock);
    for (int k = 0; k < MAX_CONFIGS; k++)
        n += d.config[k].live;
    pthread_mutex_unlock(&lock);
    return n;
}
