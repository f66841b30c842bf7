/*
 * json.c - run results to and from JSON with cJSON.
 *
 * cJSON allocates through cp_malloc/cp_free (cJSON_InitHooks), so the
 * allocation-failure tests reach its paths too. Integers are added as
 * raw number text, never through a double, so what is written is exact;
 * reading goes through cJSON's doubles and checks that each value is a
 * whole number within 2^53 (see json.h). No kernel mechanism here.
 */
#include "report/json.h"
#include "report/jsonput.h"

#include <cachepressure/error.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* 2^53: integers up to here survive a double. */
#define EXACT_MAX 9007199254740992.0

static void use_cp_alloc(void)
{
	cJSON_Hooks hooks = { cp_malloc, cp_free };

	cJSON_InitHooks(&hooks);
}

/* ---- writing -------------------------------------------------------------- */

static bool add_readers(cJSON *run, const struct cp_run_result *r)
{
	cJSON *readers = cJSON_AddArrayToObject(run, "readers");
	size_t i, j;

	if (!readers)
		return false;
	for (i = 0; i < r->nr_readers; i++) {
		const struct cp_reader_result *rd = &r->readers[i];
		cJSON *o = cJSON_CreateObject(), *passes;

		if (!o || !cJSON_AddItemToArray(readers, o)) {
			cJSON_Delete(o);
			return false;
		}
		if (!cp_json_put_str(o, "path", rd->path) ||
		    !cp_json_put_u64(o, "total_read_bytes", rd->total_read_bytes) ||
		    !(passes = cJSON_AddArrayToObject(o, "passes")))
			return false;
		for (j = 0; j < rd->nr_passes; j++) {
			cJSON *p = cJSON_CreateObject();

			if (!p || !cJSON_AddItemToArray(passes, p)) {
				cJSON_Delete(p);
				return false;
			}
			if (!cp_json_put_u64(p, "pass", rd->passes[j].pass) ||
			    !cp_json_put_u64(p, "read_bytes", rd->passes[j].read_bytes) ||
			    !cp_json_put_u64(p, "end_ns", rd->passes[j].end_ns))
				return false;
		}
	}
	return true;
}

static bool add_series(cJSON *run, const struct cp_series *s)
{
	cJSON *series = cJSON_AddObjectToObject(run, "series"), *cols, *rows;
	size_t i, j;

	if (!series || !(cols = cJSON_AddArrayToObject(series, "columns")) ||
	    !(rows = cJSON_AddArrayToObject(series, "rows")))
		return false;
	for (i = 0; i < s->nr_columns; i++) {
		cJSON *c = cJSON_CreateString(s->columns[i]);

		if (!c || !cJSON_AddItemToArray(cols, c)) {
			cJSON_Delete(c);
			return false;
		}
	}
	for (i = 0; i < s->nr_rows; i++) {
		cJSON *row = cJSON_CreateArray();

		if (!row || !cJSON_AddItemToArray(rows, row)) {
			cJSON_Delete(row);
			return false;
		}
		for (j = 0; j < s->nr_columns; j++)
			if (!cp_json_append_i64(row, s->values[i * s->nr_columns + j]))
				return false;
	}
	return true;
}

static cJSON *run_to_json(const struct cp_run_result *r)
{
	cJSON *run = cJSON_CreateObject(), *counters;
	size_t i;

	if (!run)
		return NULL;
	if (!cp_json_put_str(run, "source", r->source) || !cp_json_put_str(run, "policy", r->policy) ||
	    !cp_json_put_str(run, "kernel", r->kernel) || !cp_json_put_str(run, "scenario", r->scenario) ||
	    !cp_json_put_str(run, "confine", r->confine) || !cp_json_put_u64(run, "mem_bytes", r->mem_bytes))
		goto fail;
	if (r->seed > (1ULL << 53)) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%" PRIu64, r->seed);
		if (!cJSON_AddStringToObject(run, "seed", buf))
			goto fail;
	} else if (!cp_json_put_u64(run, "seed", r->seed)) {
		goto fail;
	}
	if (!cp_json_put_u64(run, "duration_ns", r->duration_ns) ||
	    !cJSON_AddBoolToObject(run, "failed", r->failed != 0) ||
	    !cp_json_put_str(run, "failure", r->failure) || !add_readers(run, r) ||
	    !(counters = cJSON_AddObjectToObject(run, "counters")))
		goto fail;
	for (i = 0; i < r->nr_counters; i++) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%" PRId64, r->counters[i].value);
		if (!cJSON_AddRawToObject(counters, r->counters[i].name, buf))
			goto fail;
	}
	if (!add_series(run, &r->series))
		goto fail;
	return run;
fail:
	cJSON_Delete(run);
	return NULL;
}

cJSON *cp_report_json_tree(const struct cp_run_result *const *runs, size_t n)
{
	cJSON *root, *arr;
	size_t i;

	use_cp_alloc();
	root = cJSON_CreateObject();
	if (!root || !(arr = cJSON_AddArrayToObject(root, "runs")))
		goto fail;
	for (i = 0; i < n; i++) {
		cJSON *run = run_to_json(runs[i]);

		if (!run)
			goto fail;
		if (!cJSON_AddItemToArray(arr, run)) {
			cJSON_Delete(run);
			goto fail;
		}
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

static char *to_text(const struct cp_run_result *const *runs, size_t n)
{
	cJSON *root = cp_report_json_tree(runs, n);
	char *text = root ? cJSON_Print(root) : NULL;

	cJSON_Delete(root);
	return text;
}

int cp_report_json_fprint(FILE *out, const struct cp_run_result *const *runs, size_t n,
			  struct cp_diag *diag)
{
	char *text = to_text(runs, n);
	int ok;

	if (!text)
		return cp_diag_set(diag, -CP_ENOMEM, "JSON output: out of memory");
	ok = fputs(text, out) >= 0 && fputc('\n', out) != EOF;
	cJSON_free(text);
	if (!ok || fflush(out) != 0)
		return cp_diag_set(diag, -CP_EIO, "JSON output: write failed");
	return 0;
}

int cp_report_json_write(const char *path, const struct cp_run_result *const *runs, size_t n,
			 struct cp_diag *diag)
{
	char *text = to_text(runs, n);
	FILE *fp;
	int ok;

	if (!text)
		return cp_diag_set(diag, -CP_ENOMEM, "%s: out of memory", path);
	fp = fopen(path, "w");
	if (!fp) {
		int e = errno;

		cJSON_free(text);
		return cp_diag_set(diag, -CP_EIO, "%s: cannot create: %s", path, strerror(e));
	}
	ok = fputs(text, fp) >= 0 && fputc('\n', fp) != EOF;
	cJSON_free(text);
	if (fclose(fp) != 0)
		ok = 0;
	if (!ok)
		return cp_diag_set(diag, -CP_EIO, "%s: write failed", path);
	return 0;
}

/* ---- reading ------------------------------------------------------------- */

struct jctx {
	const char *source;
	struct cp_diag *diag;
};

static int jfail(const struct jctx *c, int rc, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static int jfail(const struct jctx *c, int rc, const char *where, const char *fmt, ...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (rc == -CP_ENOMEM)
		return cp_diag_set(c->diag, rc, "%s: out of memory", c->source);
	return cp_diag_set(c->diag, rc, "%s: %s: %s", c->source, where, reason);
}

/* A whole number in [min, 2^53]. */
static int get_int(const struct jctx *c, const cJSON *obj, const char *key, const char *where,
		   bool required, double min, int64_t *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	double d;

	if (!it) {
		if (required)
			return jfail(c, -CP_EINVAL, where, "missing key '%s'", key);
		return 0;
	}
	if (!cJSON_IsNumber(it))
		return jfail(c, -CP_EINVAL, where, "'%s' is not a number", key);
	d = it->valuedouble;
	if (!(d >= min && d <= EXACT_MAX) || d != (double)(int64_t)d)
		return jfail(c, -CP_EINVAL, where, "'%s' = %.17g is not a whole number in "
			     "[%.0f, 2^53]", key, d, min);
	*out = (int64_t)d;
	return 0;
}

static int get_u64(const struct jctx *c, const cJSON *obj, const char *key, const char *where,
		   bool required, uint64_t *out)
{
	int64_t v = 0;
	int rc = get_int(c, obj, key, where, required, 0, &v);

	if (!rc && cJSON_GetObjectItemCaseSensitive(obj, key))
		*out = (uint64_t)v;
	return rc;
}

/* A string or null into *field (a copy). */
static int get_str(const struct jctx *c, const cJSON *obj, const char *key, const char *where,
		   bool required, char **field)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!it) {
		if (required)
			return jfail(c, -CP_EINVAL, where, "missing key '%s'", key);
		return 0;
	}
	if (cJSON_IsNull(it))
		return 0;
	if (!cJSON_IsString(it))
		return jfail(c, -CP_EINVAL, where, "'%s' is not a string", key);
	if (cp_run_result_set_str(field, it->valuestring))
		return jfail(c, -CP_ENOMEM, where, "out of memory");
	return 0;
}

static int get_seed(const struct jctx *c, const cJSON *obj, const char *where, uint64_t *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, "seed");
	unsigned long long v;
	char *end;

	if (!it || !cJSON_IsString(it))
		return get_u64(c, obj, "seed", where, false, out);
	errno = 0;
	v = strtoull(it->valuestring, &end, 10);
	if (errno || end == it->valuestring || *end || it->valuestring[0] == '-')
		return jfail(c, -CP_EINVAL, where, "'seed' = \"%s\" is not a 64-bit number",
			     it->valuestring);
	*out = v;
	return 0;
}

static int parse_readers(const struct jctx *c, const cJSON *run, const char *where,
			 struct cp_run_result *r)
{
	const cJSON *readers = cJSON_GetObjectItemCaseSensitive(run, "readers"), *o;
	char at[192], at2[224];
	size_t i = 0;
	int rc;

	if (!cJSON_IsArray(readers))
		return jfail(c, -CP_EINVAL, where, "'readers' is missing or not an array");
	cJSON_ArrayForEach(o, readers) {
		const cJSON *path, *passes, *p;
		struct cp_reader_result *rd;
		uint64_t total = 0;
		size_t j = 0;

		snprintf(at, sizeof(at), "%s.readers[%zu]", where, i++);
		path = cJSON_GetObjectItemCaseSensitive(o, "path");
		if (!cJSON_IsObject(o) || !cJSON_IsString(path))
			return jfail(c, -CP_EINVAL, at, "not an object with a string 'path'");
		if (cp_run_result_add_reader(r, path->valuestring, &rd))
			return jfail(c, -CP_ENOMEM, at, "out of memory");
		rc = get_u64(c, o, "total_read_bytes", at, true, &total);
		if (rc)
			return rc;
		passes = cJSON_GetObjectItemCaseSensitive(o, "passes");
		if (!cJSON_IsArray(passes))
			return jfail(c, -CP_EINVAL, at, "'passes' is missing or not an array");
		cJSON_ArrayForEach(p, passes) {
			uint64_t pass = 0, bytes = 0, end = 0;

			snprintf(at2, sizeof(at2), "%s.passes[%zu]", at, j++);
			if (!cJSON_IsObject(p))
				return jfail(c, -CP_EINVAL, at2, "not an object");
			if ((rc = get_u64(c, p, "pass", at2, true, &pass)) ||
			    (rc = get_u64(c, p, "read_bytes", at2, true, &bytes)) ||
			    (rc = get_u64(c, p, "end_ns", at2, true, &end)))
				return rc;
			if (pass != j)
				return jfail(c, -CP_EINVAL, at2, "'pass' = %" PRIu64 ", expected %zu "
					     "(passes are numbered from 1 in order)", pass, j);
			if (cp_reader_add_pass(rd, bytes, end))
				return jfail(c, -CP_ENOMEM, at2, "out of memory");
		}
		if (rd->total_read_bytes != total)
			return jfail(c, -CP_EINVAL, at, "'total_read_bytes' = %" PRIu64 " but the "
				     "passes add up to %" PRIu64, total, rd->total_read_bytes);
	}
	return 0;
}

static int parse_counters(const struct jctx *c, const cJSON *run, const char *where,
			  struct cp_run_result *r)
{
	const cJSON *counters = cJSON_GetObjectItemCaseSensitive(run, "counters"), *it;
	char at[192];
	int rc;

	if (!cJSON_IsObject(counters))
		return jfail(c, -CP_EINVAL, where, "'counters' is missing or not an object");
	snprintf(at, sizeof(at), "%s.counters", where);
	cJSON_ArrayForEach(it, counters) {
		int64_t v = 0;

		rc = get_int(c, counters, it->string, at, true, -EXACT_MAX, &v);
		if (rc)
			return rc;
		if (cp_run_result_counter(r, it->string, INT64_MIN) != INT64_MIN)
			return jfail(c, -CP_EINVAL, at, "counter '%s' given twice", it->string);
		if (cp_run_result_set_counter(r, it->string, v))
			return jfail(c, -CP_ENOMEM, at, "out of memory");
	}
	return 0;
}

static int parse_series(const struct jctx *c, const cJSON *run, const char *where,
			struct cp_run_result *r)
{
	const cJSON *series = cJSON_GetObjectItemCaseSensitive(run, "series"), *cols, *rows, *it;
	const char **names = NULL;
	int64_t *vals = NULL;
	size_t n, i = 0;
	char at[192], at2[224];
	int rc = 0;

	if (!series)
		return 0;
	snprintf(at, sizeof(at), "%s.series", where);
	cols = cJSON_GetObjectItemCaseSensitive(series, "columns");
	rows = cJSON_GetObjectItemCaseSensitive(series, "rows");
	if (!cJSON_IsObject(series) || !cJSON_IsArray(cols) || !cJSON_IsArray(rows))
		return jfail(c, -CP_EINVAL, at, "not an object with arrays 'columns' and 'rows'");
	n = (size_t)cJSON_GetArraySize(cols);
	if (n == 0)
		return cJSON_GetArraySize(rows) ? jfail(c, -CP_EINVAL, at, "rows without columns")
						: 0;
	names = cp_calloc(n, sizeof(*names));
	vals = cp_calloc(n, sizeof(*vals));
	if (!names || !vals) {
		rc = jfail(c, -CP_ENOMEM, at, "out of memory");
		goto out;
	}
	cJSON_ArrayForEach(it, cols) {
		if (!cJSON_IsString(it)) {
			rc = jfail(c, -CP_EINVAL, at, "column %zu is not a string", i);
			goto out;
		}
		names[i++] = it->valuestring;
	}
	rc = cp_series_set_columns(&r->series, names, n);
	if (rc) {
		rc = jfail(c, rc, at, "the first column must be \"t_ns\"");
		goto out;
	}
	i = 0;
	cJSON_ArrayForEach(it, rows) {
		const cJSON *v;
		size_t j = 0;

		snprintf(at2, sizeof(at2), "%s.rows[%zu]", at, i++);
		if (!cJSON_IsArray(it) || (size_t)cJSON_GetArraySize(it) != n) {
			rc = jfail(c, -CP_EINVAL, at2, "not an array of %zu numbers", n);
			goto out;
		}
		cJSON_ArrayForEach(v, it) {
			double d = v->valuedouble;

			if (!cJSON_IsNumber(v) || !(d >= -EXACT_MAX && d <= EXACT_MAX) ||
			    d != (double)(int64_t)d) {
				rc = jfail(c, -CP_EINVAL, at2, "value %zu is not a whole number "
					   "within 2^53", j);
				goto out;
			}
			vals[j++] = (int64_t)d;
		}
		if (cp_series_add_row(&r->series, vals)) {
			rc = jfail(c, -CP_ENOMEM, at2, "out of memory");
			goto out;
		}
	}
out:
	cp_free(names);
	cp_free(vals);
	return rc;
}

static int parse_run(const struct jctx *c, const cJSON *run, const char *where,
		     struct cp_run_result *r)
{
	const cJSON *failed;
	int rc;

	if (!cJSON_IsObject(run))
		return jfail(c, -CP_EINVAL, where, "not an object");
	if ((rc = get_str(c, run, "source", where, false, &r->source)) ||
	    (rc = get_str(c, run, "policy", where, true, &r->policy)) ||
	    (rc = get_str(c, run, "kernel", where, true, &r->kernel)) ||
	    (rc = get_str(c, run, "scenario", where, true, &r->scenario)) ||
	    (rc = get_str(c, run, "confine", where, false, &r->confine)) ||
	    (rc = get_u64(c, run, "mem_bytes", where, false, &r->mem_bytes)) ||
	    (rc = get_seed(c, run, where, &r->seed)) ||
	    (rc = get_u64(c, run, "duration_ns", where, false, &r->duration_ns)) ||
	    (rc = get_str(c, run, "failure", where, false, &r->failure)))
		return rc;
	failed = cJSON_GetObjectItemCaseSensitive(run, "failed");
	if (failed && !cJSON_IsBool(failed))
		return jfail(c, -CP_EINVAL, where, "'failed' is not true or false");
	r->failed = cJSON_IsTrue(failed);
	if ((rc = parse_readers(c, run, where, r)) || (rc = parse_counters(c, run, where, r)) ||
	    (rc = parse_series(c, run, where, r)))
		return rc;
	return 0;
}

void cp_report_runs_free(struct cp_run_result *runs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cp_run_result_release(&runs[i]);
	cp_free(runs);
}

int cp_report_json_parse(const char *text, const char *source, struct cp_run_result **runs,
			 size_t *n, struct cp_diag *diag)
{
	struct jctx c = { source, diag };
	const char *end = NULL;
	const cJSON *arr, *run;
	struct cp_run_result *res = NULL;
	size_t nr, i = 0;
	cJSON *root;
	int rc = 0;

	use_cp_alloc();
	root = cJSON_ParseWithOpts(text, &end, 1);
	if (!root) {
		unsigned line = 1;
		const char *p;

		/* cJSON reports an allocation failure like a syntax error:
		 * tell them apart by whether memory is available now */
		void *probe = cp_malloc(64);

		if (!probe)
			return cp_diag_set(diag, -CP_ENOMEM, "%s: out of memory", source);
		cp_free(probe);
		if (!end || end < text)
			end = text;
		for (p = text; p < end; p++)
			line += *p == '\n';
		return cp_diag_set(diag, -CP_EINVAL, "%s:%u: not valid JSON", source, line);
	}
	arr = cJSON_GetObjectItemCaseSensitive(root, "runs");
	if (!cJSON_IsObject(root) || !cJSON_IsArray(arr)) {
		rc = jfail(&c, -CP_EINVAL, "top level", "expected an object {\"runs\": [...]}");
		goto out;
	}
	nr = (size_t)cJSON_GetArraySize(arr);
	res = cp_calloc(nr ? nr : 1, sizeof(*res));
	if (!res) {
		rc = jfail(&c, -CP_ENOMEM, "runs", "out of memory");
		goto out;
	}
	cJSON_ArrayForEach(run, arr) {
		char where[32];

		snprintf(where, sizeof(where), "runs[%zu]", i);
		cp_run_result_init(&res[i]);
		rc = parse_run(&c, run, where, &res[i]);
		i++;
		if (rc)
			goto out;
	}
	*runs = res;
	*n = nr;
	res = NULL;
out:
	if (res)
		cp_report_runs_free(res, i);
	cJSON_Delete(root);
	return rc;
}

int cp_report_json_read(const char *path, struct cp_run_result **runs, size_t *n,
			struct cp_diag *diag)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	int rc;

	if (!fp) {
		int e = errno;

		return cp_diag_set(diag, e == ENOENT ? -CP_ENOENT : -CP_EIO, "%s: cannot open: %s",
				   path, strerror(e));
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 65536;
			nb = cp_realloc(buf, cap + 1);
			if (!nb) {
				cp_free(buf);
				fclose(fp);
				return cp_diag_set(diag, -CP_ENOMEM, "%s: out of memory", path);
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
	} while (got > 0);
	if (ferror(fp)) {
		cp_free(buf);
		fclose(fp);
		return cp_diag_set(diag, -CP_EIO, "%s: read error", path);
	}
	fclose(fp);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		cp_free(buf);
		return cp_diag_set(diag, -CP_EINVAL, "%s: contains a NUL byte; not JSON", path);
	}
	rc = cp_report_json_parse(buf, path, runs, n, diag);
	cp_free(buf);
	return rc;
}
