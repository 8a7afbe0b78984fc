/* test_caps.h: drop CAP_PERFMON and CAP_SYS_ADMIN from the effective set, so a test run
 * as root meets the kernel's (or a recorded machine's) perf_event_paranoid as an
 * unprivileged user does; SKIPPED when the capability calls fail. */
#ifndef TEST_CAPS_H
#define TEST_CAPS_H

#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "papi_test.h"

static inline void test_drop_perfmon_caps(void)
{
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &hdr, data) != 0)
        test_skip(
            "capget refused: cannot read CAP_PERFMON here (the container's system-call filter)");
    data[CAP_SYS_ADMIN / 32].effective &= ~(1u << (CAP_SYS_ADMIN % 32));
    data[38 / 32].effective &= ~(1u << (38 % 32)); /* CAP_PERFMON */
    if (syscall(SYS_capset, &hdr, data) != 0)
        test_skip(
            "capset refused: cannot drop CAP_PERFMON here (the container's system-call filter)");
}

#endif
