/* test_replay_switch: one process replays several recorded machines in turn
 * (src-c/common/fsroot.h: PAPI_FSROOT is read again at each PAPI_library_init). After
 * each PAPI_shutdown the next machine's CPU, PMUs and preset table are the ones in force:
 * the hardware information names its CPU, and PAPI_DP_OPS's note names the first native
 * event of that machine's table (the events are the recorded machine's, so the preset is
 * described but not countable on this kernel). argv[1] is tests/machines. Public API. */
#include "papi_test.h"

struct machine {
    const char *dir;
    int family, model;
    const char *dp_native; /* the first native of PAPI_DP_OPS in its table */
};

/* AMD PMCx003 umask 0x80 (scalar double FLOPs); Intel FP_ARITH_INST_RETIRED.SCALAR_DOUBLE
 * 0xc7/0x01 (tests/machines/test_replay_presets.c cites both). */
static const struct machine machines[] = {
    {"zen5_node", 0x1a, 0x02, "cpu::event=0x03,umask=0x80"},
    {"gnr_node", 6, 0xad, "cpu::event=0xc7,umask=0x01"},
    {"zen5_node", 0x1a, 0x02, "cpu::event=0x03,umask=0x80"}, /* and back */
    {"mtl_hybrid", 6, 0xaa, "cpu_core::event=0xc7,umask=0x01"},
};

int main(int argc, char **argv)
{
    if (argc != 2)
        test_skip("usage: test_replay_switch <tests/machines>");
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++) {
        const struct machine *m = &machines[i];
        char root[4096];
        snprintf(root, sizeof root, "%s/%s", argv[1], m->dir);
        setenv("PAPI_FSROOT", root, 1);
        init_or_die();
        const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
        CHECK(hw && hw->cpuid_family == m->family && hw->cpuid_model == m->model,
              "%s: cpuid family %d model %d, want %d %d", m->dir, hw ? hw->cpuid_family : -1,
              hw ? hw->cpuid_model : -1, m->family, m->model);
        int code;
        PAPI_event_info_t info;
        CHECK_RET(PAPI_event_name_to_code("PAPI_DP_OPS", &code), PAPI_OK);
        CHECK_RET(PAPI_get_event_info(code, &info), PAPI_OK);
        printf("%-10s PAPI_DP_OPS: %.160s\n", m->dir, info.note);
        CHECK(strstr(info.note, m->dp_native) != NULL, "%s: PAPI_DP_OPS note does not name %s: %s",
              m->dir, m->dp_native, info.note);
        PAPI_shutdown();
    }
    return test_done("test_replay_switch");
}
