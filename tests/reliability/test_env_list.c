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
    CHECK(v && strcmp(v, want) == 0, "%s is '%.40s' (%zu bytes), want '%.40s' (%zu bytes)", name,
          v ? v : "(unset)", v ? strlen(v) : 0, want, strlen(want));
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
    memset(big, 'x', 8181); /* + ":/a/tool.so" = 8192 bytes: one too many */
    big[8181] = '\0';
    setenv("ENV_LIST_T", big, 1);
    CHECK(env_list_add("ENV_LIST_T", "/a/tool.so", 0) == -1, "8191 bytes at most: refused");
    expect("ENV_LIST_T", big);
    CHECK(env_list_add("ENV_LIST_T", "/a/tool", 1) == 0, "8189 bytes fit");
    CHECK(strlen(getenv("ENV_LIST_T")) == 8189 &&
              strncmp(getenv("ENV_LIST_T"), "/a/tool:x", 9) == 0,
          "the item in front");
    unsetenv("ENV_LIST_T");
    return test_done("test_env_list");
}
