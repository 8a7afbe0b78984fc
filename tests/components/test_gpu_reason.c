/* test_gpu_reason.c: what papi_component_avail says of a GPU component where its
 * library or device is absent, of another version, or lacks a symbol (ctest sets
 * LD_LIBRARY_PATH to a test double's directory and PAPI_FSROOT to a recorded tree):
 *   test_gpu_reason COMPONENT disabled|enabled WORDS [EVENT-THAT-MUST-NOT-EXIST] [MORE...]
 * The component's reason (or caveat) must hold WORDS, on one line. Each MORE is
 * "skip-if-live-drm" (SKIPPED where this machine has a live /sys/class/drm/card0: a real
 * GPU would make the library's rsmi_init succeed), "skip-if-nvidia-driver" (SKIPPED where
 * the machine's own libcuda.so.1 loads: the cuda component would find a driver) or "+EVENT": an event that must still
 * count (added, started, read, stopped), so that nothing else was lost with it. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "papi_test.h"

/* Whether a real CUDA driver is on the loader's path (checked before PAPI loads anything). */
static int nvidia_driver_loads(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (h)
        dlclose(h);
    return h != NULL;
}

/* event is listed and counts: nothing else was lost with the component's trouble. */
static void still_counts(const char *event)
{
    int es = PAPI_NULL;
    long long v = -1;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, event), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read(es, &v), PAPI_OK);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    printf("%s still counts: %lld\n", event, v);
    CHECK(v >= 0, "%s read %lld", event, v);
    free_set(&es);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_gpu_reason COMPONENT disabled|enabled WORDS [EVENT]\n");
        return 2;
    }
    const char *cmp = argv[1], *words = argv[3];
    int want_disabled = strcmp(argv[2], "disabled") == 0;
    for (int i = 4; i < argc; i++) /* cmake drops an empty EVENT: MORE may start at 4 */
        if (strcmp(argv[i], "skip-if-live-drm") == 0 && access("/sys/class/drm/card0", F_OK) == 0)
            test_skip("this machine has a GPU (/sys/class/drm/card0): rsmi_init would succeed");
        else if (strcmp(argv[i], "skip-if-nvidia-driver") == 0 && nvidia_driver_loads())
            test_skip("this machine has an NVIDIA driver (libcuda.so.1 loads)");
    init_or_die();
    int cidx = PAPI_get_component_index(cmp);
    CHECK(cidx >= 0, "no component %s", cmp);
    if (cidx < 0)
        return test_done("test_gpu_reason");
    const PAPI_component_info_t *info = PAPI_get_component_info(cidx);
    const char *reason = PAPI_get_component_reason(cidx);
    printf("%s: %s: %s\n", cmp, info->disabled ? "disabled" : "enabled",
           reason && reason[0] ? reason : "(no reason)");
    CHECK(!!info->disabled == want_disabled, "%s is %s", cmp,
          info->disabled ? "disabled" : "enabled");
    CHECK(reason && strstr(reason, words), "reason '%s' lacks '%s'", reason ? reason : "", words);
    CHECK(reason && !strpbrk(reason, "\r\n"), "reason '%s' spans lines", reason ? reason : "");
    if (argc > 4 && argv[4][0] && argv[4][0] != '+' && strncmp(argv[4], "skip-if-", 8) != 0) {
        int code;
        CHECK_RET(PAPI_event_name_to_code(argv[4], &code), PAPI_ENOEVNT);
    }
    for (int i = 4; i < argc; i++)
        if (argv[i][0] == '+')
            still_counts(argv[i] + 1);
    PAPI_shutdown();
    return test_done("test_gpu_reason");
}
