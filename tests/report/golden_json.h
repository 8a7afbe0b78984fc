/* golden_json.h: a small JSON reader for the golden-case tests (golden_json.c): the
 * whole document as a tree; numbers kept as double and, when integral, as long long. */
#ifndef GOLDEN_JSON_H
#define GOLDEN_JSON_H

#include <stddef.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
    enum jtype t;
    double num;
    long long inum;     /* J_NUM without fraction or exponent; J_BOOL: 0 or 1 */
    char *str;          /* J_STR */
    struct jval *items; /* J_ARR, J_OBJ: n values */
    char **keys;        /* J_OBJ: n keys */
    size_t n;
};

/* The tree of text, or NULL with why in err (the offset of the fault). */
struct jval *json_parse(const char *text, char *err, size_t errlen);
/* obj's member key, or NULL. */
const struct jval *json_get(const struct jval *obj, const char *key);
void json_free(struct jval *v);

#endif
