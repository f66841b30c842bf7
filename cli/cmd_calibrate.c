/*
 * cmd_calibrate.c - `cachepressure calibrate`: measure this machine and
 * write a machine profile (the INI file the model's --machine reads).
 *
 * Each measured key carries, on the comment lines above it, how it was
 * measured, the command, the date and the kernel; keys calibrate cannot
 * measure are copied, with their comments, from a source profile (--from,
 * or profiles/seed-box.ini found from the current directory or next to
 * the program), and say so. The source's values come from inih; only its
 * comment lines are read as text.
 */
#include <cachepressure/error.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate.h"
#include "cli.h"
#include "opts.h"
#include "proc.h"
#include "sig.h"

#define MAX_SRC 64

struct src_key {
	char section[32], key[48], value[160];
	char comment[1024]; /* the comment lines above it and its inline comment */
};

struct source {
	const char *path;
	struct src_key k[MAX_SRC];
	size_t nr;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure calibrate [--workdir DIR] [-o FILE] [--from FILE]\n"
		"                               [--name NAME]\n"
		"\n"
		"Measures this machine, as root, on a filesystem of its own (sparse\n"
		"image, loop device with direct I/O, xfs; removed afterwards): the cached\n"
		"read rate (1 MiB read()s of a cached file), the device read rate (two\n"
		"readahead streams at once), write rate (1 MiB O_DIRECT) and latencies\n"
		"(4 KiB O_DIRECT), the fixed cost of a\n"
		"read() call, fs_mark's create rate for empty files, and CPUs, RAM, zones\n"
		"and watermark settings. Writes a machine profile for --machine FILE;\n"
		"each number has the command, date and kernel that produced it above it.\n"
		"\n"
		"Options:\n"
		"  --workdir DIR   where the image goes (default %s)\n"
		"  -o, --output FILE  write the profile to FILE (default: stdout)\n"
		"  --from FILE     profile to copy the keys it cannot measure from\n"
		"                  (default: profiles/seed-box.ini if found)\n"
		"  --name NAME     the profile's name (default: calibrated)\n"
		"  -h, --help      this help\n",
		CP_REAL_DEFAULT_WORKDIR);
}

static void on_progress(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "cachepressure calibrate: %s\n", msg);
}

static int on_ini(void *user, const char *section, const char *name, const char *value)
{
	struct source *s = user;
	struct src_key *k;

	if (s->nr == MAX_SRC)
		return 1;
	k = &s->k[s->nr++];
	snprintf(k->section, sizeof(k->section), "%s", section);
	snprintf(k->key, sizeof(k->key), "%s", name);
	snprintf(k->value, sizeof(k->value), "%s", value);
	return 1;
}

static struct src_key *src_find(struct source *s, const char *section, const char *key)
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
static void src_comments(struct source *s)
{
	char line[1024], section[32] = "", block[1024] = "";
	FILE *f = fopen(s->path, "r");

	if (!f)
		return;
	struct src_key *prev = NULL;

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
			struct src_key *k;
			char key[48];

			*eq = '\0';
			snprintf(key, sizeof(key), "%s", trim(p));
			k = src_find(s, section, key);
			semi = strstr(eq + 1, " ;");
			if (k) {
				snprintf(k->comment, sizeof(k->comment), "%s%s%s", block,
					 semi ? trim(semi + 2) : "", semi ? "\n" : "");
			}
			prev = k;
		}
		block[0] = '\0';
	}
	fclose(f);
}

static const char *find_source(const char *given, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (given)
		return given;
	if (access("profiles/seed-box.ini", R_OK) == 0)
		return "profiles/seed-box.ini";
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/../profiles/seed-box.ini", exe);
			if (access(buf, R_OK) == 0)
				return buf;
		}
	}
	return NULL;
}

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

static void write_profile(FILE *out, struct cp_calibration *c, struct source *src)
{
	const char *section = "";
	char text[1600];
	size_t i;

	snprintf(text, sizeof(text),
		 "Machine profile of %s, written by `%s` on %s, kernel %s.\n"
		 "Measured keys say how they were measured; the others are copied from %s "
		 "with their comments.",
		 c->host, c->command, c->date, c->kernel, src->path ? src->path : "(no source profile)");
	comment(out, text);
	for (i = 0; i < c->nr; i++) {
		struct cp_calib_value *v = &c->v[i];
		struct src_key *k;

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
		k = src->path ? src_find(src, v->section, v->key) : NULL;
		if (k) {
			snprintf(text, sizeof(text), "copied from %s (calibrate cannot measure it):",
				 src->path);
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

int cmd_calibrate(int argc, char **argv)
{
	struct cp_calibrate_opts opts;
	struct cp_calibration *c;
	struct source *src;
	struct cp_diag diag = { "" };
	char command[512] = "cachepressure", srcbuf[PATH_MAX + 64];
	FILE *out;
	size_t len = strlen(command);
	int i, rc;

	rc = cp_calibrate_opts_parse(argc, argv, &opts, &diag);
	if (rc == 1) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (rc) {
		fprintf(stderr, "cachepressure calibrate: %s (try --help)\n", diag.msg);
		return CLI_EXIT_USAGE;
	}
	for (i = 0; i < argc && len < sizeof(command) - 1; i++)
		len += (size_t)snprintf(command + len, sizeof(command) - len, " %s", argv[i]);

	src = calloc(1, sizeof(*src));
	c = calloc(1, sizeof(*c));
	if (!src || !c) {
		free(src);
		free(c);
		fprintf(stderr, "cachepressure calibrate: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	src->path = find_source(opts.from, srcbuf, sizeof(srcbuf));
	if (src->path) {
		int e = ini_parse(src->path, on_ini, src);

		if (e) {
			fprintf(stderr, "cachepressure calibrate: %s: %s\n", src->path,
				e < 0 ? "cannot read it" : "not a valid INI file");
			free(src);
			free(c);
			return CLI_EXIT_USAGE;
		}
		src_comments(src);
	} else {
		fprintf(stderr, "cachepressure calibrate: no source profile (profiles/seed-box.ini "
				"not found, no --from): unmeasured keys stay empty\n");
	}

	cp_calibration_init(c, opts.name);
	if (cp_real_signals_install()) {
		free(src);
		free(c);
		return CLI_EXIT_FAIL;
	}
	rc = cp_calibrate_run(&opts, command, c, on_progress, NULL, &diag);
	cp_real_signals_restore();
	if (rc) {
		fprintf(stderr, "cachepressure calibrate: %s\n", diag.msg);
		free(src);
		free(c);
		return rc == -CP_EPERM || rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	out = opts.output ? fopen(opts.output, "w") : stdout;
	if (!out) {
		fprintf(stderr, "cachepressure calibrate: cannot write %s\n", opts.output);
		free(src);
		free(c);
		return CLI_EXIT_FAIL;
	}
	write_profile(out, c, src);
	rc = out == stdout ? fflush(out) : fclose(out);
	if (rc)
		fprintf(stderr, "cachepressure calibrate: writing %s failed\n",
			opts.output ? opts.output : "stdout");
	else if (opts.output)
		fprintf(stderr, "cachepressure calibrate: wrote %s\n", opts.output);
	free(src);
	free(c);
	return rc ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
