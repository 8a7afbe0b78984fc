/* state.c: the one definition of the wrapper library's shared state (see state.h for
 * who writes what). Data only: no function, so every file can depend on it and it
 * depends on none. */
#include "state.h"

struct pmpi_record_state pmpi_rec;
__thread struct pmpi_thread *pmpi_tls __attribute__((tls_model("initial-exec")));
__thread struct pmpi_fortran_call pmpi_fcall __attribute__((tls_model("initial-exec")));
pthread_mutex_t pmpi_state_lock = PTHREAD_MUTEX_INITIALIZER;
struct pmpi_fault_state pmpi_fault;
__thread struct pmpi_sample_call pmpi_scall __attribute__((tls_model("initial-exec")));
int pmpi_sampling;
