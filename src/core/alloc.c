/*
 * alloc.c - allocation wrappers with fault injection for tests.
 */
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

static long fail_countdown = -1; /* <0: never fail */
static long nr_allocs;

static int should_fail(void)
{
	nr_allocs++;
	if (fail_countdown < 0)
		return 0;
	if (fail_countdown == 0)
		return 1;
	fail_countdown--;
	return 0;
}

long cp_alloc_fail_after(long n)
{
	long made = nr_allocs;

	nr_allocs = 0;
	fail_countdown = n;
	return made;
}

void *cp_malloc(size_t size)
{
	return should_fail() ? NULL : malloc(size ? size : 1);
}

void *cp_calloc(size_t nmemb, size_t size)
{
	return should_fail() ? NULL : calloc(nmemb ? nmemb : 1, size ? size : 1);
}

void *cp_realloc(void *ptr, size_t size)
{
	return should_fail() ? NULL : realloc(ptr, size ? size : 1);
}

void cp_free(void *ptr)
{
	free(ptr);
}

char *cp_strdup(const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = cp_malloc(len);

	if (p)
		memcpy(p, s, len);
	return p;
}

void *cp_grow(void *ptr, size_t *cap, size_t need, size_t elem_size, size_t min_cap)
{
	size_t n = *cap ? *cap : min_cap;
	void *p;

	if (need <= *cap)
		return ptr;
	while (n < need)
		n *= 2;
	p = cp_realloc(ptr, n * elem_size);
	if (p)
		*cap = n;
	return p;
}
