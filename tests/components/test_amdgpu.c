/* test_amdgpu: the amdgpu component (src-c/lib/components/gpu/amdgpu_component.c) through
 * the API on a recorded tree (tests/machines/amdgpu_node, argv[1]) copied to a scratch
 * directory and replayed through PAPI_FSROOT: the event table (AMD cards only, the files
 * each has), units, exact values rewritten between PAPI_start and PAPI_read, a negative
 * temperature, a card whose files vanish (the reason names the file; the other card
 * still counts), and a tree without an AMD card (disabled with the reason). */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "papi.h"
#include "expect_reason.h"
#include "papi_test.h"
#include "test_tree.h"

#define A "amdgpu:::"

static char scratch[512];

#define CARD0  "sys/class/drm/card0/device/"
#define HWMON0 CARD0 "hwmon/hwmon3/"

static void test_table(int cidx)
{
    static const char *const want[] = {
        A "card0:gpu_busy_percent",    A "card0:mem_busy_percent",    A "card0:mem_info_vram_used",
        A "card0:mem_info_vram_total", A "card0:freq1_input",         A "card0:freq2_input",
        A "card0:power1_average",      A "card0:temp1_input",         A "card0:temp2_input",
        A "card0:temp3_input",         A "card1:gpu_busy_percent",    A "card1:mem_busy_percent",
        A "card1:mem_info_vram_used",  A "card1:mem_info_vram_total", A "card1:freq1_input",
        A "card1:power1_input",        A "card1:temp1_input"};
    int n = (int)(sizeof want / sizeof want[0]), k = 0, code = PAPI_NATIVE_MASK;
    char name[PAPI_MAX_STR_LEN];
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK)
        do {
            PAPI_event_code_to_name(code, name);
            CHECK(k < n && strcmp(name, want[k]) == 0, "event %d is '%s', want '%s'", k, name,
                  k < n ? want[k] : "(none)");
            k++;
        } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    CHECK_EQ_LL(k, n); /* card2 (an Intel GPU) and card0-DP-1 are not amdgpu's */
    static const struct {
        const char *event, *units, *descr;
    } info[] = {{A "card0:power1_average", "uW", "average power, in microwatts (card0)"},
                {A "card0:temp2_input", "mC", "junction temperature"},
                {A "card0:freq2_input", "Hz", "mclk clock, in Hz"},
                {A "card1:mem_info_vram_used", "B", "VRAM in use"},
                {A "card1:gpu_busy_percent", "%", "busy"}};
    for (size_t i = 0; i < sizeof info / sizeof info[0]; i++) {
        PAPI_event_info_t ev;
        CHECK_RET(PAPI_event_name_to_code(info[i].event, &code), PAPI_OK);
        CHECK_RET(PAPI_get_event_info(code, &ev), PAPI_OK);
        CHECK(strcmp(ev.units, info[i].units) == 0 && strstr(ev.long_descr, info[i].descr),
              "%s: units '%s' descr '%s'", info[i].event, ev.units, ev.long_descr);
    }
}

static void test_values(void)
{
    int es = PAPI_NULL;
    long long v[5];
    const char *const evs[] = {A "card0:power1_average", A "card0:gpu_busy_percent",
                               A "card0:temp1_input", A "card0:mem_info_vram_used",
                               A "card0:freq1_input"};
    es = named_set(evs, 5);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    tree_put(HWMON0 "power1_average", "212000000\n");
    tree_put(CARD0 "gpu_busy_percent", "100\n");
    tree_put(HWMON0 "temp1_input", "-2000\n");
    tree_put(CARD0 "mem_info_vram_used", "34359738368\n");
    tree_put(HWMON0 "freq1_input", "800000000\n");
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    const long long want[5] = {212000000, 100, -2000, 34359738368LL, 800000000};
    expect_values(evs, v, want, 5);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    free_set(&es);
}

/* card1 is unplugged while counting: its set fails with the file; card0's counts on. */
static void test_vanished(void)
{
    int es0 = PAPI_NULL, es1 = PAPI_NULL;
    long long v[1];
    char path[2048];
    CHECK_RET(PAPI_create_eventset(&es0), PAPI_OK);
    CHECK_RET(PAPI_create_eventset(&es1), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es0, A "card0:power1_average"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es1, A "card1:power1_input"), PAPI_OK);
    CHECK_RET(PAPI_start(es1), PAPI_OK);
    snprintf(path, sizeof path, "%s/sys/class/drm/card1", tree_root);
    remove_tree(path);
    CHECK_RET(PAPI_read(es1, v), PAPI_ESYS);
    CHECK_RET(PAPI_stop(es1, v), PAPI_ESYS);
    const char *why =
        expect_reason("vanished", A "card1:power1_input: cannot read ",
                      "/sys/class/drm/card1/device/hwmon/hwmon4/power1_input: No "
                      "such file or directory (the GPU was removed or amdgpu unloaded)");
    CHECK(!strpbrk(why, "\r\n"), "the vanished card's reason spans lines");
    CHECK_RET(PAPI_stop(es1, v), PAPI_OK);
    CHECK_RET(PAPI_start(es0), PAPI_OK);
    tree_put(HWMON0 "power1_average", "99000000\n");
    CHECK_RET(PAPI_stop(es0, v), PAPI_OK);
    CHECK(v[0] == 99000000, "card0 power %lld after card1 vanished", v[0]);
}

static void test_no_amd_card(void)
{
    char path[2048];
    for (int c = 0; c < 2; c++) {
        snprintf(path, sizeof path, "%s/sys/class/drm/card%d", tree_root, c);
        remove_tree(path);
    }
    init_or_die();
    int cidx = PAPI_get_component_index("amdgpu");
    const char *reason = PAPI_get_component_reason(cidx);
    CHECK(PAPI_get_component_info(cidx)->disabled, "amdgpu enabled without an AMD card");
    CHECK(reason && strstr(reason, "/sys/class/drm lists no AMD GPU (vendor 0x1002)"),
          "reason '%s'", reason ? reason : "");
    PAPI_shutdown();
}

int main(int argc, char **argv)
{
    tree_scratch(argc, "test_amdgpu", "tests/machines/amdgpu_node", scratch, sizeof scratch);
    tree_use(argv[1], scratch, "root");
    init_or_die();
    int cidx = PAPI_get_component_index("amdgpu");
    CHECK(cidx >= 0 && !PAPI_get_component_info(cidx)->disabled, "amdgpu disabled: %s",
          cidx >= 0 ? PAPI_get_component_reason(cidx) : "no such component");
    if (cidx >= 0) {
        test_table(cidx);
        test_values();
        test_vanished();
    }
    PAPI_shutdown();
    test_no_amd_card();
    remove_tree(scratch);
    return test_done("test_amdgpu");
}
