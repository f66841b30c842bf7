/*
 * scenario.c - loading a scenario from INI, --set overrides, --mem scaling.
 *
 * The file is parsed by inih (ini_parse_stream) through a line reader of
 * our own, which counts lines (the library we link is built without
 * INI_HANDLER_LINENO), notes where each "[section]" header is, and
 * rejects lines longer than inih's buffer instead of letting inih split
 * them. Each key goes through the schema (schema.c): unknown sections
 * and keys, bad values and repeated keys stop the load at the first
 * error, with "FILE:LINE: [SECTION] KEY = VALUE: reason".
 *
 * After parsing, relative sizes ("40%") are resolved against ram, each
 * section array is sorted by name, and the whole scenario is validated
 * (validate.c). No kernel mechanism is modelled here.
 */
#include "scenario/scenario.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "scenario/schema.h"
#include "scenario/validate.h"

#define LINE_BUF 8192

/* A relative size seen before ram was known. */
struct pending_rel {
	enum cp_sc_type_id type;
	size_t idx;
	int key;
	uint64_t upct;
};

/* A "[...]" line as the reader saw it. */
struct header {
	unsigned line;
	char text[80]; /* from '[' up to (not including) ']' */
};

struct load_ctx {
	struct cp_scenario *sc;
	struct cp_diag *diag;
	int rc;                    /* first error, 0 while all is well */

	/* input: a FILE or a string */
	FILE *fp;
	const char *str;
	char buf[LINE_BUF];
	unsigned line;             /* number of the line inih is handling */
	bool line_indented;        /* it starts with white space */
	unsigned last_header;      /* line of the last "[...]" seen */
	struct header *headers;    /* every "[...]" line, in order */
	size_t nr_headers, cap_headers;

	/* the section being filled */
	char *cur_section;
	unsigned cur_header;
	enum cp_sc_type_id cur_type;
	size_t cur_idx;
	bool scenario_seen;

	struct pending_rel *rel;
	size_t nr_rel, cap_rel;
};

static int load_fail(struct load_ctx *c, int rc, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static int load_fail(struct load_ctx *c, int rc, const char *fmt, ...)
{
	char msg[CP_DIAG_LEN];
	va_list ap;

	if (c->rc)
		return c->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->rc = rc;
	cp_diag_set(c->diag, rc, "%s", msg);
	return rc;
}

static int push_header(struct load_ctx *c, unsigned line, const char *text)
{
	if (c->nr_headers == c->cap_headers) {
		size_t nc = c->cap_headers ? 2 * c->cap_headers : 16;
		struct header *h = cp_realloc(c->headers, nc * sizeof(*h));

		if (!h)
			return -CP_ENOMEM;
		c->headers = h;
		c->cap_headers = nc;
	}
	c->headers[c->nr_headers].line = line;
	snprintf(c->headers[c->nr_headers].text, sizeof(c->headers[0].text), "%.*s",
		 (int)strcspn(text, "]\r\n"), text);
	c->nr_headers++;
	return 0;
}

/* Gets the next raw line into c->buf; false at the end. */
static bool next_raw_line(struct load_ctx *c, bool *complete)
{
	size_t len;

	if (c->fp) {
		if (!fgets(c->buf, sizeof(c->buf), c->fp)) {
			if (ferror(c->fp))
				load_fail(c, -CP_EIO, "%s: read error", c->sc->source);
			return false;
		}
		len = strlen(c->buf);
		*complete = (len > 0 && c->buf[len - 1] == '\n') || feof(c->fp);
		return true;
	}
	if (!*c->str)
		return false;
	len = strcspn(c->str, "\n");
	if (c->str[len] == '\n')
		len++;
	*complete = len < sizeof(c->buf);
	if (len >= sizeof(c->buf))
		len = sizeof(c->buf) - 1;
	memcpy(c->buf, c->str, len);
	c->buf[len] = '\0';
	c->str += len;
	return true;
}

/* The ini_reader: one whole line per call, counted. */
static char *read_line(char *out, int num, void *stream)
{
	struct load_ctx *c = stream;
	bool complete = true;
	const char *p;
	size_t len;

	if (c->rc || !next_raw_line(c, &complete))
		return NULL;
	c->line++;
	len = strlen(c->buf);
	if (!complete || num < 3 || len > (size_t)num - 1) {
		load_fail(c, -CP_EINVAL, "%s:%u: line longer than %d characters", c->sc->source,
			  c->line, num > 2 ? num - 2 : 0);
		return NULL;
	}
	c->line_indented = c->buf[0] == ' ' || c->buf[0] == '\t';
	p = c->buf;
	if (c->line == 1 && strncmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3; /* inih skips a UTF-8 byte order mark */
	p += strspn(p, " \t");
	if (*p == '[') {
		if (push_header(c, c->line, p)) {
			load_fail(c, -CP_ENOMEM, "%s: out of memory", c->sc->source);
			return NULL;
		}
		c->last_header = c->line;
	}
	memcpy(out, c->buf, len + 1);
	return out;
}

/* Splits "TYPE NAME" (any white space) into its words. */
static int split_section(const char *section, char *type, size_t tlen, char *name, size_t nlen,
			 bool *extra)
{
	const char *p = section, *e;

	*extra = false;
	type[0] = name[0] = '\0';
	p += strspn(p, " \t");
	e = p + strcspn(p, " \t");
	if ((size_t)(e - p) >= tlen)
		return -1;
	memcpy(type, p, (size_t)(e - p));
	type[e - p] = '\0';
	p = e + strspn(e, " \t");
	e = p + strcspn(p, " \t");
	if ((size_t)(e - p) >= nlen)
		return -1;
	memcpy(name, p, (size_t)(e - p));
	name[e - p] = '\0';
	p = e + strspn(e, " \t");
	*extra = *p != '\0';
	return 0;
}

static int type_by_name(const char *name)
{
	int t;

	for (t = 0; t < CP_ST_NR; t++)
		if (strcmp(cp_sc_types[t].name, name) == 0)
			return t;
	return -1;
}

/* Applies the defaults of a new section. */
static int apply_defaults(struct load_ctx *c, enum cp_sc_type_id t, void *elem)
{
	const struct cp_sc_type *ty = &cp_sc_types[t];
	size_t k;

	for (k = 0; k < ty->nr_keys; k++) {
		const struct cp_sc_key *key = &ty->keys[k];
		union cp_sc_val v;
		char why[128];
		int rc;

		if (!key->dflt)
			continue;
		rc = cp_sc_val_parse(key, key->dflt, 1, &v, NULL, why, sizeof(why));
		if (rc == -CP_ENOMEM)
			return load_fail(c, rc, "%s: out of memory", c->sc->source);
		CP_BUG_ON(rc); /* the schema's defaults are valid */
		cp_sc_val_put(key, elem, &v);
	}
	return 0;
}

static int open_section(struct load_ctx *c, const char *section, const char *key,
			const char *value)
{
	char type[32], name[80];
	bool extra;
	int t;
	size_t i;
	void *elem;
	char *copy;

	cp_free(c->cur_section);
	c->cur_section = cp_strdup(section);
	if (!c->cur_section)
		return load_fail(c, -CP_ENOMEM, "%s: out of memory", c->sc->source);
	c->cur_header = c->last_header;

	if (!*section)
		return load_fail(c, -CP_EINVAL, "%s:%u: %s = %s: key outside a section "
			"(start with [scenario])", c->sc->source, c->line, key, value);
	if (split_section(section, type, sizeof(type), name, sizeof(name), &extra))
		return load_fail(c, -CP_EINVAL, "%s:%u: [%s]: section name too long",
				 c->sc->source, c->cur_header, section);
	t = type_by_name(type);
	if (t < 0)
		return load_fail(c, -CP_EINVAL, "%s:%u: [%s] %s = %s: unknown section type '%s' "
			"(expected scenario, file, reader, creator, walker or streamer)",
			c->sc->source, c->cur_header, section, key, value, type);
	if (extra)
		return load_fail(c, -CP_EINVAL, "%s:%u: [%s]: a section is [TYPE NAME]; too many words",
				 c->sc->source, c->cur_header, section);
	c->cur_type = (enum cp_sc_type_id)t;
	if (t == CP_ST_SCENARIO) {
		if (name[0])
			return load_fail(c, -CP_EINVAL, "%s:%u: [%s]: the scenario section has no "
				"name (write [scenario] and name = %s)", c->sc->source,
				c->cur_header, section, name);
		if (c->scenario_seen)
			return load_fail(c, -CP_EINVAL, "%s:%u: [scenario]: section given twice "
				"(first at line %u)", c->sc->source, c->cur_header,
				c->sc->origin.line);
		c->scenario_seen = true;
		c->sc->origin.line = c->cur_header;
		c->cur_idx = 0;
		return 0;
	}
	if (!name[0])
		return load_fail(c, -CP_EINVAL, "%s:%u: [%s]: missing name (write [%s NAME])",
				 c->sc->source, c->cur_header, section, type);
	if (!cp_sc_valid_ident(name))
		return load_fail(c, -CP_EINVAL, "%s:%u: [%s]: bad name '%s' (1 to 64 of "
			"A-Z a-z 0-9 _ -)", c->sc->source, c->cur_header, section, name);
	for (i = 0; i < cp_sc_count(c->sc, (enum cp_sc_type_id)t); i++) {
		void *other = cp_sc_elem(c->sc, (enum cp_sc_type_id)t, i);

		if (strcmp(cp_sc_elem_name((enum cp_sc_type_id)t, other), name) == 0)
			return load_fail(c, -CP_EINVAL, "%s:%u: [%s %s]: section given twice "
				"(first at line %u)", c->sc->source, c->cur_header, type, name,
				cp_sc_elem_origin((enum cp_sc_type_id)t, other)->line);
	}
	copy = cp_strdup(name);
	if (!copy || cp_sc_append(c->sc, (enum cp_sc_type_id)t, &elem)) {
		cp_free(copy);
		return load_fail(c, -CP_ENOMEM, "%s: out of memory", c->sc->source);
	}
	memcpy((char *)elem + cp_sc_types[t].name_off, &copy, sizeof(copy));
	cp_sc_elem_origin((enum cp_sc_type_id)t, elem)->line = c->cur_header;
	c->cur_idx = cp_sc_count(c->sc, (enum cp_sc_type_id)t) - 1;
	return apply_defaults(c, (enum cp_sc_type_id)t, elem);
}

static void section_label(char *buf, size_t len, enum cp_sc_type_id t, const void *elem)
{
	if (t == CP_ST_SCENARIO)
		snprintf(buf, len, "[scenario]");
	else
		snprintf(buf, len, "[%s %s]", cp_sc_types[t].name, cp_sc_elem_name(t, elem));
}

/* An indented line after "dirs = ..." continues the list (inih calls
 * the handler again with the same key). */
static int append_paths(struct load_ctx *c, const struct cp_sc_key *k, void *elem,
			const char *label, const char *key, const char *value)
{
	union cp_sc_val add, cur;
	char why[160];
	char **v;
	int rc;

	rc = cp_sc_val_parse(k, value, 0, &add, NULL, why, sizeof(why));
	if (rc) {
		load_fail(c, rc == -CP_ENOMEM ? rc : -CP_EINVAL, "%s:%u: %s %s = %s: %s",
			  c->sc->source, c->line, label, key, value, why);
		return 1;
	}
	cp_sc_val_get(k, elem, &cur);
	v = cp_realloc(cur.p.v, (cur.p.n + add.p.n) * sizeof(*v));
	if (!v) {
		cp_sc_val_free(k, &add);
		load_fail(c, -CP_ENOMEM, "%s: out of memory", c->sc->source);
		return 1;
	}
	memcpy(v + cur.p.n, add.p.v, add.p.n * sizeof(*v));
	cur.p.v = v;
	cur.p.n += add.p.n;
	cp_free(add.p.v);
	cp_sc_val_put(k, elem, &cur);
	return 1;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct load_ctx *c = user;
	const struct cp_sc_type *ty;
	const struct cp_sc_key *k;
	struct cp_sc_origin *o;
	union cp_sc_val v, old;
	uint64_t upct = UINT64_MAX;
	char why[160], label[96];
	void *elem;
	int ki, rc;

	if (c->rc)
		return 1;
	if (!c->cur_section || strcmp(section, c->cur_section) != 0 ||
	    c->last_header != c->cur_header) {
		if (open_section(c, section, key, value))
			return 1;
	}
	ty = &cp_sc_types[c->cur_type];
	elem = cp_sc_elem(c->sc, c->cur_type, c->cur_idx);
	o = cp_sc_elem_origin(c->cur_type, elem);
	section_label(label, sizeof(label), c->cur_type, elem);
	ki = cp_sc_key_find(c->cur_type, key);
	if (ki < 0) {
		char valid[256];
		size_t i, used = 0;

		valid[0] = '\0';
		for (i = 0; i < ty->nr_keys && used < sizeof(valid); i++)
			used += (size_t)snprintf(valid + used, sizeof(valid) - used, "%s%s",
						 i ? ", " : "", ty->keys[i].key);
		load_fail(c, -CP_EINVAL, "%s:%u: %s %s = %s: unknown key '%s' (valid: %s)",
			  c->sc->source, c->line, label, key, value, key, valid);
		return 1;
	}
	k = &ty->keys[ki];
	if (o->key_line[ki] && c->line_indented && k->kind == CP_SK_PATHS)
		return append_paths(c, k, elem, label, key, value);
	if (o->key_line[ki]) {
		if (c->line_indented)
			load_fail(c, -CP_EINVAL, "%s:%u: %s %s = %s: an indented line continues "
				"the value of '%s' (line %u); remove the indentation",
				c->sc->source, c->line, label, key, value, key, o->key_line[ki]);
		else
			load_fail(c, -CP_EINVAL, "%s:%u: %s %s = %s: key given twice (first at "
				"line %u)", c->sc->source, c->line, label, key, value,
				o->key_line[ki]);
		return 1;
	}
	rc = cp_sc_val_parse(k, value, 0, &v, &upct, why, sizeof(why));
	if (rc) {
		load_fail(c, rc == -CP_ENOMEM ? rc : -CP_EINVAL, "%s:%u: %s %s = %s: %s",
			  c->sc->source, c->line, label, key, value, why);
		return 1;
	}
	if (upct != UINT64_MAX) {
		struct pending_rel *p = c->rel;

		if (c->nr_rel == c->cap_rel) {
			size_t nc = c->cap_rel ? 2 * c->cap_rel : 8;

			p = cp_realloc(c->rel, nc * sizeof(*p));
			if (!p) {
				cp_sc_val_free(k, &v);
				load_fail(c, -CP_ENOMEM, "%s: out of memory", c->sc->source);
				return 1;
			}
			c->rel = p;
			c->cap_rel = nc;
		}
		c->rel[c->nr_rel++] = (struct pending_rel){ c->cur_type, c->cur_idx, ki, upct };
	}
	cp_sc_val_get(k, elem, &old);
	cp_sc_val_put(k, elem, &v);
	cp_sc_val_free(k, &old);
	o->key_line[ki] = c->line;
	return 1;
}

/* Every header must have received a key: inih never reports an empty
 * section, so "[reader r1]" with all its keys missing would vanish. */
static int check_empty_sections(struct load_ctx *c)
{
	size_t i, j;

	for (i = 0; i < c->nr_headers; i++) {
		bool used = c->headers[i].line == c->sc->origin.line;
		int t;

		for (t = CP_ST_FILE; t < CP_ST_NR && !used; t++)
			for (j = 0; j < cp_sc_count(c->sc, (enum cp_sc_type_id)t) && !used; j++)
				used = cp_sc_elem_origin((enum cp_sc_type_id)t,
					cp_sc_elem(c->sc, (enum cp_sc_type_id)t, j))->line == c->headers[i].line;
		if (!used)
			return load_fail(c, -CP_EINVAL, "%s:%u: %s]: section without keys",
					 c->sc->source, c->headers[i].line, c->headers[i].text);
	}
	return 0;
}

static int check_required(struct load_ctx *c)
{
	int t;
	size_t i, k;

	if (!c->scenario_seen)
		return load_fail(c, -CP_EINVAL, "%s: missing [scenario] section", c->sc->source);
	for (t = 0; t < CP_ST_NR; t++) {
		const struct cp_sc_type *ty = &cp_sc_types[t];

		for (i = 0; i < cp_sc_count(c->sc, (enum cp_sc_type_id)t); i++) {
			void *elem = cp_sc_elem(c->sc, (enum cp_sc_type_id)t, i);
			struct cp_sc_origin *o = cp_sc_elem_origin((enum cp_sc_type_id)t, elem);
			char label[96];

			section_label(label, sizeof(label), (enum cp_sc_type_id)t, elem);
			for (k = 0; k < ty->nr_keys; k++)
				if ((ty->keys[k].flags & CP_SKF_REQUIRED) && !o->key_line[k])
					return load_fail(c, -CP_EINVAL, "%s:%u: %s: missing key '%s' (%s)",
						c->sc->source, o->line, label, ty->keys[k].key,
						ty->keys[k].help);
		}
	}
	return 0;
}

static int resolve_relative(struct load_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_rel; i++) {
		const struct pending_rel *p = &c->rel[i];
		const struct cp_sc_key *k = &cp_sc_types[p->type].keys[p->key];
		void *elem = cp_sc_elem(c->sc, p->type, p->idx);
		struct cp_sc_origin *o = cp_sc_elem_origin(p->type, elem);
		uint64_t bytes;
		char label[96];

		section_label(label, sizeof(label), p->type, elem);
		if (p->type == CP_ST_SCENARIO && p->key == cp_sc_key_find(CP_ST_SCENARIO, "ram"))
			return load_fail(c, -CP_EINVAL, "%s:%u: [scenario] ram: cannot be relative "
				"to itself", c->sc->source, o->key_line[p->key]);
		if (cp_sc_rel_size(c->sc->ram_bytes, p->upct, &bytes))
			return load_fail(c, -CP_EINVAL, "%s:%u: %s %s: %llu.%06llu%% of ram is too "
				"large", c->sc->source, o->key_line[p->key], label, k->key,
				(unsigned long long)(p->upct / 1000000),
				(unsigned long long)(p->upct % 1000000));
		if (bytes == 0 && (k->flags & CP_SKF_NONZERO))
			return load_fail(c, -CP_EINVAL, "%s:%u: %s %s = %llu.%06llu%%: is 0 bytes "
				"of ram = %llu; must not be 0", c->sc->source, o->key_line[p->key],
				label, k->key, (unsigned long long)(p->upct / 1000000),
				(unsigned long long)(p->upct % 1000000),
				(unsigned long long)c->sc->ram_bytes);
		memcpy((char *)elem + k->off, &bytes, sizeof(bytes));
	}
	return 0;
}

/* Stable insertion sort of one type's array by name. */
static void sort_sections(struct cp_scenario *sc, enum cp_sc_type_id t)
{
	union {
		struct cp_sc_file file;
		struct cp_sc_reader reader;
		struct cp_sc_creator creator;
		struct cp_sc_walker walker;
		struct cp_sc_streamer streamer;
	} tmp;
	size_t n = cp_sc_count(sc, t), size = cp_sc_types[t].elem_size, i, j;

	CP_BUG_ON(size > sizeof(tmp));
	for (i = 1; i < n; i++) {
		memcpy(&tmp, cp_sc_elem(sc, t, i), size);
		for (j = i; j > 0; j--) {
			void *prev = cp_sc_elem(sc, t, j - 1);

			if (strcmp(cp_sc_elem_name(t, prev), cp_sc_elem_name(t, &tmp)) <= 0)
				break;
			memcpy(cp_sc_elem(sc, t, j), prev, size);
		}
		memcpy(cp_sc_elem(sc, t, j), &tmp, size);
	}
}

static int load_common(struct load_ctx *c, struct cp_scenario **out)
{
	int rc, t;

	c->sc->origin.line = 0;
	rc = apply_defaults(c, CP_ST_SCENARIO, c->sc);
	if (!rc) {
		rc = ini_parse_stream(read_line, c, handler, c);
		if (c->rc)
			rc = c->rc;
		else if (rc > 0)
			rc = load_fail(c, -CP_EINVAL, "%s:%d: syntax error (expected [TYPE NAME], "
				"KEY = VALUE, or a comment starting with ';' or '#')",
				c->sc->source, rc);
		else if (rc < 0)
			rc = load_fail(c, rc == -2 ? -CP_ENOMEM : -CP_EIO, "%s: cannot read",
				       c->sc->source);
	}
	if (!rc)
		rc = check_empty_sections(c);
	if (!rc)
		rc = check_required(c);
	if (!rc)
		rc = resolve_relative(c);
	if (!rc) {
		for (t = CP_ST_FILE; t < CP_ST_NR; t++)
			sort_sections(c->sc, (enum cp_sc_type_id)t);
		rc = cp_sc_validate_and_resolve(c->sc, NULL, c->diag);
	}
	cp_free(c->cur_section);
	cp_free(c->headers);
	cp_free(c->rel);
	if (rc) {
		cp_scenario_destroy(c->sc);
		return rc;
	}
	CP_DEBUG_CHECK(cp_scenario_check(c->sc));
	*out = c->sc;
	return 0;
}

static struct load_ctx *ctx_create(const char *source, struct cp_diag *diag)
{
	struct load_ctx *c = cp_calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->diag = diag;
	c->sc = cp_calloc(1, sizeof(*c->sc));
	if (c->sc)
		c->sc->source = cp_strdup(source);
	if (!c->sc || !c->sc->source) {
		if (c->sc)
			cp_free(c->sc->source);
		cp_free(c->sc);
		cp_free(c);
		return NULL;
	}
	return c;
}

int cp_scenario_load(const char *path, struct cp_scenario **out, struct cp_diag *diag)
{
	struct load_ctx *c;
	FILE *fp;
	int rc;

	fp = fopen(path, "r");
	if (!fp) {
		int e = errno;

		return cp_diag_set(diag, e == ENOENT ? -CP_ENOENT : -CP_EIO, "%s: cannot open: %s",
				   path, strerror(e));
	}
	c = ctx_create(path, diag);
	if (!c) {
		fclose(fp);
		return cp_diag_set(diag, -CP_ENOMEM, "%s: out of memory", path);
	}
	c->fp = fp;
	rc = load_common(c, out);
	fclose(fp);
	cp_free(c);
	return rc;
}

int cp_scenario_load_string(const char *text, const char *source, struct cp_scenario **out,
			    struct cp_diag *diag)
{
	struct load_ctx *c = ctx_create(source, diag);
	int rc;

	if (!c)
		return cp_diag_set(diag, -CP_ENOMEM, "%s: out of memory", source);
	c->str = text;
	rc = load_common(c, out);
	cp_free(c);
	return rc;
}

int cp_scenario_find_builtin(const char *name, const char *scenarios_dir, char **path,
			     struct cp_diag *diag)
{
	size_t len;
	char *p;
	FILE *fp;

	if (!cp_sc_valid_ident(name))
		return cp_diag_set(diag, -CP_EINVAL, "'%s' is not a built-in scenario name "
				   "(1 to 64 of A-Z a-z 0-9 _ -)", name);
	len = strlen(scenarios_dir) + 1 + strlen(name) + sizeof(".ini");
	p = cp_malloc(len);
	if (!p)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	snprintf(p, len, "%s/%s.ini", scenarios_dir, name);
	fp = fopen(p, "r");
	if (!fp) {
		cp_diag_set(diag, -CP_ENOENT, "unknown scenario '%s' (no %s)", name, p);
		cp_free(p);
		return -CP_ENOENT;
	}
	fclose(fp);
	*path = p;
	return 0;
}

/* ---- --set ------------------------------------------------------------ */

struct saved_val {
	void *elem;
	union cp_sc_val old;
	unsigned old_line;
};

/* Parses "SECTION.KEY=VALUE" into its parts (pointers into buf). */
static int split_assignment(const char *arg, char *buf, size_t len, char **type, char **name,
			    char **key, char **value)
{
	char *eq, *dot, *sp;

	if (strlen(arg) >= len)
		return -1;
	strcpy(buf, arg);
	eq = strchr(buf, '=');
	if (!eq)
		return -1;
	*eq = '\0';
	*value = eq + 1;
	dot = strrchr(buf, '.');
	if (!dot)
		return -1;
	*dot = '\0';
	*key = dot + 1;
	*type = buf;
	*name = NULL;
	sp = strchr(buf, ' ');
	dot = strchr(buf, '.');
	if (sp) {
		*sp = '\0';
		*name = sp + 1;
	} else if (dot) {
		*dot = '\0';
		*name = dot + 1;
	}
	/* the value as inih would see it: surrounding blanks stripped */
	while (**value == ' ' || **value == '\t')
		(*value)++;
	{
		size_t n = strlen(*value);

		while (n && ((*value)[n - 1] == ' ' || (*value)[n - 1] == '\t'))
			(*value)[--n] = '\0';
	}
	return 0;
}

int cp_scenario_set(struct cp_scenario *sc, const char *assignment, struct cp_diag *diag)
{
	char buf[1024], why[160], label[96];
	char *type, *name, *key, *value;
	struct saved_val *saved = NULL;
	size_t nr_saved = 0, i, n;
	const struct cp_sc_key *k;
	enum cp_sc_type_id t;
	int ti, ki, rc = 0;

	if (split_assignment(assignment, buf, sizeof(buf), &type, &name, &key, &value))
		return cp_diag_set(diag, -CP_EINVAL, "--set %s: expected SECTION.KEY=VALUE, "
				   "e.g. scenario.ram=8G or reader.file1.read_size=2M", assignment);
	ti = type_by_name(type);
	if (ti < 0)
		return cp_diag_set(diag, -CP_EINVAL, "--set %s: unknown section type '%s' "
				   "(expected scenario, file, reader, creator, walker or streamer)",
				   assignment, type);
	t = (enum cp_sc_type_id)ti;
	if ((t == CP_ST_SCENARIO) != (name == NULL))
		return cp_diag_set(diag, -CP_EINVAL, "--set %s: %s", assignment,
				   t == CP_ST_SCENARIO ? "write scenario.KEY=VALUE"
						       : "write TYPE.NAME.KEY=VALUE");
	ki = cp_sc_key_find(t, key);
	if (ki < 0)
		return cp_diag_set(diag, -CP_EINVAL, "--set %s: unknown key '%s' in [%s] sections",
				   assignment, key, cp_sc_types[t].name);
	k = &cp_sc_types[t].keys[ki];
	if (t == CP_ST_SCENARIO && strchr(value, '%') && k->kind == CP_SK_SIZE &&
	    strcmp(key, "ram") == 0)
		return cp_diag_set(diag, -CP_EINVAL, "--set %s: ram cannot be relative to itself",
				   assignment);

	n = cp_sc_count(sc, t);
	saved = cp_calloc(n ? n : 1, sizeof(*saved));
	if (!saved)
		return cp_diag_set(diag, -CP_ENOMEM, "--set %s: out of memory", assignment);
	for (i = 0; i < n; i++) {
		void *elem = cp_sc_elem(sc, t, i);
		struct cp_sc_origin *o = cp_sc_elem_origin(t, elem);
		union cp_sc_val v;

		if (t != CP_ST_SCENARIO && strcmp(name, "*") != 0 &&
		    strcmp(cp_sc_elem_name(t, elem), name) != 0)
			continue;
		section_label(label, sizeof(label), t, elem);
		rc = cp_sc_val_parse(k, value, sc->ram_bytes, &v, NULL, why, sizeof(why));
		if (rc) {
			cp_diag_set(diag, rc == -CP_ENOMEM ? rc : -CP_EINVAL, "--set %s: %s %s = %s: %s",
				    assignment, label, key, value, why);
			rc = rc == -CP_ENOMEM ? rc : -CP_EINVAL;
			goto undo;
		}
		if ((k->flags & CP_SKF_REQUIRED) && k->kind != CP_SK_PATHS &&
		    k->kind <= CP_SK_PATH && !v.s) {
			rc = cp_diag_set(diag, -CP_EINVAL, "--set %s: %s %s: a value is required",
					 assignment, label, key);
			goto undo;
		}
		saved[nr_saved].elem = elem;
		cp_sc_val_get(k, elem, &saved[nr_saved].old);
		saved[nr_saved].old_line = o->key_line[ki];
		nr_saved++;
		cp_sc_val_put(k, elem, &v);
		o->key_line[ki] = 0;
	}
	if (!nr_saved) {
		rc = cp_diag_set(diag, -CP_EINVAL, "--set %s: no [%s %s] section in %s", assignment,
				 type, name, sc->source);
		goto undo;
	}
	rc = cp_sc_validate_and_resolve(sc, assignment, diag);
	if (rc)
		goto undo;
	for (i = 0; i < nr_saved; i++)
		cp_sc_val_free(k, &saved[i].old);
	cp_free(saved);
	CP_DEBUG_CHECK(cp_scenario_check(sc));
	return 0;
undo:
	while (nr_saved--) {
		union cp_sc_val cur;
		void *elem = saved[nr_saved].elem;

		cp_sc_val_get(k, elem, &cur);
		cp_sc_val_free(k, &cur);
		cp_sc_val_put(k, elem, &saved[nr_saved].old);
		cp_sc_elem_origin(t, elem)->key_line[ki] = saved[nr_saved].old_line;
	}
	cp_free(saved);
	return rc;
}

/* ---- --mem ------------------------------------------------------------ */

static int scale_one(uint64_t v, uint64_t mem, uint64_t ram, uint64_t *out)
{
	unsigned __int128 r = (unsigned __int128)v * mem / ram;

	if (r > UINT64_MAX)
		return -CP_ERANGE;
	*out = (v != 0 && r == 0) ? 1 : (uint64_t)r;
	return 0;
}

int cp_scenario_scale(struct cp_scenario *sc, uint64_t mem_bytes, struct cp_diag *diag)
{
	int pass, t;
	size_t i, k;

	if (mem_bytes == 0)
		return cp_diag_set(diag, -CP_EINVAL, "--mem 0: memory size must not be 0");
	/* pass 0 checks every value, pass 1 applies: all or nothing */
	for (pass = 0; pass < 2; pass++)
		for (t = 0; t < CP_ST_NR; t++) {
			const struct cp_sc_type *ty = &cp_sc_types[t];

			for (i = 0; i < cp_sc_count(sc, (enum cp_sc_type_id)t); i++) {
				void *elem = cp_sc_elem(sc, (enum cp_sc_type_id)t, i);

				for (k = 0; k < ty->nr_keys; k++) {
					union cp_sc_val v;
					uint64_t nv;
					char label[96];

					if (!(ty->keys[k].flags & CP_SKF_SCALES))
						continue;
					cp_sc_val_get(&ty->keys[k], elem, &v);
					if (scale_one(v.u, mem_bytes, sc->ram_bytes, &nv)) {
						section_label(label, sizeof(label),
							      (enum cp_sc_type_id)t, elem);
						return cp_diag_set(diag, -CP_ERANGE, "--mem %llu: %s %s "
							"would overflow", (unsigned long long)mem_bytes,
							label, ty->keys[k].key);
					}
					if (pass) {
						v.u = nv;
						cp_sc_val_put(&ty->keys[k], elem, &v);
					}
				}
			}
		}
	sc->ram_bytes = mem_bytes;
	CP_DEBUG_CHECK(cp_scenario_check(sc));
	return 0;
}

/* ---- lookup and teardown -------------------------------------------------- */

static const enum cp_sc_type_id actor_types[CP_SC_NR_ACTOR_TYPES] = {
	[CP_SC_READER] = CP_ST_READER,
	[CP_SC_CREATOR] = CP_ST_CREATOR,
	[CP_SC_WALKER] = CP_ST_WALKER,
	[CP_SC_STREAMER] = CP_ST_STREAMER,
};

const char *cp_sc_actor_type_name(enum cp_sc_actor_type type)
{
	CP_BUG_ON(type >= CP_SC_NR_ACTOR_TYPES);
	return cp_sc_types[actor_types[type]].name;
}

const struct cp_sc_actor *cp_scenario_find_actor(const struct cp_scenario *sc,
						 const char *name,
						 enum cp_sc_actor_type *type, size_t *idx)
{
	int a;
	size_t i;

	for (a = 0; a < CP_SC_NR_ACTOR_TYPES; a++)
		for (i = 0; i < cp_sc_count(sc, actor_types[a]); i++) {
			const struct cp_sc_actor *act = cp_sc_elem(sc, actor_types[a], i);

			if (strcmp(act->name, name) == 0) {
				if (type)
					*type = (enum cp_sc_actor_type)a;
				if (idx)
					*idx = i;
				return act;
			}
		}
	return NULL;
}

void cp_scenario_destroy(struct cp_scenario *sc)
{
	int t;
	size_t i, k;

	if (!sc)
		return;
	for (t = 0; t < CP_ST_NR; t++) {
		const struct cp_sc_type *ty = &cp_sc_types[t];

		for (i = 0; i < cp_sc_count(sc, (enum cp_sc_type_id)t); i++) {
			void *elem = cp_sc_elem(sc, (enum cp_sc_type_id)t, i);

			for (k = 0; k < ty->nr_keys; k++) {
				union cp_sc_val v;

				cp_sc_val_get(&ty->keys[k], elem, &v);
				cp_sc_val_free(&ty->keys[k], &v);
			}
			if (t != CP_ST_SCENARIO) {
				char *name;

				memcpy(&name, (char *)elem + ty->name_off, sizeof(name));
				cp_free(name);
			}
		}
	}
	cp_free(sc->files);
	cp_free(sc->readers);
	cp_free(sc->creators);
	cp_free(sc->walkers);
	cp_free(sc->streamers);
	cp_free(sc->source);
	cp_free(sc);
}
