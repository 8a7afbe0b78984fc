/* table_user.c: uses the table top/table.c defines after an X-macro call without ';'. */
extern int top_table[];
int low_table_first(void) { return top_table[0]; }
