!     t_f77papi: old code with INCLUDE 'f77papi.h' (INTEGER + PARAMETER) and the
!     upper-case names links and runs; the counts are exact.
      PROGRAM TF77
      IMPLICIT NONE
      INCLUDE 'f77papi.h'
      INTEGER CHECK, ES, CODE, ROUND, NFAIL, N
      INTEGER*8 VALUES(1)
      N = 300
      NFAIL = 0
      CHECK = PAPI_VER_CURRENT
      CALL PAPIF_LIBRARY_INIT(CHECK)
      IF (CHECK .NE. PAPI_VER_CURRENT) STOP 1
      ES = PAPI_NULL
      CALL PAPIF_CREATE_EVENTSET(ES, CHECK)
      CALL PAPIF_EVENT_NAME_TO_CODE('perf::PAGE-FAULTS', CODE, CHECK)
      CALL PAPIF_TEST_SKIP_IF_REFUSED(CHECK)
      CALL PAPIF_ADD_EVENT(ES, CODE, CHECK)
      CALL PAPIF_TEST_SKIP_IF_REFUSED(CHECK)
      IF (CHECK .NE. PAPI_OK) NFAIL = NFAIL + 1
      CALL PAPIF_TEST_WARM_UP()
      DO 10 ROUND = 1, 2
         CALL PAPIF_START(ES, CHECK)
         CALL PAPIF_TEST_TOUCH_PAGES(N)
         CALL PAPIF_STOP(ES, VALUES, CHECK)
         IF (CHECK .NE. PAPI_OK) NFAIL = NFAIL + 1
         IF (ROUND .EQ. 2 .AND. VALUES(1) .NE. N) THEN
            PRINT *, 'FAIL: stop gives', VALUES(1), ' want', N
            NFAIL = NFAIL + 1
         END IF
   10 CONTINUE
      IF (NFAIL .NE. 0) THEN
         PRINT *, 't_f77papi: FAILED', NFAIL
         STOP 1
      END IF
      PRINT *, 't_f77papi: PASSED'
      END
