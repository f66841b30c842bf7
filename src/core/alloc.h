/*
 * alloc.h - every allocation of the library goes through here.
 *
 * Tests can make the N-th allocation from now fail (SQLite's fault
 * injection), so each caller's -CP_ENOMEM path is exercised. The
 * fault counter is the one piece of process-global state in src/: it is
 * a test hook, never set by the model.
 */
#ifndef CP_ALLOC_H
#define CP_ALLOC_H

#include <stddef.h>

/* Like malloc/calloc/realloc/free; return NULL on failure (or injected
 * failure). cp_free(NULL) does nothing. */
void *cp_malloc(size_t size);
void *cp_calloc(size_t nmemb, size_t size);
void *cp_realloc(void *ptr, size_t size);
void cp_free(void *ptr);
char *cp_strdup(const char *s);

/* A growable array: ptr holds *cap elements of elem_size bytes. Returns
 * an array with room for at least need elements - ptr itself when it
 * already has room, else ptr resized to double its capacity (min_cap at
 * first) - and sets *cap; or NULL, with ptr and *cap unchanged, when the
 * allocation fails. */
void *cp_grow(void *ptr, size_t *cap, size_t need, size_t elem_size, size_t min_cap);

/* Make the allocation after `n` more successful ones fail, and every one
 * after it (n < 0 disables). Returns the number of allocations made since
 * the last call, so a test can loop over every failure point. */
long cp_alloc_fail_after(long n);

#endif /* CP_ALLOC_H */
