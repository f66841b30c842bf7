/*
 * progutil - the code the harness programs share (see progutil.h). The
 * device-byte measurement is the one of the seed's read-file.c
 * (josefbacik/debug-scripts cache-pressure/): the read_bytes line of
 * /proc/self/io, which the block layer charges to the task that submits
 * a read bio.
 */
#include "progutil.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t cp_prog_stop;

static void on_signal(int signo)
{
	(void)signo;
	cp_prog_stop = 1;
}

int cp_prog_catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a read() returns EINTR */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -1;
	return 0;
}

uint64_t cp_prog_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int cp_prog_io_read_bytes(int iofd, uint64_t *out)
{
	char buf[1024];
	ssize_t n;
	char *p;

	do
		n = pread(iofd, buf, sizeof(buf) - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\nread_bytes:");
	if (!p || sscanf(p + 1, "read_bytes: %" SCNu64, out) != 1)
		return -1;
	return 0;
}

int cp_prog_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int parse_args(const struct cp_prog_desc *d, int argc, char **argv,
		      struct cp_prog_opts *o)
{
	int i, have_base = 0, own;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
			o->json = argv[++i];
		} else if (strcmp(argv[i], "--quiet") == 0) {
			o->quiet = 1;
		} else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc) {
			if (cp_prog_parse_u64(argv[++i], &o->max_passes) || o->max_passes == 0) {
				fprintf(stderr, "%s: bad --passes '%s'\n", d->name, argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--clock-base") == 0 && i + 1 < argc) {
			if (cp_prog_parse_u64(argv[++i], &o->base_ns)) {
				fprintf(stderr, "%s: bad --clock-base '%s'\n", d->name, argv[i]);
				return 2;
			}
			have_base = 1;
		} else if (d->option && (own = d->option(argc, argv, &i)) != 0) {
			if (own < 0)
				return 2;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			d->usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "%s: unknown option '%s'\n", d->name, argv[i]);
			d->usage(stderr);
			return 2;
		} else if (!o->path) {
			o->path = argv[i];
		} else {
			fprintf(stderr, "%s: one %s only ('%s')\n", d->name, d->operand, argv[i]);
			return 2;
		}
	}
	if (!o->path) {
		d->usage(stderr);
		return 2;
	}
	if (!have_base)
		o->base_ns = cp_prog_now_ns();
	return -1;
}

int cp_prog_start(const struct cp_prog_desc *d, int argc, char **argv,
		  struct cp_prog_opts *o)
{
	int rc = parse_args(d, argc, argv, o);

	if (rc >= 0)
		return rc;
	if (cp_prog_catch_stop_signals()) {
		fprintf(stderr, "%s: sigaction: %s\n", d->name, strerror(errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	return -1;
}

int cp_prog_pass_end(const struct cp_prog_desc *d, const struct cp_prog_opts *o,
		     struct cp_prog_passes *ps, int iofd, uint64_t entries)
{
	struct cp_prog_pass *p;
	uint64_t cur;

	if (cp_prog_io_read_bytes(iofd, &cur)) {
		fprintf(stderr, "%s: cannot read /proc/self/io\n", d->name);
		return -1;
	}
	if (ps->nr == ps->cap) {
		size_t ncap = ps->cap ? 2 * ps->cap : 64;
		struct cp_prog_pass *nv = realloc(ps->v, ncap * sizeof(*nv));

		if (!nv) {
			fprintf(stderr, "%s: out of memory\n", d->name);
			return -1;
		}
		ps->v = nv;
		ps->cap = ncap;
	}
	p = &ps->v[ps->nr];
	p->read_bytes = cur - ps->prev_read_bytes;
	p->end_ns = cp_prog_now_ns() - o->base_ns;
	p->entries = entries;
	if (!o->quiet && p->read_bytes != 0)
		printf("%s: loop %zu read bytes is %" PRIu64 "\n", o->path, ps->nr,
		       p->read_bytes);
	ps->total_read_bytes += p->read_bytes;
	ps->prev_read_bytes = cur;
	ps->nr++;
	return o->max_passes && ps->nr >= o->max_passes ? 1 : 0;
}

static cJSON *json_record(const struct cp_prog_desc *d, const struct cp_prog_opts *o,
			  const struct cp_prog_passes *ps)
{
	cJSON *rec = cJSON_CreateObject(), *arr;
	size_t i;

	if (!rec)
		return NULL;
	cJSON_AddStringToObject(rec, "kind", d->json_kind);
	cJSON_AddStringToObject(rec, "path", o->path);
	cJSON_AddNumberToObject(rec, "total_read_bytes", (double)ps->total_read_bytes);
	arr = cJSON_AddArrayToObject(rec, "passes");
	for (i = 0; arr && i < ps->nr; i++) {
		const struct cp_prog_pass *pass = &ps->v[i];
		cJSON *p = cJSON_CreateObject();

		if (!p)
			break;
		cJSON_AddNumberToObject(p, "pass", (double)(i + 1));
		cJSON_AddNumberToObject(p, "read_bytes", (double)pass->read_bytes);
		cJSON_AddNumberToObject(p, "end_ns", (double)pass->end_ns);
		if (d->json_entries)
			cJSON_AddNumberToObject(p, "entries", (double)pass->entries);
		cJSON_AddItemToArray(arr, p);
	}
	if (!arr || i < ps->nr) {
		cJSON_Delete(rec);
		return NULL;
	}
	return rec;
}

static int write_text(const char *dest, const char *text)
{
	FILE *f = strcmp(dest, "-") == 0 ? stdout : fopen(dest, "w");
	int rc = 0;

	if (!f)
		return -1;
	if (fprintf(f, "%s\n", text) < 0)
		rc = -1;
	if (f == stdout ? fflush(f) != 0 : fclose(f) != 0)
		rc = -1;
	return rc;
}

int cp_prog_write_json(const struct cp_prog_desc *d, const struct cp_prog_opts *o,
		       const struct cp_prog_passes *ps)
{
	cJSON *rec;
	char *text = NULL;
	int rc = -1;

	if (!o->json)
		return 0;
	rec = json_record(d, o, ps);
	if (rec)
		text = cJSON_PrintUnformatted(rec);
	cJSON_Delete(rec);
	if (text)
		rc = write_text(o->json, text);
	free(text);
	if (rc) {
		fprintf(stderr, "%s: cannot write the JSON record to %s\n", d->name, o->json);
		return 1;
	}
	return 0;
}
