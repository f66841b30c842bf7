/*
 * result.c - the run result container shared by model and real harness.
 */
#include <cachepressure/result.h>

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"

void cp_run_result_init(struct cp_run_result *r)
{
	memset(r, 0, sizeof(*r));
}

static void series_release(struct cp_series *s)
{
	size_t i;

	for (i = 0; i < s->nr_columns; i++)
		cp_free(s->columns[i]);
	cp_free(s->columns);
	cp_free(s->values);
	memset(s, 0, sizeof(*s));
}

void cp_run_result_release(struct cp_run_result *r)
{
	size_t i;

	if (!r)
		return;
	cp_free(r->source);
	cp_free(r->policy);
	cp_free(r->kernel);
	cp_free(r->scenario);
	cp_free(r->confine);
	cp_free(r->failure);
	for (i = 0; i < r->nr_readers; i++) {
		cp_free(r->readers[i].path);
		cp_free(r->readers[i].passes);
	}
	cp_free(r->readers);
	for (i = 0; i < r->nr_counters; i++)
		cp_free(r->counters[i].name);
	cp_free(r->counters);
	series_release(&r->series);
	memset(r, 0, sizeof(*r));
}

int cp_run_result_set_str(char **field, const char *value)
{
	char *copy = cp_strdup(value);

	if (!copy)
		return -CP_ENOMEM;
	cp_free(*field);
	*field = copy;
	return 0;
}

int cp_run_result_add_reader(struct cp_run_result *r, const char *path,
			     struct cp_reader_result **out)
{
	struct cp_reader_result *readers;
	char *copy = cp_strdup(path);

	if (!copy)
		return -CP_ENOMEM;
	readers = cp_realloc(r->readers, (r->nr_readers + 1) * sizeof(*readers));
	if (!readers) {
		cp_free(copy);
		return -CP_ENOMEM;
	}
	r->readers = readers;
	memset(&readers[r->nr_readers], 0, sizeof(*readers));
	readers[r->nr_readers].path = copy;
	*out = &readers[r->nr_readers++];
	return 0;
}

int cp_reader_add_pass(struct cp_reader_result *rd, uint64_t read_bytes, uint64_t end_ns)
{
	if (rd->nr_passes == rd->cap_passes) {
		size_t cap = rd->cap_passes ? 2 * rd->cap_passes : 16;
		struct cp_pass *p = cp_realloc(rd->passes, cap * sizeof(*p));

		if (!p)
			return -CP_ENOMEM;
		rd->passes = p;
		rd->cap_passes = cap;
	}
	rd->passes[rd->nr_passes].pass = (uint32_t)(rd->nr_passes + 1);
	rd->passes[rd->nr_passes].read_bytes = read_bytes;
	rd->passes[rd->nr_passes].end_ns = end_ns;
	rd->nr_passes++;
	rd->total_read_bytes += read_bytes;
	return 0;
}

/* Index of the first counter whose name is >= name. */
static size_t counter_lower_bound(const struct cp_run_result *r, const char *name)
{
	size_t lo = 0, hi = r->nr_counters;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(r->counters[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int cp_run_result_set_counter(struct cp_run_result *r, const char *name, int64_t value)
{
	size_t i = counter_lower_bound(r, name);
	struct cp_counter *c;
	char *copy;

	if (i < r->nr_counters && strcmp(r->counters[i].name, name) == 0) {
		r->counters[i].value = value;
		return 0;
	}
	copy = cp_strdup(name);
	if (!copy)
		return -CP_ENOMEM;
	c = cp_realloc(r->counters, (r->nr_counters + 1) * sizeof(*c));
	if (!c) {
		cp_free(copy);
		return -CP_ENOMEM;
	}
	r->counters = c;
	memmove(&c[i + 1], &c[i], (r->nr_counters - i) * sizeof(*c));
	c[i].name = copy;
	c[i].value = value;
	r->nr_counters++;
	return 0;
}

int64_t cp_run_result_counter(const struct cp_run_result *r, const char *name, int64_t dflt)
{
	size_t i = counter_lower_bound(r, name);

	if (i < r->nr_counters && strcmp(r->counters[i].name, name) == 0)
		return r->counters[i].value;
	return dflt;
}

int cp_series_set_columns(struct cp_series *s, const char *const *names, size_t n)
{
	char **cols;
	size_t i;

	if (s->columns || n == 0 || strcmp(names[0], "t_ns") != 0)
		return -CP_EINVAL;
	cols = cp_calloc(n, sizeof(*cols));
	if (!cols)
		return -CP_ENOMEM;
	for (i = 0; i < n; i++) {
		cols[i] = cp_strdup(names[i]);
		if (!cols[i]) {
			while (i--)
				cp_free(cols[i]);
			cp_free(cols);
			return -CP_ENOMEM;
		}
	}
	s->columns = cols;
	s->nr_columns = n;
	return 0;
}

int cp_series_add_row(struct cp_series *s, const int64_t *row)
{
	if (!s->columns)
		return -CP_EINVAL;
	if (s->nr_rows == s->cap_rows) {
		size_t cap = s->cap_rows ? 2 * s->cap_rows : 256;
		int64_t *v = cp_realloc(s->values, cap * s->nr_columns * sizeof(*v));

		if (!v)
			return -CP_ENOMEM;
		s->values = v;
		s->cap_rows = cap;
	}
	memcpy(&s->values[s->nr_rows * s->nr_columns], row, s->nr_columns * sizeof(*row));
	s->nr_rows++;
	return 0;
}
