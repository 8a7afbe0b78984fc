/* expect_reason.h: PAPI's reason for the last error (PAPI_strerror_detail, this
 * library's: not in a PAPI 7 papi.h) printed and checked for the words it must hold, as
 * the component tests check what a failed call said. Header-only, for tests. */
#ifndef PAPI_TEST_EXPECT_REASON_H
#define PAPI_TEST_EXPECT_REASON_H

#include <stdio.h>
#include <string.h>

#include "papi_test.h"

/* PAPI's reason for the last error (PAPI_strerror_detail), printed after what, holds part
 * and, when given, part2 (checked); the reason, "" when there is none. */
static inline const char *expect_reason(const char *what, const char *part, const char *part2)
{
    const char *why = PAPI_strerror_detail();
    printf("%s: %s\n", what, why ? why : "(none)");
    CHECK(why && strstr(why, part) && (!part2 || strstr(why, part2)), "%s: reason '%s'", what,
          why ? why : "");
    return why ? why : "";
}

#endif
