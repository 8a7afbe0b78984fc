/* test_gpu_reason.c: what papi_component_avail says of a GPU component where its
 * library or device is absent, of another version, or lacks a symbol (ctest sets
 * LD_LIBRARY_PATH to a test double's directory and PAPI_FSROOT to a recorded tree):
 *   test_gpu_reason COMPONENT disabled|enabled WORDS [EVENT-THAT-MUST-NOT-EXIST]
 * The component's reason (or caveat) must hold WORDS. With "skip-if-live-drm" as the
 * fifth argument it says SKIPPED where this machine has a live /sys/class/drm/card0 (a
 * real GPU would make the library's rsmi_init succeed). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "papi_test.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_gpu_reason COMPONENT disabled|enabled WORDS [EVENT]\n");
        return 2;
    }
    const char *cmp = argv[1], *words = argv[3];
    int want_disabled = strcmp(argv[2], "disabled") == 0;
    if (argc > 5 && strcmp(argv[5], "skip-if-live-drm") == 0 &&
        access("/sys/class/drm/card0", F_OK) == 0)
        test_skip("this machine has a GPU (/sys/class/drm/card0): rsmi_init would succeed");
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
    if (argc > 4 && argv[4][0]) {
        int code;
        CHECK_RET(PAPI_event_name_to_code(argv[4], &code), PAPI_ENOEVNT);
    }
    PAPI_shutdown();
    return test_done("test_gpu_reason");
}
