/*
 * schema.c - the scenario keys, their defaults and their values.
 *
 * Every key of every section type is declared once here, with the seed
 * program it stands for: read-file (reader), fs_mark 3.3 (creator),
 * read-dir (walker) and cat (streamer), all from the seed's
 * cache-pressure/ scripts (ref §1). Defaults are the programs' own
 * defaults, so a scenario only writes what the seed's command line says.
 *
 * Values are parsed with core/parse.h; sizes may also be a percentage of
 * the scenario's ram. Formatting picks the largest unit that represents
 * a value exactly, so print -> load gives back the same numbers.
 */
#include "scenario/schema.h"

#include <cachepressure/error.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "core/parse.h"

#define ACTOR_KEYS(type)                                                       \
	{ "start", CP_SK_DURATION, offsetof(type, actor.start_ns), 0, "0", 0,  \
	  "delay before starting: from run start, or from start_after's end" }, \
	{ "start_after", CP_SK_REF, offsetof(type, actor.start_after),         \
	  CP_SKF_OPTIONAL, NULL, 0,                                            \
	  "start only once this actor has ended (then wait `start`)" },        \
	{ "stop_with", CP_SK_REF, offsetof(type, actor.stop_with),             \
	  CP_SKF_OPTIONAL, NULL, 0, "stop when this actor ends" }

static const struct cp_sc_key scenario_keys[] = {
	{ "description", CP_SK_STR, offsetof(struct cp_scenario, description), 0, "", 0,
	  "one line shown by `cachepressure scenarios`" },
	{ "fs", CP_SK_NAME, offsetof(struct cp_scenario, fs), CP_SKF_REQUIRED, NULL, 0,
	  "filesystem profile (mkfs.xfs in the seed)" },
	{ "kernel", CP_SK_NAME, offsetof(struct cp_scenario, kernel), CP_SKF_OPTIONAL, NULL, 0,
	  "default kernel profile (--kernel overrides)" },
	{ "machine", CP_SK_NAME, offsetof(struct cp_scenario, machine), CP_SKF_OPTIONAL, NULL, 0,
	  "default machine profile (--machine overrides)" },
	{ "mount", CP_SK_PATH, offsetof(struct cp_scenario, mount), CP_SKF_REQUIRED, NULL, 0,
	  "mount point of the test filesystem; every path lies below it" },
	{ "name", CP_SK_NAME, offsetof(struct cp_scenario, name), CP_SKF_REQUIRED, NULL, 0,
	  "scenario name" },
	{ "ram", CP_SK_SIZE, offsetof(struct cp_scenario, ram_bytes),
	  CP_SKF_REQUIRED | CP_SKF_NONZERO, NULL, 0,
	  "RAM of the machine; --mem scales the scenario to another size" },
	{ "seed", CP_SK_COUNT, offsetof(struct cp_scenario, seed), 0, "1", 0,
	  "seed of the PRNG streams (--seed overrides)" },
	{ "time_limit", CP_SK_DURATION, offsetof(struct cp_scenario, time_limit_ns), 0, "0", 0,
	  "stop every actor after this much time; 0 = no limit" },
};

static const struct cp_sc_key file_keys[] = {
	{ "cached", CP_SK_BOOL, offsetof(struct cp_sc_file, cached), 0, "no", 0,
	  "starts in the page cache (written with dd just before the run); no: written, "
	  "then dropped from the page cache, so it starts on disk only" },
	{ "path", CP_SK_PATH, offsetof(struct cp_sc_file, path), CP_SKF_REQUIRED, NULL, 0,
	  "absolute path below scenario.mount" },
	{ "size", CP_SK_SIZE, offsetof(struct cp_sc_file, size_bytes),
	  CP_SKF_REQUIRED | CP_SKF_NONZERO | CP_SKF_SCALES, NULL, 0,
	  "file size: bytes with a unit, or N% of ram" },
	{ "sparse", CP_SK_BOOL, offsetof(struct cp_sc_file, sparse), 0, "no", 0,
	  "a hole: reading it needs no device I/O" },
};

static const struct cp_sc_key reader_keys[] = {
	{ "file", CP_SK_REF, offsetof(struct cp_sc_reader, file), CP_SKF_REQUIRED, NULL, 0,
	  "the [file NAME] it reads in a loop" },
	/* read-file.c: BUFSIZE = 1024 * 1024 */
	{ "read_size", CP_SK_SIZE, offsetof(struct cp_sc_reader, read_size_bytes),
	  CP_SKF_NONZERO, "1M", 0, "bytes per read() call" },
	{ "random_phase", CP_SK_BOOL, offsetof(struct cp_sc_reader, random_phase), 0, "no", 0,
	  "start after a seeded random delay of up to one cached pass of the file" },
	ACTOR_KEYS(struct cp_sc_reader),
};

/* Defaults are fs_mark 3.3's (fs_mark.h), used when its flag is absent. */
static const struct cp_sc_key creator_keys[] = {
	{ "dirs", CP_SK_PATHS, offsetof(struct cp_sc_creator, dirs), CP_SKF_REQUIRED, NULL, 0,
	  "-d DIR ...: one worker per directory" },
	/* -s; DEFAULT_FILE_SIZE 50 * 1024 */
	{ "file_size", CP_SK_SIZE, offsetof(struct cp_sc_creator, file_size_bytes), 0, "50K", 0,
	  "-s: bytes written to each file" },
	/* -n; DEFAULT_NUM_FILES 1000 */
	{ "files_per_loop", CP_SK_COUNT, offsetof(struct cp_sc_creator, files_per_loop),
	  CP_SKF_NONZERO | CP_SKF_SCALES, "1000", 0, "-n: files per worker and loop" },
	/* -N; 0 with -D selects the time-hash policy */
	{ "files_per_subdir", CP_SK_COUNT, offsetof(struct cp_sc_creator, files_per_subdir), 0,
	  "0", 0, "-N: files per subdirectory, round robin; 0 = time-hash policy" },
	/* -L; forces keep_files */
	{ "loops", CP_SK_COUNT, offsetof(struct cp_sc_creator, loops), CP_SKF_NONZERO, "1", 0,
	  "-L: loops; files are kept between loops" },
	/* -p; DEFAULT_NAME_LEN 40, at most FILENAME_SIZE 128 */
	{ "name_len", CP_SK_COUNT, offsetof(struct cp_sc_creator, name_len), CP_SKF_NONZERO,
	  "40", 128, "-p: characters per file name" },
	/* DEFAULT_SECS_PER_DIR 180 (no flag) */
	{ "secs_per_dir", CP_SK_DURATION, offsetof(struct cp_sc_creator, secs_per_dir_ns),
	  CP_SKF_NONZERO, "180s", 0, "time-hash policy: time spent in one subdirectory" },
	ACTOR_KEYS(struct cp_sc_creator),
	/* -D; DEFAULT_SUBDIR_CNT 0 */
	{ "subdirs", CP_SK_COUNT, offsetof(struct cp_sc_creator, subdirs), 0, "0", 0,
	  "-D: subdirectories per directory; 0 = none" },
	/* -S; default SYNC_TEST_PER_FILE (1), methods 0..6 */
	{ "sync", CP_SK_COUNT, offsetof(struct cp_sc_creator, sync), 0, "1", 6,
	  "-S: sync method, 0 = none, 1 = fsync per file (fs_mark's default)" },
};

static const struct cp_sc_key walker_keys[] = {
	/* read-dir.c reads one directory: no recursion */
	{ "recursive", CP_SK_BOOL, offsetof(struct cp_sc_walker, recursive), 0, "no", 0,
	  "descend into subdirectories (read-dir does not)" },
	{ "root", CP_SK_PATH, offsetof(struct cp_sc_walker, root), CP_SKF_REQUIRED, NULL, 0,
	  "directory read with readdir(); each regular file is stat()ed" },
	ACTOR_KEYS(struct cp_sc_walker),
};

static const struct cp_sc_key streamer_keys[] = {
	{ "file", CP_SK_REF, offsetof(struct cp_sc_streamer, file), CP_SKF_REQUIRED, NULL, 0,
	  "the [file NAME] it reads once, start to end" },
	/* coreutils cat: io_blksize() = max(st_blksize, 128 KiB) */
	{ "read_size", CP_SK_SIZE, offsetof(struct cp_sc_streamer, read_size_bytes),
	  CP_SKF_NONZERO, "128K", 0, "bytes per read() call" },
	ACTOR_KEYS(struct cp_sc_streamer),
};

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

const struct cp_sc_type cp_sc_types[CP_ST_NR] = {
	[CP_ST_SCENARIO] = { "scenario", scenario_keys, NKEYS(scenario_keys),
			     sizeof(struct cp_scenario), offsetof(struct cp_scenario, name),
			     offsetof(struct cp_scenario, origin), -1 },
	[CP_ST_FILE] = { "file", file_keys, NKEYS(file_keys), sizeof(struct cp_sc_file),
			 offsetof(struct cp_sc_file, name), offsetof(struct cp_sc_file, origin), -1 },
	[CP_ST_READER] = { "reader", reader_keys, NKEYS(reader_keys), sizeof(struct cp_sc_reader),
			   offsetof(struct cp_sc_reader, actor.name),
			   offsetof(struct cp_sc_reader, actor.origin), CP_SC_READER },
	[CP_ST_CREATOR] = { "creator", creator_keys, NKEYS(creator_keys),
			    sizeof(struct cp_sc_creator), offsetof(struct cp_sc_creator, actor.name),
			    offsetof(struct cp_sc_creator, actor.origin), CP_SC_CREATOR },
	[CP_ST_WALKER] = { "walker", walker_keys, NKEYS(walker_keys), sizeof(struct cp_sc_walker),
			   offsetof(struct cp_sc_walker, actor.name),
			   offsetof(struct cp_sc_walker, actor.origin), CP_SC_WALKER },
	[CP_ST_STREAMER] = { "streamer", streamer_keys, NKEYS(streamer_keys),
			     sizeof(struct cp_sc_streamer),
			     offsetof(struct cp_sc_streamer, actor.name),
			     offsetof(struct cp_sc_streamer, actor.origin), CP_SC_STREAMER },
};

size_t cp_sc_count(const struct cp_scenario *sc, enum cp_sc_type_id t)
{
	switch (t) {
	case CP_ST_SCENARIO: return 1;
	case CP_ST_FILE: return sc->nr_files;
	case CP_ST_READER: return sc->nr_readers;
	case CP_ST_CREATOR: return sc->nr_creators;
	case CP_ST_WALKER: return sc->nr_walkers;
	case CP_ST_STREAMER: return sc->nr_streamers;
	case CP_ST_NR: break;
	}
	CP_BUG_ON(1);
	return 0;
}

void *cp_sc_elem(const struct cp_scenario *sc, enum cp_sc_type_id t, size_t i)
{
	CP_BUG_ON(i >= cp_sc_count(sc, t));
	switch (t) {
	case CP_ST_SCENARIO: return (void *)sc;
	case CP_ST_FILE: return &sc->files[i];
	case CP_ST_READER: return &sc->readers[i];
	case CP_ST_CREATOR: return &sc->creators[i];
	case CP_ST_WALKER: return &sc->walkers[i];
	case CP_ST_STREAMER: return &sc->streamers[i];
	case CP_ST_NR: break;
	}
	CP_BUG_ON(1);
	return NULL;
}

/* Grows *arr (n elements of size) by one zeroed element. */
static int grow(void *arr_ptr, size_t *n, size_t size, void **out)
{
	void **arr = arr_ptr;
	char *p = cp_realloc(*arr, (*n + 1) * size);

	if (!p)
		return -CP_ENOMEM;
	memset(p + *n * size, 0, size);
	*arr = p;
	*out = p + *n * size;
	(*n)++;
	return 0;
}

int cp_sc_append(struct cp_scenario *sc, enum cp_sc_type_id t, void **out)
{
	/* Each array is grown through a void * temporary of its own type so
	 * no pointer is accessed through an incompatible lvalue. */
	void *arr;
	int rc;

	switch (t) {
	case CP_ST_FILE:
		arr = sc->files;
		rc = grow(&arr, &sc->nr_files, sizeof(*sc->files), out);
		sc->files = arr;
		return rc;
	case CP_ST_READER:
		arr = sc->readers;
		rc = grow(&arr, &sc->nr_readers, sizeof(*sc->readers), out);
		sc->readers = arr;
		return rc;
	case CP_ST_CREATOR:
		arr = sc->creators;
		rc = grow(&arr, &sc->nr_creators, sizeof(*sc->creators), out);
		sc->creators = arr;
		return rc;
	case CP_ST_WALKER:
		arr = sc->walkers;
		rc = grow(&arr, &sc->nr_walkers, sizeof(*sc->walkers), out);
		sc->walkers = arr;
		return rc;
	case CP_ST_STREAMER:
		arr = sc->streamers;
		rc = grow(&arr, &sc->nr_streamers, sizeof(*sc->streamers), out);
		sc->streamers = arr;
		return rc;
	case CP_ST_SCENARIO:
	case CP_ST_NR:
		break;
	}
	CP_BUG_ON(1);
	return -CP_EINVAL;
}

const char *cp_sc_elem_name(enum cp_sc_type_id t, const void *elem)
{
	const char *name;

	memcpy(&name, (const char *)elem + cp_sc_types[t].name_off, sizeof(name));
	return name;
}

struct cp_sc_origin *cp_sc_elem_origin(enum cp_sc_type_id t, void *elem)
{
	return (struct cp_sc_origin *)((char *)elem + cp_sc_types[t].origin_off);
}

int cp_sc_key_find(enum cp_sc_type_id t, const char *key)
{
	size_t i;

	for (i = 0; i < cp_sc_types[t].nr_keys; i++)
		if (strcmp(cp_sc_types[t].keys[i].key, key) == 0)
			return (int)i;
	return -1;
}

static bool name_char(char ch, bool dot)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || (dot && ch == '.');
}

static bool valid_name(const char *s, bool dot)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!name_char(s[n], dot))
			return false;
	return n > 0 && n <= 64;
}

bool cp_sc_valid_ident(const char *s)
{
	return valid_name(s, false);
}

/* An absolute path without empty, "." or ".." components, without a
 * trailing '/' (except "/" itself) and without characters that would not
 * survive a round trip through the INI file or a path list. */
static const char *path_problem(const char *s)
{
	const char *p = s;

	if (s[0] != '/')
		return "not an absolute path";
	if (strlen(s) > 4095)
		return "path longer than 4095 characters";
	for (p = s; *p; p++)
		if (*p == ' ' || *p == '\t' || *p == ',' || *p == ';' || *p == '#' ||
		    (unsigned char)*p < 0x20)
			return "path contains a space, tab, ',', ';', '#' or control character";
	if (strcmp(s, "/") == 0)
		return NULL;
	p = s;
	while (*p) {
		const char *c = p + 1, *e = strchr(c, '/');
		size_t len = e ? (size_t)(e - c) : strlen(c);

		if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
			return "path has an empty, '.' or '..' component (or a trailing '/')";
		p = c + len;
	}
	return NULL;
}

/* "39.67%" -> 39670000 millionths of a percent. */
static int parse_percent(const char *s, uint64_t *upct)
{
	uint64_t ip = 0, fp = 0, scale = 100000;
	const char *p = s;
	int digits = 0;

	while (*p >= '0' && *p <= '9') {
		if (ip > 10000000)
			return -CP_ERANGE;
		ip = ip * 10 + (uint64_t)(*p++ - '0');
		digits++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (!scale)
				return -CP_EINVAL; /* more than 6 decimals */
			fp += (uint64_t)(*p++ - '0') * scale;
			scale /= 10;
			digits++;
		}
	}
	if (!digits || strcmp(p, "%") != 0)
		return -CP_EINVAL;
	*upct = ip * 1000000 + fp;
	return 0;
}

int cp_sc_rel_size(uint64_t ram_bytes, uint64_t upct, uint64_t *bytes)
{
	unsigned __int128 v = (unsigned __int128)ram_bytes * upct / 100000000u;

	if (v > UINT64_MAX)
		return -CP_ERANGE;
	*bytes = (uint64_t)v;
	return 0;
}

static int why_set(char *why, size_t len, int rc, const char *text)
{
	if (why && len)
		snprintf(why, len, "%s", text);
	return rc;
}

static int parse_paths(const char *text, struct cp_sc_paths *out, char *why, size_t why_len)
{
	struct cp_sc_paths ps = { NULL, 0 };
	const char *p = text;
	int rc = 0;

	while (*p) {
		const char *e;
		char *one, **v;
		const char *problem;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p)
			break;
		e = p;
		while (*e && *e != ' ' && *e != '\t' && *e != ',')
			e++;
		one = cp_malloc((size_t)(e - p) + 1);
		if (!one) {
			rc = -CP_ENOMEM;
			goto fail;
		}
		memcpy(one, p, (size_t)(e - p));
		one[e - p] = '\0';
		problem = path_problem(one);
		if (problem) {
			if (why && why_len)
				snprintf(why, why_len, "'%s': %s", one, problem);
			cp_free(one);
			rc = -CP_EINVAL;
			goto fail;
		}
		v = cp_realloc(ps.v, (ps.n + 1) * sizeof(*v));
		if (!v) {
			cp_free(one);
			rc = -CP_ENOMEM;
			goto fail;
		}
		ps.v = v;
		ps.v[ps.n++] = one;
		p = e;
	}
	*out = ps;
	return 0;
fail:
	while (ps.n)
		cp_free(ps.v[--ps.n]);
	cp_free(ps.v);
	if (rc == -CP_ENOMEM)
		return why_set(why, why_len, rc, "out of memory");
	return rc;
}

int cp_sc_val_parse(const struct cp_sc_key *k, const char *text, uint64_t ram_bytes,
		    union cp_sc_val *v, uint64_t *rel_upct, char *why, size_t why_len)
{
	union cp_sc_val nv;
	const char *problem;
	int rc;

	memset(&nv, 0, sizeof(nv));
	switch (k->kind) {
	case CP_SK_STR:
	case CP_SK_NAME:
	case CP_SK_REF:
	case CP_SK_PATH:
		if (!*text && (k->flags & CP_SKF_OPTIONAL)) {
			nv.s = NULL;
			break;
		}
		if (k->kind == CP_SK_STR && (strstr(text, " ;") || strstr(text, "\t;") ||
					     strchr(text, '\n')))
			return why_set(why, why_len, -CP_EINVAL,
				       "text with ' ;' or a newline would not survive the INI file");
		if (k->kind == CP_SK_NAME && !valid_name(text, true))
			return why_set(why, why_len, -CP_EINVAL,
				       "not a name (1 to 64 of A-Z a-z 0-9 _ . -)");
		if (k->kind == CP_SK_REF && !valid_name(text, false))
			return why_set(why, why_len, -CP_EINVAL,
				       "not a section name (1 to 64 of A-Z a-z 0-9 _ -)");
		if (k->kind == CP_SK_PATH && (problem = path_problem(text)) != NULL)
			return why_set(why, why_len, -CP_EINVAL, problem);
		nv.s = cp_strdup(text);
		if (!nv.s)
			return why_set(why, why_len, -CP_ENOMEM, "out of memory");
		break;
	case CP_SK_PATHS:
		rc = parse_paths(text, &nv.p, why, why_len);
		if (rc)
			return rc;
		if (nv.p.n == 0)
			return why_set(why, why_len, -CP_EINVAL, "no path given");
		break;
	case CP_SK_SIZE:
		if (strchr(text, '%')) {
			uint64_t upct;

			rc = parse_percent(text, &upct);
			if (rc)
				return why_set(why, why_len, rc,
					       rc == -CP_ERANGE ? "percentage too large"
								: "not a percentage (e.g. 39.67%, at most 6 decimals)");
			if (ram_bytes == 0) {
				*rel_upct = upct;
				nv.u = 0;
			} else if (cp_sc_rel_size(ram_bytes, upct, &nv.u)) {
				return why_set(why, why_len, -CP_ERANGE, "size too large");
			}
			break;
		}
		rc = cp_parse_size(text, &nv.u);
		if (rc)
			return why_set(why, why_len, rc,
				       rc == -CP_ERANGE ? "size too large"
							: "not a size (e.g. 4096, 1M, 6500M, 16G or 40%)");
		break;
	case CP_SK_COUNT:
		rc = cp_parse_count(text, &nv.u);
		if (rc)
			return why_set(why, why_len, rc,
				       rc == -CP_ERANGE ? "number too large"
							: "not a whole non-negative number (e.g. 100000 or 4M)");
		if (k->max && nv.u > k->max) {
			if (why && why_len)
				snprintf(why, why_len, "must be at most %llu", (unsigned long long)k->max);
			return -CP_EINVAL;
		}
		break;
	case CP_SK_DURATION:
		rc = cp_parse_duration(text, &nv.u);
		if (rc)
			return why_set(why, why_len, rc,
				       rc == -CP_ERANGE ? "duration too long"
							: "not a duration (e.g. 5s, 100ms, 2m)");
		break;
	case CP_SK_BOOL:
		rc = cp_parse_bool(text, &nv.b);
		if (rc)
			return why_set(why, why_len, rc, "not a boolean (yes/no, true/false, on/off, 1/0)");
		break;
	}
	if ((k->flags & CP_SKF_NONZERO) && (k->kind == CP_SK_SIZE || k->kind == CP_SK_COUNT ||
					    k->kind == CP_SK_DURATION) &&
	    nv.u == 0 && !(k->kind == CP_SK_SIZE && strchr(text, '%') && ram_bytes == 0))
		return why_set(why, why_len, -CP_EINVAL, "must not be 0");
	*v = nv;
	return 0;
}

void cp_sc_val_get(const struct cp_sc_key *k, const void *elem, union cp_sc_val *v)
{
	const char *f = (const char *)elem + k->off;

	memset(v, 0, sizeof(*v));
	switch (k->kind) {
	case CP_SK_STR: case CP_SK_NAME: case CP_SK_REF: case CP_SK_PATH:
		memcpy(&v->s, f, sizeof(v->s));
		break;
	case CP_SK_PATHS:
		memcpy(&v->p, f, sizeof(v->p));
		break;
	case CP_SK_SIZE: case CP_SK_COUNT: case CP_SK_DURATION:
		memcpy(&v->u, f, sizeof(v->u));
		break;
	case CP_SK_BOOL:
		memcpy(&v->b, f, sizeof(v->b));
		break;
	}
}

void cp_sc_val_put(const struct cp_sc_key *k, void *elem, const union cp_sc_val *v)
{
	char *f = (char *)elem + k->off;

	switch (k->kind) {
	case CP_SK_STR: case CP_SK_NAME: case CP_SK_REF: case CP_SK_PATH:
		memcpy(f, &v->s, sizeof(v->s));
		break;
	case CP_SK_PATHS:
		memcpy(f, &v->p, sizeof(v->p));
		break;
	case CP_SK_SIZE: case CP_SK_COUNT: case CP_SK_DURATION:
		memcpy(f, &v->u, sizeof(v->u));
		break;
	case CP_SK_BOOL:
		memcpy(f, &v->b, sizeof(v->b));
		break;
	}
}

void cp_sc_val_free(const struct cp_sc_key *k, union cp_sc_val *v)
{
	size_t i;

	switch (k->kind) {
	case CP_SK_STR: case CP_SK_NAME: case CP_SK_REF: case CP_SK_PATH:
		cp_free(v->s);
		v->s = NULL;
		break;
	case CP_SK_PATHS:
		for (i = 0; i < v->p.n; i++)
			cp_free(v->p.v[i]);
		cp_free(v->p.v);
		v->p.v = NULL;
		v->p.n = 0;
		break;
	default:
		break;
	}
}

static void format_units(char *buf, size_t len, uint64_t v, const char *const *units,
			 const uint64_t *mults, size_t n, const char *zero)
{
	size_t i;

	if (v == 0) {
		snprintf(buf, len, "%s", zero);
		return;
	}
	for (i = 0; i < n; i++)
		if (v % mults[i] == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(v / mults[i]), units[i]);
			return;
		}
	CP_BUG_ON(1); /* the last multiplier is 1 */
}

bool cp_sc_val_format(const struct cp_sc_key *k, const void *elem, char *buf, size_t len)
{
	static const char *const size_units[] = { "T", "G", "M", "K", "" };
	static const uint64_t size_mults[] = { 1ULL << 40, 1ULL << 30, 1ULL << 20, 1ULL << 10, 1 };
	static const char *const dur_units[] = { "s", "ms", "us", "ns" };
	static const uint64_t dur_mults[] = { 1000000000ULL, 1000000ULL, 1000ULL, 1 };
	union cp_sc_val v;
	size_t i, used;

	if (len)
		buf[0] = '\0';
	cp_sc_val_get(k, elem, &v);
	switch (k->kind) {
	case CP_SK_STR: case CP_SK_NAME: case CP_SK_REF: case CP_SK_PATH:
		if (!v.s)
			return false;
		snprintf(buf, len, "%s", v.s);
		break;
	case CP_SK_PATHS:
		for (i = 0, used = 0; i < v.p.n && used < len; i++) {
			int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", v.p.v[i]);

			if (w < 0)
				break;
			used += (size_t)w;
		}
		break;
	case CP_SK_SIZE:
		format_units(buf, len, v.u, size_units, size_mults, 5, "0");
		break;
	case CP_SK_COUNT:
		snprintf(buf, len, "%llu", (unsigned long long)v.u);
		break;
	case CP_SK_DURATION:
		format_units(buf, len, v.u, dur_units, dur_mults, 4, "0s");
		break;
	case CP_SK_BOOL:
		snprintf(buf, len, "%s", v.b ? "yes" : "no");
		break;
	}
	return true;
}
