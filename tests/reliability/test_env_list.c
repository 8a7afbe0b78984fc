/* test_env_list: env_list_add (src-c/common/env_list.h), the one way papi_run and the MPI
 * wrapper add a library to LD_PRELOAD or OMP_TOOL_LIBRARIES: alone when unset or empty,
 * in front or at the end of what is there, and a value past 8191 bytes refused with the
 * variable left as it was. */
#include <stdlib.h>
#include <string.h>

#include "env_list.h"
#include "papi_test.h"

static void expect(const char *name, const char *want)
{
    const char *v = getenv(name);
    CHECK(v && strcmp(v, want) == 0, "%s is '%s', want '%s'", name, v ? v : "(unset)", want);
}

int main(void)
{
    unsetenv("ENV_LIST_T");
    CHECK(env_list_add("ENV_LIST_T", "/a/tool.so", 0) == 0, "add to an unset variable");
    expect("ENV_LIST_T", "/a/tool.so");
    CHECK(env_list_add("ENV_LIST_T", "/b/user.so", 1) == 0, "add in front");
    expect("ENV_LIST_T", "/b/user.so:/a/tool.so");
    CHECK(env_list_add("ENV_LIST_T", "/c/last.so", 0) == 0, "add at the end");
    expect("ENV_LIST_T", "/b/user.so:/a/tool.so:/c/last.so");
    setenv("ENV_LIST_T", "", 1);
    CHECK(env_list_add("ENV_LIST_T", "/a/tool.so", 1) == 0, "add to an empty variable");
    expect("ENV_LIST_T", "/a/tool.so");

    static char big[8200];
    memset(big, 'x', 8180);
    big[8180] = '\0';
    setenv("ENV_LIST_T", big, 1);
    CHECK(env_list_add("ENV_LIST_T", "/a/tool.so", 0) == -1, "8191 bytes at most: refused");
    expect("ENV_LIST_T", big);
    CHECK(env_list_add("ENV_LIST_T", "y", 1) == 0, "8182 bytes fit");
    CHECK(strlen(getenv("ENV_LIST_T")) == 8182 && getenv("ENV_LIST_T")[0] == 'y',
          "the short item in front");
    unsetenv("ENV_LIST_T");
    return test_done("test_env_list");
}
