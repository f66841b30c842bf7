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
#include "kfile.h"

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

/* The fs_mark paragraph closing a profile calibrate wrote: "... one
 * worker: N files/s, measured with `CMD` ..." (CMD wrapped over "; "
 * comment lines, joined again into how). false when there is none. */
static bool fs_mark_rate(const char *text, size_t len, unsigned long long *rate, char *how,
			 size_t how_len)
{
	static const char head[] = "fs_mark create rate for empty files on xfs, one worker: ";
	char *copy = cp_malloc(len + 1), *p, *q;
	size_t n = 0;
	bool found = false;

	if (!copy)
		return false;
	memcpy(copy, text, len);
	copy[len] = '\0';
	p = strstr(copy, head);
	if (p && sscanf(p + strlen(head), "%llu files/s", rate) == 1 && *rate > 0) {
		found = true;
		how[0] = '\0';
		q = strstr(p, "measured with `");
		if (q) {
			for (q += strlen("measured with "); *q && n + 1 < how_len; q++) {
				if (strncmp(q, "\n; ", 3) == 0) {
					how[n++] = ' ';
					q += 2;
					continue;
				}
				how[n++] = *q;
				if (*q == '`' && n > 1)
					break;
			}
			how[n] = '\0';
		}
	}
	cp_free(copy);
	return found;
}

/* The guest's fs_mark paragraph, said to be the guest's. */
static void guest_fs_mark(struct cp_calibration *c, const char *text, size_t len)
{
	unsigned long long rate;
	size_t n;

	if (!fs_mark_rate(text, len, &rate, c->fs_mark_how, sizeof(c->fs_mark_how)))
		return;
	c->fs_mark_files_per_sec = rate;
	n = strlen(c->fs_mark_how);
	if (n < sizeof(c->fs_mark_how))
		snprintf(c->fs_mark_how + n, sizeof(c->fs_mark_how) - n,
			 " on a fresh xfs on the virtio disk inside the lab guest");
}

/* Sets v's how and range from the comment of k, a key a calibrate wrote
 * as measured; returns the characters of how, each line '\n'-ended. The
 * writer starts a measured key's comment with "measured: "; lines before
 * it belong to the unmeasured key above ("; KEY: not measured ...",
 * "; KEY ="). */
static size_t take_measured_comment(struct cp_calib_value *v, const struct cp_calib_src_key *k)
{
	const char *p = k->comment, *q;
	size_t used = 0;

	v->range[0] = '\0';
	v->how[0] = '\0';
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
			used += (size_t)snprintf(v->how + used, sizeof(v->how) - used, "%.*s\n",
						 (int)ln, line);
		}
		p += n;
		if (*p == '\n')
			p++;
	}
	return used;
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
		size_t used;

		if (strcmp(v->key, "name") == 0 || strcmp(v->key, "description") == 0)
			continue;
		if (!k || !k->value[0])
			continue;
		copy_str(v->value, sizeof(v->value), k->value);
		used = take_measured_comment(v, k);
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

/* ---- the mean of calibrations ---------------------------------------- */

/* One input of cp_calib_mean. */
struct mean_input {
	struct cp_calib_source src;
	char *text;
	size_t len;
	char host[384], kernel[128];
};

/* The header calibrate writes before the first section, "Machine profile
 * of HOST, written by `CMD` on DATE, kernel KERNEL. ...", its wrapped
 * comment lines joined: HOST and KERNEL. false when it is not there. */
static bool header_host_kernel(const char *text, char *host, size_t host_len, char *kernel,
			       size_t kernel_len)
{
	char joined[2048];
	const char *p = text, *h, *e;
	size_t n = 0;

	while (*p == ';' && n + 2 < sizeof(joined)) {
		size_t len = strcspn(p, "\n");
		const char *line = p + 1;

		if (*line == ' ')
			line++;
		n += (size_t)snprintf(joined + n, sizeof(joined) - n, "%s%.*s", n ? " " : "",
				      (int)(len - (size_t)(line - p)), line);
		p += len;
		if (*p == '\n')
			p++;
	}
	joined[n < sizeof(joined) ? n : sizeof(joined) - 1] = '\0';
	h = strstr(joined, "Machine profile of ");
	e = h ? strstr(h, ", written by `") : NULL;
	if (!e)
		return false;
	h += strlen("Machine profile of ");
	snprintf(host, host_len, "%.*s", (int)(e - h), h);
	e = strchr(e + strlen(", written by `"), '`'); /* the command's end */
	h = e ? strstr(e, ", kernel ") : NULL;
	if (!h)
		return false;
	h += strlen(", kernel ");
	n = strcspn(h, " ");
	if (n && h[n - 1] == '.')
		n--;
	snprintf(kernel, kernel_len, "%.*s", (int)n, h);
	return n > 0;
}

/* A calibrate-written key is measured when its comment starts so. */
static bool src_key_measured(const struct cp_calib_src_key *k)
{
	return k && strncmp(k->comment, "measured: ", 10) == 0;
}

/* value = NUMBER UNIT ("17409M", "74us", "1467"): true with the number
 * and the unit (pointing into value); integral: no fraction given. */
static bool split_number(const char *value, double *x, const char **unit, bool *integral)
{
	char *end;

	errno = 0;
	*x = strtod(value, &end);
	if (end == value || errno || !(*x >= 0))
		return false;
	*unit = end;
	*integral = !memchr(value, '.', (size_t)(end - value)) &&
		    !memchr(value, 'e', (size_t)(end - value));
	return true;
}

/* s is unit, alone or followed by a space and a note ("100us (p5..p95)"). */
static bool unit_is(const char *s, const char *unit)
{
	size_t n = strlen(unit);

	return strncmp(s, unit, n) == 0 && (s[n] == '\0' || s[n] == ' ');
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of x[0..n-1] (n >= 1; sorts x): the middle value, or the
 * mean of the two middle ones when n is even. */
static double median_of(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* One drifting key of the combined profile: the inputs' mean (median:
 * their median) and how it came. */
static int combine_key(struct cp_calib_value *v, struct mean_input *in, size_t n, bool median,
		       const char *const *paths, struct cp_diag *diag)
{
	double sum = 0, lo = 0, hi = 0, xs[CP_CALIB_COMBINE_MAX], value;
	const char *unit0 = NULL, *value0 = NULL;
	bool integral = true, have_range = true;
	char list[512] = "", range_note[32] = "";
	size_t i, used, ll = 0;

	for (i = 0; i < n; i++) {
		const struct cp_calib_src_key *k = cp_calib_source_find(&in[i].src, v->section,
									 v->key);
		struct cp_calib_value r;
		const char *unit;
		double x, a, b;
		bool in_integral;
		char *mid;

		if (!split_number(k->value, &x, &unit, &in_integral))
			return cp_diag_set(diag, -CP_EINVAL, "%s: [%s] %s = %s: not a number to "
					   "average", paths[i], v->section, v->key, k->value);
		if (unit0 && strcmp(unit, unit0) != 0)
			return cp_diag_set(diag, -CP_EINVAL, "[%s] %s: %s has %s, %s has %s: not the "
					   "same unit", v->section, v->key, paths[0], value0, paths[i],
					   k->value);
		if (!unit0)
			value0 = k->value;
		unit0 = unit;
		integral = integral && in_integral;
		sum += x;
		xs[i] = x;
		if (ll < sizeof(list))
			ll += (size_t)snprintf(list + ll, sizeof(list) - ll, "%s%s %s",
					       i ? (i + 1 == n ? " and " : ", ") : "", paths[i],
					       k->value);
		/* the range: the widest "LO..HI" (same unit) over the inputs */
		memset(&r, 0, sizeof(r));
		take_measured_comment(&r, k);
		mid = strstr(r.range, "..");
		if (!have_range || !mid) {
			have_range = false;
			continue;
		}
		*mid = '\0';
		{
			const char *ua, *ub;
			bool ia, ib;

			if (!split_number(r.range, &a, &ua, &ia) ||
			    !split_number(mid + 2, &b, &ub, &ib) || strcmp(ua, unit) != 0 ||
			    !unit_is(ub, unit)) {
				have_range = false;
				continue;
			}
			if (i == 0)
				copy_str(range_note, sizeof(range_note), ub + strlen(unit));
		}
		lo = i == 0 || a < lo ? a : lo;
		hi = i == 0 || b > hi ? b : hi;
	}
	value = median ? median_of(xs, n) : sum / (double)n;
	if (integral)
		snprintf(v->value, sizeof(v->value), "%.0f%s", value, unit0);
	else
		snprintf(v->value, sizeof(v->value), "%.6g%s", value, unit0);
	/* how: the inputs' values, then how the first measured it */
	used = take_measured_comment(v, cp_calib_source_find(&in[0].src, v->section, v->key));
	{
		char first[sizeof(v->how)];

		snprintf(first, sizeof(first), "%.*s", used ? (int)used - 1 : 0, v->how);
		cp_calib_text(v->how, sizeof(v->how),
			      "the %s of %zu calibrations, %s; each measured as %s says: %s",
			      median ? "median" : "mean", n, list, paths[0], first);
	}
	if (have_range) /* the first input's note after it, "(p5..p95)", kept */
		cp_calib_text(v->range, sizeof(v->range), "%.*g%s..%.*g%s%s", integral ? 15 : 6,
			      lo, unit0, integral ? 15 : 6, hi, unit0, range_note);
	else
		v->range[0] = '\0';
	v->measured = true;
	return 0;
}

/* cp_calib_mean, or with median cp_calib_median. */
static int calib_combine(struct cp_calibration *c, const char *const *paths, size_t n,
			 bool median, struct cp_diag *diag)
{
	const char *opt = median ? "--median" : "--mean";
	struct mean_input *in;
	double rate_sum = 0, rate_x[CP_CALIB_COMBINE_MAX];
	char rates[512] = "";
	size_t i, j, rl = 0, nr_rates = 0;
	int rc = 0;

	if (n < 2)
		return cp_diag_set(diag, -CP_EINVAL, "%s needs at least 2 profiles, got %zu", opt, n);
	if (n > CP_CALIB_COMBINE_MAX)
		return cp_diag_set(diag, -CP_EINVAL, "%s takes at most %d profiles, got %zu", opt,
				   CP_CALIB_COMBINE_MAX, n);
	in = cp_calloc(n, sizeof(*in));
	if (!in)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	for (i = 0; i < n && !rc; i++) {
		rc = cp_kfile_read(paths[i], &in[i].text, diag);
		if (!rc)
			in[i].len = strlen(in[i].text);
		if (!rc)
			rc = cp_calib_source_parse(&in[i].src, paths[i], in[i].text, in[i].len,
						   diag);
		if (!rc && !header_host_kernel(in[i].text, in[i].host, sizeof(in[i].host),
					       in[i].kernel, sizeof(in[i].kernel)))
			rc = cp_diag_set(diag, -CP_EINVAL, "%s: not a profile calibrate wrote (no "
					 "\"Machine profile of HOST, written by ...\" header)",
					 paths[i]);
		if (!rc && i && (strcmp(in[i].host, in[0].host) || strcmp(in[i].kernel, in[0].kernel)))
			rc = cp_diag_set(diag, -CP_EINVAL, "%s is of %s, kernel %s; %s of %s, kernel "
					 "%s: calibrations of one machine and kernel only", paths[i],
					 in[i].host, in[i].kernel, paths[0], in[0].host, in[0].kernel);
	}
	for (i = 0; !rc && i < c->nr; i++) {
		struct cp_calib_value *v = &c->v[i];
		const struct cp_calib_src_key *k0 = cp_calib_source_find(&in[0].src, v->section,
									  v->key);
		size_t measured = 0;
		bool same = true;

		if (strcmp(v->key, "name") == 0)
			continue;
		for (j = 0; j < n; j++) {
			const struct cp_calib_src_key *k = cp_calib_source_find(&in[j].src, v->section,
										 v->key);

			measured += src_key_measured(k);
			if (!k != !k0 || (k && strcmp(k->value, k0->value) != 0))
				same = false;
		}
		if (measured != 0 && measured != n) {
			rc = cp_diag_set(diag, -CP_EINVAL, "[%s] %s is measured in %zu of the %zu "
					 "profiles: calibrations of one kind only", v->section, v->key,
					 measured, n);
			break;
		}
		if (strcmp(v->key, "description") == 0 && k0) {
			copy_str(v->value, sizeof(v->value), k0->value);
			snprintf(v->how, sizeof(v->how), "as in %s", paths[0]);
			v->measured = true;
			continue;
		}
		if (!measured) {
			/* copied from the first input; the others must agree */
			if (!same)
				rc = cp_diag_set(diag, -CP_EINVAL, "[%s] %s, not measured, differs "
						 "between %s and the others: copied from different "
						 "profiles", v->section, v->key, paths[0]);
			continue;
		}
		if (same) {
			size_t used;

			copy_str(v->value, sizeof(v->value), k0->value);
			used = take_measured_comment(v, k0); /* '\n'-ended lines */
			cp_calib_text(v->how + used, sizeof(v->how) - used,
				      "(the same in all %zu calibrations averaged)", n);
			v->measured = true;
			continue;
		}
		if (!v->drifts) {
			const struct cp_calib_src_key *kd = NULL;

			for (j = 1; j < n && !kd; j++) {
				kd = cp_calib_source_find(&in[j].src, v->section, v->key);
				if (kd && strcmp(kd->value, k0->value) == 0)
					kd = NULL;
			}
			rc = cp_diag_set(diag, -CP_EINVAL, "[%s] %s: %s has %s, %s has %s: a setting "
					 "of the machine, not a rate; calibrations of one setup only",
					 v->section, v->key, paths[0], k0->value, paths[j - 1],
					 kd ? kd->value : "?");
			break;
		}
		rc = combine_key(v, in, n, median, paths, diag);
	}
	for (i = 0; !rc && i < n; i++) {
		unsigned long long rate;
		char how[256];

		if (!fs_mark_rate(in[i].text, in[i].len, &rate, how, sizeof(how)))
			continue;
		if (!nr_rates)
			snprintf(c->fs_mark_how, sizeof(c->fs_mark_how), "%s", how);
		rate_sum += (double)rate;
		rate_x[nr_rates++] = (double)rate;
		if (rl < sizeof(rates))
			rl += (size_t)snprintf(rates + rl, sizeof(rates) - rl, "%s%s %llu",
					       rl ? ", " : "", paths[i], rate);
	}
	if (!rc && nr_rates) {
		size_t hl = strlen(c->fs_mark_how);

		c->fs_mark_files_per_sec =
			(uint64_t)((median ? median_of(rate_x, nr_rates)
					   : rate_sum / (double)nr_rates) + 0.5);
		if (hl < sizeof(c->fs_mark_how))
			cp_calib_text(c->fs_mark_how + hl, sizeof(c->fs_mark_how) - hl,
				      " (the %s of %s files/s)", median ? "median" : "mean", rates);
	}
	if (!rc) {
		copy_str(c->host, sizeof(c->host), in[0].host);
		copy_str(c->kernel, sizeof(c->kernel), in[0].kernel);
	}
	for (i = 0; i < n; i++)
		cp_free(in[i].text);
	cp_free(in);
	return rc;
}

int cp_calib_mean(struct cp_calibration *c, const char *const *paths, size_t n,
		  struct cp_diag *diag)
{
	return calib_combine(c, paths, n, false, diag);
}

int cp_calib_median(struct cp_calibration *c, const char *const *paths, size_t n,
		    struct cp_diag *diag)
{
	return calib_combine(c, paths, n, true, diag);
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
			 "measured with %s; %s, kernel %s. Not a key of this profile: one "
			 "worker's rate, about %llu ns a file of its wall time, beside [cpu] "
			 "xfs_create_ns (two workers, every CPU's busy time), which the model "
			 "charges.",
			 (unsigned long long)c->fs_mark_files_per_sec, c->fs_mark_how, c->date,
			 c->kernel, 1000000000ULL / c->fs_mark_files_per_sec);
		fprintf(out, "\n");
		comment(out, text + 1);
	}
}
