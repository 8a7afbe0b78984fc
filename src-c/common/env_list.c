#include "env_list.h"

#include <stdio.h>
#include <stdlib.h>

#include "env.h"

int env_list_add(const char *name, const char *item, int front)
{
    char value[8192];
    const char *old = env_get(name);
    int n = !old || !*old ? snprintf(value, sizeof value, "%s", item)
            : front       ? snprintf(value, sizeof value, "%s:%s", item, old)
                          : snprintf(value, sizeof value, "%s:%s", old, item);
    if (n < 0 || n >= (int)sizeof value)
        return -1;
    return setenv(name, value, 1) == 0 ? 0 : -1;
}
