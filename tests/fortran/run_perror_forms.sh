#!/bin/sh
# run_perror_forms.sh PROGRAM INCLUDE-NAME: run a t_perror_* program and check that both
# forms of PAPIF_perror did their job: the 3.5 form wrote the error text into its
# destination, the 5-7 form printed the message (trailing blanks trimmed) to stderr,
# and the program got to its end (no crash on either call).
set -u
out=$("$1" 2>&1)
st=$?
echo "$out"
[ "$st" -eq 0 ] || { echo "FAIL: $1 ended with status $st"; exit 1; }
echo "$out" | grep -q '^three-argument form: .*[Ii]nvalid' ||
  { echo "FAIL: the 3-argument form gave no error text"; exit 1; }
echo "$out" | grep -q "^$2 one-argument form: " ||
  { echo "FAIL: the 1-argument form printed no message"; exit 1; }
echo "$out" | grep -q '^perror forms: done' || { echo "FAIL: the program did not finish"; exit 1; }
echo "run_perror_forms: PASSED"
