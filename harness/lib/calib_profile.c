/*
 * calib_profile.c - the machine profile calibrate writes, and profiles
 * read back as sources (see calib_profile.h). Values come from inih;
 * only the comment lines are read as text.
 */
#include "calib_profile.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* Copies src into dst[len], cut at len - 1 characters. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int on_ini(void *user, const char *section, const char *name, const char *value)
{
	struct cp_calib_source *s = user;
	struct cp_calib_src_key *k;

	if (s->nr == CP_CALIB_SRC_MAX)
		return 1;
	k = &s->k[s->nr++];
	snprintf(k->section, sizeof(k->section), "%s", section);
	snprintf(k->key, sizeof(k->key), "%s", name);
	snprintf(k->value, sizeof(k->value), "%s", value);
	return 1;
}

const struct cp_calib_src_key *cp_calib_source_find(const struct cp_calib_source *s,
						    const char *section, const char *key)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (strcmp(s->k[i].section, section) == 0 && strcmp(s->k[i].key, key) == 0)
			return &s->k[i];
	return NULL;
}

static char *trim(char *p)
{
	char *e;

	while (*p == ' ' || *p == '\t')
		p++;
	e = p + strlen(p);
	while (e > p && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return p;
}

/* Attaches to each key the comment lines just above it and its inline
 * comment (text only; the values came from inih). */
static void src_comments(struct cp_calib_source *s, FILE *f)
{
	char line[1024], section[32] = "", block[1024] = "";
	struct cp_calib_src_key *prev = NULL;

	while (fgets(line, sizeof(line), f)) {
		int indented = line[0] == ' ' || line[0] == '\t';
		char *p = trim(line), *eq, *semi;

		if (*p == ';' || *p == '#') {
			/* An indented comment continues the previous key's
			 * inline comment; otherwise it is about the next key. */
			char *dst = indented && prev ? prev->comment : block;
			size_t cap = indented && prev ? sizeof(prev->comment) : sizeof(block);

			p = trim(p + 1);
			if (strlen(dst) + strlen(p) + 2 < cap) {
				strcat(dst, p);
				strcat(dst, "\n");
			}
			continue;
		}
		if (!*p)
			prev = NULL;
		if (*p == '[') {
			char *end = strchr(p, ']');

			if (end)
				snprintf(section, sizeof(section), "%.*s", (int)(end - p - 1), p + 1);
			block[0] = '\0';
			prev = NULL;
			continue;
		}
		eq = strchr(p, '=');
		if (*p && eq) {
			struct cp_calib_src_key *k;
			char key[48];

			*eq = '\0';
			snprintf(key, sizeof(key), "%s", trim(p));
			k = (struct cp_calib_src_key *)cp_calib_source_find(s, section, key);
			semi = strstr(eq + 1, " ;");
			if (k) {
				snprintf(k->comment, sizeof(k->comment), "%s%s%s", block,
					 semi ? trim(semi + 2) : "", semi ? "\n" : "");
			}
			prev = k;
		}
		block[0] = '\0';
	}
}

int cp_calib_source_load(struct cp_calib_source *s, const char *path, struct cp_diag *diag)
{
	FILE *f;
	int e;

	memset(s, 0, sizeof(*s));
	s->path = path;
	e = ini_parse(path, on_ini, s);
	if (e < 0)
		return cp_diag_set(diag, -CP_ENOENT, "%s: cannot read it", path);
	if (e > 0)
		return cp_diag_set(diag, -CP_EINVAL, "%s: line %d: not valid INI", path, e);
	f = fopen(path, "r");
	if (!f)
		return cp_diag_set(diag, -CP_ENOENT, "%s: %s", path, strerror(errno));
	src_comments(s, f);
	fclose(f);
	return 0;
}

int cp_calib_source_parse(struct cp_calib_source *s, const char *name, const char *text,
			  size_t len, struct cp_diag *diag)
{
	char *copy = cp_malloc(len + 1);
	FILE *f;
	int e;

	memset(s, 0, sizeof(*s));
	s->path = name;
	if (!copy)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	memcpy(copy, text, len);
	copy[len] = '\0';
	e = ini_parse_string(copy, on_ini, s);
	if (e) {
		cp_free(copy);
		return cp_diag_set(diag, -CP_EINVAL, "%s: line %d: not valid INI", name, e);
	}
	f = len ? fmemopen(copy, len, "r") : NULL;
	if (f) {
		src_comments(s, f);
		fclose(f);
	}
	cp_free(copy);
	return 0;
}

/* ---- a lab guest's profile ------------------------------------------ */

/* The guest's fs_mark paragraph: "... one worker: N files/s, measured
 * with `CMD` ..." (CMD wrapped over "; " comment lines). */
static void guest_fs_mark(struct cp_calibration *c, const char *text, size_t len)
{
	static const char head[] = "fs_mark create rate for empty files on xfs, one worker: ";
	char *copy = cp_malloc(len + 1), *p, *q;
	unsigned long long rate;
	size_t n = 0;

	if (!copy)
		return;
	memcpy(copy, text, len);
	copy[len] = '\0';
	p = strstr(copy, head);
	if (p && sscanf(p + strlen(head), "%llu files/s", &rate) == 1 && rate > 0) {
		c->fs_mark_files_per_sec = rate;
		c->fs_mark_how[0] = '\0';
		q = strstr(p, "measured with `");
		if (q) {
			for (q += strlen("measured with "); *q && n + 1 < sizeof(c->fs_mark_how); q++) {
				if (strncmp(q, "\n; ", 3) == 0) {
					c->fs_mark_how[n++] = ' ';
					q += 2;
					continue;
				}
				c->fs_mark_how[n++] = *q;
				if (*q == '`' && n > 1)
					break;
			}
			c->fs_mark_how[n] = '\0';
		}
		if (n < sizeof(c->fs_mark_how))
			snprintf(c->fs_mark_how + n, sizeof(c->fs_mark_how) - n,
				 " on a fresh xfs on the virtio disk inside the lab guest");
	}
	cp_free(copy);
}

int cp_calib_take_guest(struct cp_calibration *c, const char *text, size_t len,
			const char *note, struct cp_diag *diag)
{
	struct cp_calib_source *g = cp_calloc(1, sizeof(*g));
	size_t i, taken = 0;
	int rc;

	if (!g)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	rc = cp_calib_source_parse(g, "the guest's profile", text, len, diag);
	for (i = 0; !rc && i < c->nr; i++) {
		struct cp_calib_value *v = &c->v[i];
		const struct cp_calib_src_key *k = cp_calib_source_find(g, v->section, v->key);
		const char *p, *q;
		size_t used = 0;

		if (strcmp(v->key, "name") == 0 || strcmp(v->key, "description") == 0)
			continue;
		if (!k || !k->value[0])
			continue;
		copy_str(v->value, sizeof(v->value), k->value);
		v->range[0] = '\0';
		v->how[0] = '\0';
		/* The guest's writer starts a measured key's comment with
		 * "measured: "; lines before it belong to the unmeasured key
		 * above ("; KEY: not measured ...", "; KEY ="). */
		p = k->comment;
		for (q = k->comment; *q; q += strcspn(q, "\n"), q += *q == '\n')
			if (strncmp(q, "measured: ", 10) == 0)
				p = q;
		while (*p) {
			size_t n = strcspn(p, "\n");

			if (n > 7 && strncmp(p, "range: ", 7) == 0) {
				snprintf(v->range, sizeof(v->range), "%.*s", (int)(n - 7), p + 7);
			} else if (used + n + 2 < sizeof(v->how)) {
				const char *line = p;
				size_t ln = n;

				if (ln >= 10 && strncmp(line, "measured: ", 10) == 0) {
					line += 10;
					ln -= 10;
				}
				used += (size_t)snprintf(v->how + used, sizeof(v->how) - used,
							 "%.*s\n", (int)ln, line);
			}
			p += n;
			if (*p == '\n')
				p++;
		}
		if (note && used < sizeof(v->how))
			snprintf(v->how + used, sizeof(v->how) - used, "%s", note);
		else if (used)
			v->how[used - 1] = '\0'; /* no trailing newline */
		v->measured = true;
		taken++;
	}
	cp_free(g);
	if (rc)
		return rc;
	if (!taken)
		return cp_diag_set(diag, -CP_EINVAL, "the guest's profile holds no measured value");
	guest_fs_mark(c, text, len);
	return 0;
}

/* ---- writing ------------------------------------------------------- */

/* Writes text as ';' comment lines wrapped at about 76 columns. */
static void comment(FILE *out, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		while (len > 74) {
			size_t cut = 74;

			while (cut > 20 && p[cut] != ' ')
				cut--;
			if (cut <= 20)
				cut = 74;
			fprintf(out, "; %.*s\n", (int)cut, p);
			p += cut;
			len -= cut;
			while (len && *p == ' ') {
				p++;
				len--;
			}
		}
		fprintf(out, "; %.*s\n", (int)len, p);
		p += len;
		if (*p == '\n')
			p++;
	}
}

/* Writes text as ';' comment lines as they are (copied comments). */
static void comment_lines(FILE *out, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");

		fprintf(out, "; %.*s\n", (int)len, p);
		p += len;
		if (*p == '\n')
			p++;
	}
}

void cp_calib_profile_write(FILE *out, const struct cp_calibration *c,
			    const struct cp_calib_source *src)
{
	const char *section = "", *src_path = src && src->path ? src->path : NULL;
	char text[1600];
	size_t i;

	snprintf(text, sizeof(text),
		 "Machine profile of %s, written by `%s` on %s, kernel %s.\n"
		 "Measured keys say how they were measured; the others are copied from %s "
		 "with their comments.",
		 c->host, c->command, c->date, c->kernel, src_path ? src_path : "(no source profile)");
	comment(out, text);
	for (i = 0; i < c->nr; i++) {
		const struct cp_calib_value *v = &c->v[i];
		const struct cp_calib_src_key *k;

		if (strcmp(section, v->section) != 0) {
			section = v->section;
			fprintf(out, "\n[%s]\n", section);
		}
		if (v->measured) {
			int given = strcmp(v->key, "name") == 0 || strcmp(v->key, "description") == 0;

			snprintf(text, sizeof(text), "%s%s", given ? "" : "measured: ", v->how);
			comment(out, text);
			if (v->range[0])
				fprintf(out, "; range: %s\n", v->range);
			fprintf(out, "%s = %s\n", v->key, v->value);
			continue;
		}
		k = src_path ? cp_calib_source_find(src, v->section, v->key) : NULL;
		if (k) {
			snprintf(text, sizeof(text), "copied from %s (calibrate cannot measure it):",
				 src_path);
			comment(out, text);
			if (k->comment[0])
				comment_lines(out, k->comment);
			fprintf(out, "%s = %s\n", v->key, k->value);
		} else {
			snprintf(text, sizeof(text),
				 "%s: not measured, and no source profile has it (give --from FILE)",
				 v->key);
			comment(out, text);
			fprintf(out, "; %s =\n", v->key);
		}
	}
	if (c->fs_mark_files_per_sec) {
		snprintf(text, sizeof(text),
			 "\nfs_mark create rate for empty files on xfs, one worker: %llu files/s, "
			 "measured with %s; %s, kernel %s. Not a key of this profile: it bounds "
			 "[create] create_cpu_ns of profiles/xfs.ini at about %llu ns per file "
			 "(which also includes the allocations the model charges itself).",
			 (unsigned long long)c->fs_mark_files_per_sec, c->fs_mark_how, c->date,
			 c->kernel, 1000000000ULL / c->fs_mark_files_per_sec);
		fprintf(out, "\n");
		comment(out, text + 1);
	}
}
