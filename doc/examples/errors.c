/* Example: what went wrong: the text of an error code, and the reason the library
 * recorded for the calling thread's last failing call.
 * Shows: PAPI_strerror PAPI_strerror_detail PAPI_perror PAPI_perror1 PAPI_perror3 */
#include <papi.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    int es = PAPI_NULL;
    char text[PAPI_MAX_STR_LEN];
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    if (PAPI_create_eventset(&es) != PAPI_OK)
        return 1;
    int ret = PAPI_add_named_event(es, "perf::NO-SUCH-EVENT");
    if (ret != PAPI_ENOEVNT)
        return 1;
    printf("PAPI_add_named_event: %d, %s\n", ret, PAPI_strerror(ret));
    /* Why, in this library's words (an extension of PAPI): names the event. */
    if (!strstr(PAPI_strerror_detail(), "perf::NO-SUCH-EVENT"))
        return 1;
    printf("detail names the event: yes\n");
    PAPI_perror("adding the event");      /* PAPI 7's form: message, text and reason on stderr */
    PAPI_perror1("the same, by its name");
    /* PAPI 3's form: the text of a code into a buffer. */
    if (PAPI_perror(PAPI_ENOEVST, text, sizeof text) != PAPI_OK ||
        PAPI_perror3(PAPI_EISRUN, text, sizeof text) != PAPI_OK)
        return 1;
    printf("PAPI_perror3: %s\n", text);
    if (PAPI_perror3(12345, text, sizeof text) != PAPI_EINVAL) /* no such code: refused */
        return 1;
    printf("PAPI_strerror(12345): %s\n", PAPI_strerror(12345) ? "text" : "NULL");
    return 0;
}
