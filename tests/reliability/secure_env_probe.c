/* secure_env_probe: prints the recorded-machine root the library uses (fsroot(), from
 * PAPI_FSROOT through env_get) after PAPI_library_init, as "root=<path>". Run by
 * check_secure_env.sh as an ordinary process and as a setgid one (AT_SECURE), where the
 * variable must be ignored. White box: links the static library. */
#include <stdio.h>

#include "fsroot.h"
#include "papi.h"

int main(void)
{
    int r = PAPI_library_init(PAPI_VER_CURRENT);
    printf("init=%s root=%s\n", r == PAPI_VER_CURRENT ? "ok" : "failed", fsroot());
    return r == PAPI_VER_CURRENT ? 0 : 1;
}
