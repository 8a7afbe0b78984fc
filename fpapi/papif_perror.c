/* papif_perror.c: PAPIF_perror in the four manglings, for code without an interface
 * (fpapi.h, f77papi.h, f90papi.h), in both of its forms:
 *   PAPI 3.5:  call PAPIF_perror(code, destination, check)
 *   PAPI 5-7:  call PAPIF_perror(message)
 * Without an interface the compiler passes the arguments it sees, then one hidden length
 * (size_t) per CHARACTER argument, after all of them (gfortran and flang alike). So the
 * second argument register holds:
 *   3.5 form: the address of `destination`;
 *   5-7 form: the hidden length of `message`, a small integer.
 * No object lives in the first page of the address space (Linux refuses to map below
 * vm.mmap_min_addr, 4096 at least), and no message is that long: a value below
 * PAPIF_MAX_HIDDEN_LENGTH is a length, anything else an address. Only the registers the
 * one-argument call really passes are read in that case. */
#include <stdint.h>
#include <stdlib.h>

#include "papi.h"
#include "papif_helpers.h"

#define PAPIF_MAX_HIDDEN_LENGTH 4096u

/* Generated in papif_shims.c. */
void papif_core_perror(const int *f_code, char *f_destination, int f_destination_cap, int *f_check);
void papif_core_perror_message(const char *f_message);

static void perror_dispatch(void *first, void *second, int *check, size_t destination_len)
{
    if ((uintptr_t)second < PAPIF_MAX_HIDDEN_LENGTH) {
        char *message = papifh_string_from_fortran(first, (size_t)(uintptr_t)second);
        papif_core_perror_message(message ? message : "");
        free(message);
        return;
    }
    char buf[PAPI_HUGE_STR_LEN];
    papif_core_perror(first, buf, (int)sizeof buf, check);
    papifh_string_to_fortran(buf, second, destination_len);
}

#define PAPIF_PERROR_ENTRY(name)                                                   \
    void name(void *first, void *second, int *check, size_t destination_len);      \
    void name(void *first, void *second, int *check, size_t destination_len)       \
    {                                                                              \
        perror_dispatch(first, second, check, destination_len);                    \
    }

PAPIF_PERROR_ENTRY(papif_perror_)
PAPIF_PERROR_ENTRY(papif_perror)
PAPIF_PERROR_ENTRY(papif_perror__)
PAPIF_PERROR_ENTRY(PAPIF_PERROR)
