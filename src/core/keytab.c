/*
 * keytab.c - INI files described by a table of keys (inih does the
 * syntax; core/parse.h the values).
 *
 * inih calls handle_key() once per "key = value" line. The handler finds
 * the key in the table, refuses a key given twice (remembering the line
 * each key came from), parses the value by its kind, applies the key's
 * range and accept function, and stores it at its offset in the caller's
 * struct. The first error stops the file; its message gets the file and
 * line in front. After the file come the required keys and the caller's
 * cross-key check, whose message gets the line of the key it blames. A
 * --set override goes through the same parsing, so a key is described
 * once for files and command lines alike.
 *
 * No kernel mechanism lives here.
 *
 * SIMPLIFIED: an unknown section with no keys in it is not noticed (inih
 * reports keys only). Lines longer than inih's buffer (INI_MAX_LINE, 200
 * bytes in Debian's build) are refused rather than split.
 */
#include "core/keytab.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "core/bug.h"
#include "core/parse.h"

const char *cp_keytab_expected(const struct cp_key *k)
{
	if (k->expected)
		return k->expected;
	switch (k->kind) {
	case CP_KEY_TEXT:
		return "text";
	case CP_KEY_SIZE:
		return "a size like 16G";
	case CP_KEY_RATE:
		return "bytes per second like 2800M";
	case CP_KEY_DURATION:
		return "a duration with a unit like 20us";
	case CP_KEY_NS:
		return "nanoseconds like 1000, or a duration like 1us";
	case CP_KEY_COUNT:
		return "a whole number";
	case CP_KEY_BOOL:
		return "yes or no";
	}
	return "?";
}

int cp_keytab_find(const struct cp_keytab *t, const char *section, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_keys; i++)
		if (strcmp(t->keys[i].section, section) == 0 && strcmp(t->keys[i].name, name) == 0)
			return (int)i;
	return -1;
}

static bool known_section(const struct cp_keytab *t, const char *section)
{
	size_t i;

	for (i = 0; i < t->nr_keys; i++)
		if (strcmp(t->keys[i].section, section) == 0)
			return true;
	return false;
}

/* The table's sections in order of first appearance, as "[a], [b] or
 * [c]" (brackets) or "a, b or c". */
static void section_list(const struct cp_keytab *t, bool brackets, char *buf, size_t len)
{
	const char *names[CP_KEYTAB_MAX_KEYS];
	size_t nr = 0, i, j, used = 0;

	for (i = 0; i < t->nr_keys && nr < CP_KEYTAB_MAX_KEYS; i++) {
		for (j = 0; j < nr; j++)
			if (strcmp(names[j], t->keys[i].section) == 0)
				break;
		if (j == nr)
			names[nr++] = t->keys[i].section;
	}
	buf[0] = '\0';
	for (i = 0; i < nr && used < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == nr ? " or " : ", ";
		int n = snprintf(buf + used, len - used, brackets ? "%s[%s]" : "%s%s", sep,
				 names[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

static bool is_numeric(enum cp_key_kind kind)
{
	return kind != CP_KEY_TEXT;
}

static uint64_t get_num(const void *obj, const struct cp_key *k)
{
	const char *p = (const char *)obj + k->offset;

	if (k->kind == CP_KEY_BOOL) {
		bool b;

		memcpy(&b, p, sizeof(b));
		return b;
	}
	if (k->width == sizeof(uint32_t)) {
		uint32_t u;

		memcpy(&u, p, sizeof(u));
		return u;
	}
	{
		uint64_t v;

		CP_BUG_ON(k->width != sizeof(v));
		memcpy(&v, p, sizeof(v));
		return v;
	}
}

static void put_num(void *obj, const struct cp_key *k, uint64_t v)
{
	char *p = (char *)obj + k->offset;

	if (k->kind == CP_KEY_BOOL) {
		bool b = v != 0;

		memcpy(p, &b, sizeof(b));
	} else if (k->width == sizeof(uint32_t)) {
		uint32_t u = (uint32_t)v; /* cp_keytab_check(): max fits 32 bits */

		memcpy(p, &u, sizeof(u));
	} else {
		CP_BUG_ON(k->width != sizeof(v));
		memcpy(p, &v, sizeof(v));
	}
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int bad_value(const struct cp_key *k, const char *value, struct cp_diag *diag)
{
	return cp_diag_set(diag, -CP_EINVAL, "key '%s' in [%s]: bad value '%s' (expected %s)",
			   k->name, k->section, value, cp_keytab_expected(k));
}

/* Parses value for numeric key k into *out. Returns 0 or -CP_EINVAL
 * with diag "key 'K' in [S]: ...". */
static int parse_num(const struct cp_key *k, const char *value, uint64_t *out,
		     struct cp_diag *diag)
{
	uint64_t v = 0;
	bool b = false;
	int rc;

	switch (k->kind) {
	case CP_KEY_SIZE:
	case CP_KEY_RATE:
		rc = cp_parse_size(value, &v);
		break;
	case CP_KEY_DURATION:
		/* a bare "20" would silently mean 20 seconds */
		rc = all_digits(value) && strcmp(value, "0") != 0 ? -CP_EINVAL
								    : cp_parse_duration(value, &v);
		break;
	case CP_KEY_NS:
		rc = all_digits(value) ? cp_parse_count(value, &v) : cp_parse_duration(value, &v);
		break;
	case CP_KEY_COUNT:
		rc = cp_parse_count(value, &v);
		break;
	case CP_KEY_BOOL:
		rc = cp_parse_bool(value, &b);
		v = b;
		break;
	default:
		rc = -CP_EINVAL;
	}
	if (!rc && k->accept_num && !k->accept_num(v))
		rc = -CP_EINVAL;
	if (rc)
		return bad_value(k, value, diag);
	if (v < k->min || v > k->max) {
		if (k->max == CP_KEY_NOLIMIT)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value '%s' out of range (at least %llu)",
					   k->name, k->section, value, (unsigned long long)k->min);
		return cp_diag_set(diag, -CP_EINVAL,
				   "key '%s' in [%s]: value '%s' out of range (%llu..%llu)", k->name,
				   k->section, value, (unsigned long long)k->min,
				   (unsigned long long)k->max);
	}
	*out = v;
	return 0;
}

/* Stores value into obj, or returns -CP_EINVAL with obj unchanged. */
static int apply_value(void *obj, const struct cp_key *k, const char *value,
		       struct cp_diag *diag)
{
	uint64_t v = 0;
	int rc;

	if (k->kind == CP_KEY_TEXT) {
		if (k->accept_text && !k->accept_text(value))
			return bad_value(k, value, diag);
		if (strlen(value) >= k->width)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value '%.40s...' too long (at most %zu characters)",
					   k->name, k->section, value, k->width - 1);
		memcpy((char *)obj + k->offset, value, strlen(value) + 1);
		return 0;
	}
	rc = parse_num(k, value, &v, diag);
	if (rc)
		return rc;
	put_num(obj, k, v);
	return 0;
}

int cp_keytab_check_values(const struct cp_keytab *t, const void *obj, int *bad_key,
			   struct cp_diag *diag)
{
	size_t i;

	for (i = 0; i < t->nr_keys; i++) {
		const struct cp_key *k = &t->keys[i];
		uint64_t v;

		if (!is_numeric(k->kind))
			continue;
		v = get_num(obj, k);
		*bad_key = (int)i;
		if (v < k->min || v > k->max)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value %llu out of range (%llu..%llu)",
					   k->name, k->section, (unsigned long long)v,
					   (unsigned long long)k->min, (unsigned long long)k->max);
		if (k->accept_num && !k->accept_num(v))
			return cp_diag_set(diag, -CP_EINVAL, "key '%s' in [%s]: value %llu is not %s",
					   k->name, k->section, (unsigned long long)v,
					   cp_keytab_expected(k));
	}
	*bad_key = -1;
	return 0;
}

bool cp_keytab_check(const struct cp_keytab *t)
{
	size_t i;

	if (!t->what || !t->set_example || !t->keys || t->nr_keys > CP_KEYTAB_MAX_KEYS)
		return false;
	for (i = 0; i < t->nr_keys; i++) {
		const struct cp_key *k = &t->keys[i];

		if (!k->section || !k->name || strlen(k->section) > CP_KEYTAB_MAX_SECTION)
			return false;
		if (cp_keytab_find(t, k->section, k->name) != (int)i)
			return false; /* given twice */
		if (k->offset > t->obj_size || k->width > t->obj_size - k->offset)
			return false;
		if (k->kind == CP_KEY_TEXT) {
			if (k->width < 2 || k->width > CP_KEYTAB_MAX_TEXT || k->accept_num)
				return false;
			continue;
		}
		if (k->accept_text || k->min > k->max)
			return false;
		if (k->kind == CP_KEY_BOOL) {
			if (k->width != sizeof(bool) || k->max > 1)
				return false;
		} else if (k->width == sizeof(uint32_t)) {
			if (k->max > UINT32_MAX)
				return false;
		} else if (k->width != sizeof(uint64_t)) {
			return false;
		}
	}
	return true;
}

/* ---- loading ------------------------------------------------------ */

struct load_ctx {
	const struct cp_keytab *t;
	void *obj;
	FILE *file;
	int line;                          /* lines read so far = line being parsed */
	int long_line;                     /* first line longer than inih takes, or 0 */
	int max_line;                      /* inih's line buffer size */
	int err_line;                      /* line of the first handler error, or 0 */
	int seen_line[CP_KEYTAB_MAX_KEYS]; /* line each key was set on, 0 = not yet */
	struct cp_diag err;                /* the first handler error */
};

/* fgets() that counts lines and notices lines inih would split. */
static char *read_line(char *str, int num, void *stream)
{
	struct load_ctx *c = stream;
	char *s = fgets(str, num, c->file);
	size_t len;

	if (!s)
		return NULL;
	c->line++;
	c->max_line = num;
	len = strlen(s);
	if (len && s[len - 1] != '\n' && !feof(c->file)) {
		int ch;

		if (!c->long_line)
			c->long_line = c->line;
		/* skip the rest, so inih sees one (truncated) line */
		while ((ch = fgetc(c->file)) != EOF && ch != '\n')
			;
	}
	return s;
}

static int handle_key(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *c = user;
	struct cp_diag d;
	int idx;

	if (c->err_line)
		return 1; /* keep the first error only */
	idx = cp_keytab_find(c->t, section, name);
	if (idx < 0) {
		if (!section[0]) {
			cp_diag_set(&c->err, -CP_EINVAL, "key '%s' outside any section", name);
		} else if (!known_section(c->t, section)) {
			char list[256];

			section_list(c->t, true, list, sizeof(list));
			cp_diag_set(&c->err, -CP_EINVAL, "unknown section [%s] (expected %s)", section,
				    list);
		} else {
			cp_diag_set(&c->err, -CP_EINVAL, "unknown key '%s' in [%s]", name, section);
		}
		c->err_line = c->line;
		return 0;
	}
	if (c->seen_line[idx]) {
		cp_diag_set(&c->err, -CP_EINVAL, "key '%s' in [%s] given twice (first on line %d)",
			    name, section, c->seen_line[idx]);
		c->err_line = c->line;
		return 0;
	}
	if (apply_value(c->obj, &c->t->keys[idx], value, &d)) {
		c->err = d;
		c->err_line = c->line;
		return 0;
	}
	c->seen_line[idx] = c->line;
	return 1;
}

int cp_keytab_load(const struct cp_keytab *t, const char *path, void *obj,
		   struct cp_diag *diag)
{
	struct load_ctx c;
	struct cp_diag d;
	size_t i;
	int line, blame = -1;

	CP_DEBUG_CHECK(cp_keytab_check(t));
	memset(&c, 0, sizeof(c));
	c.t = t;
	c.obj = obj;
	c.file = fopen(path, "r");
	if (!c.file) {
		int e = errno;

		return cp_diag_set(diag, e == ENOENT ? -CP_ENOENT : -CP_EIO,
				   "%s: cannot open %s: %s", path, t->what, strerror(e));
	}
	line = ini_parse_stream(read_line, &c, handle_key, &c);
	if (ferror(c.file)) {
		fclose(c.file);
		return cp_diag_set(diag, -CP_EIO, "%s: read error", path);
	}
	fclose(c.file);
	if (c.long_line && (line <= 0 || c.long_line <= line))
		return cp_diag_set(diag, -CP_EINVAL, "%s:%d: line longer than %d characters", path,
				   c.long_line, c.max_line - 2);
	if (line > 0 && line == c.err_line)
		return cp_diag_set(diag, -CP_EINVAL, "%s:%d: %s", path, line, c.err.msg);
	if (line != 0)
		return cp_diag_set(diag, -CP_EINVAL,
				   "%s:%d: syntax error (expected [section], key = value or a ; comment)",
				   path, line);
	for (i = 0; i < t->nr_keys; i++)
		if (t->keys[i].required && !c.seen_line[i])
			return cp_diag_set(diag, -CP_EINVAL, "%s: required key '%s' in [%s] is missing",
					   path, t->keys[i].name, t->keys[i].section);
	if (t->validate && t->validate(obj, &blame, &d)) {
		if (blame >= 0 && (size_t)blame < t->nr_keys && c.seen_line[blame])
			return cp_diag_set(diag, -CP_EINVAL, "%s:%d: %s", path, c.seen_line[blame],
					   d.msg);
		return cp_diag_set(diag, -CP_EINVAL, "%s: %s", path, d.msg);
	}
	return 0;
}

/* ---- --set -------------------------------------------------------- */

int cp_keytab_set(const struct cp_keytab *t, void *obj, const char *section_key,
		  const char *value, struct cp_diag *diag)
{
	char section[CP_KEYTAB_MAX_SECTION + 1];
	char saved[CP_KEYTAB_MAX_TEXT];
	const char *dot = strchr(section_key, '.');
	const struct cp_key *k;
	size_t len;
	int idx, rc, blame;

	CP_DEBUG_CHECK(cp_keytab_check(t));
	if (!dot || dot == section_key || (len = (size_t)(dot - section_key)) >= sizeof(section))
		return cp_diag_set(diag, -CP_EINVAL, "bad key '%s' (expected section.key, like %s)",
				   section_key, t->set_example);
	memcpy(section, section_key, len);
	section[len] = '\0';
	idx = cp_keytab_find(t, section, dot + 1);
	if (idx < 0) {
		char list[256];

		if (known_section(t, section))
			return cp_diag_set(diag, -CP_EINVAL, "unknown key '%s' in [%s]", dot + 1,
					   section);
		section_list(t, false, list, sizeof(list));
		return cp_diag_set(diag, -CP_EINVAL, "unknown section [%s] in '%s' (expected %s)",
				   section, section_key, list);
	}
	k = &t->keys[idx];
	CP_BUG_ON(k->width > sizeof(saved));
	memcpy(saved, (char *)obj + k->offset, k->width);
	rc = apply_value(obj, k, value, diag);
	if (rc)
		return rc;
	if (t->validate) {
		rc = t->validate(obj, &blame, diag);
		if (rc) {
			memcpy((char *)obj + k->offset, saved, k->width);
			return rc;
		}
	}
	return 0;
}

/* ---- name resolution ---------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bool name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '-' || ch == '_' || ch == '.';
}

int cp_keytab_resolve(const struct cp_keytab *t, const char *name_or_path,
		      const char *search_dir, char *out, size_t out_len, struct cp_diag *diag)
{
	char path[CP_KEYTAB_PATH_MAX];
	const char *s;
	FILE *file;
	int n;

	if (!name_or_path || !*name_or_path)
		return cp_diag_set(diag, -CP_EINVAL, "empty %s name", t->what);
	if (strchr(name_or_path, '/') || ends_with(name_or_path, ".ini")) {
		n = snprintf(path, sizeof(path), "%s", name_or_path);
	} else {
		for (s = name_or_path; *s; s++)
			if (!name_char(*s))
				return cp_diag_set(diag, -CP_EINVAL,
						   "bad %s name '%s' (letters, digits, '-', '_' and '.' only)",
						   t->what, name_or_path);
		if (name_or_path[0] == '.')
			return cp_diag_set(diag, -CP_EINVAL,
					   "bad %s name '%s' (must not start with '.')", t->what,
					   name_or_path);
		if (!search_dir || !*search_dir)
			return cp_diag_set(diag, -CP_EINVAL, "%s '%s': no profile directory to look in",
					   t->what, name_or_path);
		n = snprintf(path, sizeof(path), "%s/%s.ini", search_dir, name_or_path);
	}
	if (n < 0 || (size_t)n >= sizeof(path) || (size_t)n >= out_len)
		return cp_diag_set(diag, -CP_EINVAL, "%s path for '%s' is too long", t->what,
				   name_or_path);
	file = fopen(path, "r");
	if (!file) {
		int e = errno;

		if (e == ENOENT)
			return cp_diag_set(diag, -CP_ENOENT, "%s '%s' not found (no file %s)", t->what,
					   name_or_path, path);
		return cp_diag_set(diag, -CP_EIO, "%s %s: %s", t->what, path, strerror(e));
	}
	fclose(file);
	memcpy(out, path, (size_t)n + 1);
	return 0;
}
