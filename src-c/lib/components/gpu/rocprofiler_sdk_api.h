/* rocprofiler_sdk_api.h: the types and calls of AMD's rocprofiler-sdk that the rocp_sdk
 * component uses (its dispatch counting service), declared from the SDK's documented C API
 * (rocprofiler-sdk/fwd.h, agent.h, registration.h, context.h, counters.h, counter_config.h,
 * dispatch_counting_service.h); no ROCm header is needed or copied, so the project builds
 * where no ROCm is. librocprofiler-sdk is never linked: rocp_sdk_libs.c looks these names
 * up in the library it finds, and the test double
 * (tests/components/rocprofiler_sdk_double.c) defines them against the same declarations.
 *
 * Layouts: every structure the SDK hands over is declared up to the last member read here
 * (an agent's is read only as far as its own size field says it reaches). The counter
 * record gained the agent's id at its end in rocprofiler-sdk 1.0 (ROCm 7.0), which changes
 * the stride of the record array: ROCP_RECORD_SIZE picks it from rocprofiler_get_version. */
#ifndef PAPI_ROCPROFILER_SDK_API_H
#define PAPI_ROCPROFILER_SDK_API_H

#include <stddef.h>
#include <stdint.h>

typedef int rocprofiler_status_t; /* enum rocprofiler_status_t */
#define ROCPROFILER_STATUS_SUCCESS                       0
#define ROCPROFILER_STATUS_ERROR                         1
#define ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT        12 /* another context holds the service */
#define ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED    15 /* too late to configure */
#define ROCPROFILER_STATUS_ERROR_HSA_NOT_LOADED          21
#define ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND           22
#define ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT 30 /* agent counting on this agent */
#define ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT        37 /* too many counters at once */

typedef int rocprofiler_agent_type_t; /* enum rocprofiler_agent_type_t */
#define ROCPROFILER_AGENT_TYPE_CPU 1
#define ROCPROFILER_AGENT_TYPE_GPU 2

typedef int rocprofiler_agent_version_t;
#define ROCPROFILER_AGENT_INFO_VERSION_0 1
typedef int rocprofiler_counter_info_version_id_t;
#define ROCPROFILER_COUNTER_INFO_VERSION_0 1

typedef uint64_t rocprofiler_counter_instance_id_t;
typedef uint64_t rocprofiler_counter_dimension_id_t;
typedef uint64_t rocprofiler_timestamp_t;
typedef union {
    uint64_t value;
    void *ptr;
} rocprofiler_user_data_t;
typedef struct {
    uint64_t handle;
} rocprofiler_context_id_t;
typedef struct {
    uint64_t handle;
} rocprofiler_agent_id_t;
typedef struct {
    uint64_t handle;
} rocprofiler_counter_id_t;
typedef struct {
    uint64_t handle; /* 0: no configuration (a dispatch not counted) */
} rocprofiler_counter_config_id_t;
typedef struct {
    uint64_t internal;
    rocprofiler_user_data_t external;
} rocprofiler_correlation_id_t;
typedef struct {
    uint32_t x, y, z;
} rocprofiler_dim3_t;

/* ---- agents (agent.h) ---------------------------------------------------------------- */
/* rocprofiler_agent_v0_t, member by member; the kernel driver's 32-bit words (an engine's
 * version, id, capabilities) as uint32_t. */
typedef struct {
    uint64_t size; /* the SDK's sizeof: how far this agent reaches */
    rocprofiler_agent_id_t id;
    rocprofiler_agent_type_t type;
    uint32_t cpu_cores_count, simd_count, mem_banks_count, caches_count, io_links_count;
    uint32_t cpu_core_id_base, simd_id_base, max_waves_per_simd, lds_size_in_kb;
    uint32_t gds_size_in_kb, num_gws, wave_front_size, num_xcc, cu_count, array_count;
    uint32_t num_shader_banks, simd_arrays_per_engine, cu_per_simd_array, simd_per_cu;
    uint32_t max_slots_scratch_cu, gfx_target_version;
    uint16_t vendor_id, device_id;
    uint32_t location_id, domain, drm_render_minor, num_sdma_engines, num_sdma_xgmi_engines;
    uint32_t num_sdma_queues_per_engine, num_cp_queues, max_engine_clk_ccompute;
    uint32_t max_engine_clk_fcompute, sdma_fw_version, fw_version, capability;
    uint32_t cu_per_engine, max_waves_per_cu, family_id, workgroup_max_size, grid_max_size;
    uint64_t local_mem_size, hive_id, gpu_id;
    rocprofiler_dim3_t workgroup_max_dim, grid_max_dim;
    const void *mem_banks, *caches, *io_links;
    const char *name; /* gfx90a */
    const char *vendor_name;
    const char *product_name; /* the marketing name */
    const char *model_name;
    uint32_t node_id;
    int32_t logical_node_id;
    int32_t logical_node_type_id; /* the GPU's index among GPUs (HIP_VISIBLE_DEVICES') */
} rocprofiler_agent_v0_t;

typedef rocprofiler_status_t (*rocprofiler_query_available_agents_cb_t)(
    rocprofiler_agent_version_t version, const void **agents, size_t num_agents, void *user_data);

/* ---- counters (counters.h) ----------------------------------------------------------- */
typedef struct {
    const char *name; /* DIMENSION_XCC, DIMENSION_SHADER_ENGINE ... */
    size_t instance_size;
    rocprofiler_counter_dimension_id_t id;
} rocprofiler_record_dimension_info_t;

typedef struct {
    rocprofiler_counter_id_t id;
    const char *name;
    const char *description;
    const char *block;
    const char *expression;
    uint8_t flags; /* is_constant : 1, is_derived : 1 */
} rocprofiler_counter_info_v0_t;

/* One counted value of one dimension instance. The SDK 1.0 record appends agent_id. */
typedef struct {
    rocprofiler_counter_instance_id_t id;
    double counter_value;
    uint64_t dispatch_id;
    rocprofiler_user_data_t user_data;
    rocprofiler_agent_id_t agent_id; /* 1.0 and later only */
} rocprofiler_counter_record_t;
#define ROCP_RECORD_SIZE_V0 offsetof(rocprofiler_counter_record_t, agent_id)
#define ROCP_RECORD_SIZE_V1 sizeof(rocprofiler_counter_record_t)

typedef rocprofiler_status_t (*rocprofiler_available_counters_cb_t)(
    rocprofiler_agent_id_t agent, rocprofiler_counter_id_t *counters, size_t n, void *user_data);
typedef rocprofiler_status_t (*rocprofiler_available_dimensions_cb_t)(
    rocprofiler_counter_id_t id, const rocprofiler_record_dimension_info_t *dims, size_t n,
    void *user_data);

/* ---- dispatch counting (dispatch_counting_service.h) ----------------------------------- */
typedef struct {
    uint64_t size;
    rocprofiler_agent_id_t agent_id; /* the agent the kernel runs on */
    uint64_t queue_id, kernel_id, dispatch_id;
    uint32_t private_segment_size, group_segment_size;
    rocprofiler_dim3_t workgroup_size, grid_size;
    uint8_t reserved_padding[56];
} rocprofiler_kernel_dispatch_info_t; /* 128 bytes */

typedef struct {
    uint64_t size;
    rocprofiler_correlation_id_t correlation_id;
    rocprofiler_timestamp_t start_timestamp, end_timestamp;
    rocprofiler_kernel_dispatch_info_t dispatch_info;
} rocprofiler_dispatch_counting_service_data_t;

/* Called on the thread that enqueues a kernel: *config chooses what is counted (left 0:
 * nothing), *user_data comes back with the records. */
typedef void (*rocprofiler_dispatch_counting_service_cb_t)(
    rocprofiler_dispatch_counting_service_data_t data, rocprofiler_counter_config_id_t *config,
    rocprofiler_user_data_t *user_data, void *args);
/* Called when the kernel's counts are read, records of ROCP_RECORD_SIZE bytes each. */
typedef void (*rocprofiler_dispatch_counting_record_cb_t)(
    rocprofiler_dispatch_counting_service_data_t data, rocprofiler_counter_record_t *records,
    size_t count, rocprofiler_user_data_t user_data, void *args);

/* ---- registration (registration.h) ---------------------------------------------------- */
typedef struct {
    const char *name;
    uint32_t handle;
} rocprofiler_client_id_t;
typedef void (*rocprofiler_client_finalize_t)(rocprofiler_client_id_t id);
typedef struct {
    size_t size;
    int (*initialize)(rocprofiler_client_finalize_t finalize, void *tool_data);
    void (*finalize)(void *tool_data);
    void *tool_data;
} rocprofiler_tool_configure_result_t;
typedef rocprofiler_tool_configure_result_t *(*rocprofiler_configure_func_t)(
    uint32_t version, const char *runtime_version, uint32_t priority,
    rocprofiler_client_id_t *client_id);

/* ---- the calls ------------------------------------------------------------------------ */
rocprofiler_status_t rocprofiler_get_version(uint32_t *major, uint32_t *minor, uint32_t *patch);
const char *rocprofiler_get_status_string(rocprofiler_status_t status);
rocprofiler_status_t rocprofiler_force_configure(rocprofiler_configure_func_t configure);
rocprofiler_status_t rocprofiler_create_context(rocprofiler_context_id_t *context);
rocprofiler_status_t rocprofiler_start_context(rocprofiler_context_id_t context);
rocprofiler_status_t rocprofiler_stop_context(rocprofiler_context_id_t context);
rocprofiler_status_t rocprofiler_query_available_agents(
    rocprofiler_agent_version_t version, rocprofiler_query_available_agents_cb_t callback,
    size_t agent_size, void *user_data);
rocprofiler_status_t rocprofiler_iterate_agent_supported_counters(
    rocprofiler_agent_id_t agent, rocprofiler_available_counters_cb_t callback, void *user_data);
rocprofiler_status_t rocprofiler_query_counter_info(rocprofiler_counter_id_t counter,
                                                    rocprofiler_counter_info_version_id_t version,
                                                    void *info);
rocprofiler_status_t rocprofiler_iterate_counter_dimensions(
    rocprofiler_counter_id_t counter, rocprofiler_available_dimensions_cb_t callback,
    void *user_data);
/* Named rocprofiler_create_profile_config before rocprofiler-sdk 1.0 (the same call). */
rocprofiler_status_t rocprofiler_create_counter_config(rocprofiler_agent_id_t agent,
                                                       rocprofiler_counter_id_t *counters, size_t n,
                                                       rocprofiler_counter_config_id_t *config);
rocprofiler_status_t rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t config);
/* Named rocprofiler_configure_callback_dispatch_profile_counting_service before 1.0. */
rocprofiler_status_t rocprofiler_configure_callback_dispatch_counting_service(
    rocprofiler_context_id_t context, rocprofiler_dispatch_counting_service_cb_t dispatch_cb,
    void *dispatch_args, rocprofiler_dispatch_counting_record_cb_t record_cb, void *record_args);
rocprofiler_status_t rocprofiler_query_record_counter_id(rocprofiler_counter_instance_id_t id,
                                                         rocprofiler_counter_id_t *counter);
rocprofiler_status_t rocprofiler_query_record_dimension_position(
    rocprofiler_counter_instance_id_t id, rocprofiler_counter_dimension_id_t dim, size_t *pos);

/* X(symbol, older name or NULL): every call the component looks up, all required. */
#define ROCP_SDK_SYMBOLS(X)                                                     \
    X(rocprofiler_get_version, NULL)                                            \
    X(rocprofiler_get_status_string, NULL)                                      \
    X(rocprofiler_force_configure, NULL)                                        \
    X(rocprofiler_create_context, NULL)                                         \
    X(rocprofiler_start_context, NULL)                                          \
    X(rocprofiler_stop_context, NULL)                                           \
    X(rocprofiler_query_available_agents, NULL)                                 \
    X(rocprofiler_iterate_agent_supported_counters, NULL)                       \
    X(rocprofiler_query_counter_info, NULL)                                     \
    X(rocprofiler_iterate_counter_dimensions, NULL)                             \
    X(rocprofiler_create_counter_config, "rocprofiler_create_profile_config")   \
    X(rocprofiler_destroy_counter_config, "rocprofiler_destroy_profile_config") \
    X(rocprofiler_configure_callback_dispatch_counting_service,                 \
      "rocprofiler_configure_callback_dispatch_profile_counting_service")       \
    X(rocprofiler_query_record_counter_id, NULL)                                \
    X(rocprofiler_query_record_dimension_position, NULL)

#endif
