/* array_room.h: room for one more element in a growable array, kept as a pointer, a
 * count and a capacity: the capacity doubles (from first) when the array is full. The
 * library's tables and lists grow so; header-only. */
#ifndef PAPI_ARRAY_ROOM_H
#define PAPI_ARRAY_ROOM_H

#include <stdint.h>
#include <stdlib.h>

/* The array v of count elements of elem bytes, room for *cap: v itself when there is
 * room for one more, else v moved to twice the room (first when empty) with *cap
 * updated; NULL when out of memory (v is still the array, *cap unchanged). */
static inline void *array_room(void *v, int count, int *cap, size_t elem, int first)
{
    if (count < *cap)
        return v;
    int ncap = *cap ? *cap * 2 : first;
    void *n = realloc(v, (size_t)ncap * elem);
    if (n)
        *cap = ncap;
    return n;
}

/* The same for a count and capacity kept as size_t (arrays that may pass INT_MAX
 * elements); NULL also when twice the room would not fit in a size_t. */
static inline void *array_room_size(void *v, size_t count, size_t *cap, size_t elem, size_t first)
{
    if (count < *cap)
        return v;
    size_t ncap = *cap ? *cap * 2 : first;
    if (ncap < *cap || ncap > SIZE_MAX / elem)
        return NULL;
    void *n = realloc(v, ncap * elem);
    if (n)
        *cap = ncap;
    return n;
}

#endif
