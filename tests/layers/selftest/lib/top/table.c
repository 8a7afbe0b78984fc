/* table.c: an X-macro list called at file scope without ';', then a definition. */
#define TOP_LIST(X) X(1) X(2)
#define DECLARE(v) extern int top_decl_##v;
TOP_LIST(DECLARE)
int top_table[2];
