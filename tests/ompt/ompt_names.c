/* ompt_names.c: a program of two compilation units whose parallel region is in the second
 * (ompt_names_work.c), for check_ompt.py's case names: the region is named
 * work_in_second_unit (ompt_names_work.c:LINE) also where the compiler writes no
 * .debug_aranges (clang 14: the symbolizer scans the units' address ranges). */
#include <stdio.h>

int work_in_second_unit(void);
extern const int names_work_line;

int main(void)
{
    int sum = work_in_second_unit();
    printf("{\"file\": \"ompt_names_work.c\", \"line\": %d, \"sum\": %d}\n", names_work_line, sum);
    return sum == 1 ? 0 : 1;
}
