/*
 * cp-read-file - the seed's reader: loop over one file with 1 MiB read()s
 * and, at each end of file, report how many bytes this process had to read
 * from the block device during that pass.
 *
 * Same measurement as read-file.c of the seed's scripts
 * (josefbacik/debug-scripts cache-pressure/): the device bytes come from
 * the read_bytes line of /proc/self/io, which the block layer charges to
 * the task that submits a read bio (cache misses and the readahead they
 * trigger). Only completed passes count; the pass in progress when
 * SIGINT/SIGTERM arrives is dropped. Output lines are the seed's:
 *
 *   PATH: loop N read bytes is X        (only for passes with X != 0; N from 0)
 *   PATH: total read during loops X
 *
 * With --json FILE ("-" = stdout) it also writes one JSON record:
 *   {"kind": "reader", "path": ..., "total_read_bytes": N,
 *    "passes": [{"pass": 1, "read_bytes": x, "end_ns": t}, ...]}
 * where end_ns is CLOCK_MONOTONIC minus --clock-base (default: start).
 *
 * --passes N stops after N passes (a streaming read is --passes 1);
 * --read-size BYTES changes the read() size (cat reads 128 KiB).
 *
 * Exit: 0 done, 1 I/O error, 2 usage.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_READ_BYTES (1024 * 1024)
#define MAX_READ_BYTES (64ULL << 20)

static volatile sig_atomic_t done;

static void on_signal(int signo)
{
	(void)signo;
	done = 1;
}

struct pass {
	uint64_t read_bytes;
	uint64_t end_ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* read_bytes of /proc/self/io; returns 0 or -1. */
static int io_read_bytes(int iofd, uint64_t *out)
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
	if (!p)
		return -1;
	if (sscanf(p + 1, "read_bytes: %" SCNu64, out) != 1)
		return -1;
	return 0;
}

/* Fills buf as far as the file goes; returns bytes read (0 = EOF), -1 on
 * error, -2 when a stop signal interrupted the read. */
static ssize_t full_read(int fd, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = read(fd, buf + got, size - got);

		if (n < 0) {
			if (errno == EINTR) {
				if (done)
					return -2;
				continue;
			}
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int write_json(const char *dest, const char *path, const struct pass *passes,
		      size_t nr, uint64_t total)
{
	cJSON *rec = cJSON_CreateObject(), *arr;
	char *text;
	size_t i;
	FILE *f;
	int rc = 0;

	if (!rec)
		return -1;
	cJSON_AddStringToObject(rec, "kind", "reader");
	cJSON_AddStringToObject(rec, "path", path);
	cJSON_AddNumberToObject(rec, "total_read_bytes", (double)total);
	arr = cJSON_AddArrayToObject(rec, "passes");
	for (i = 0; arr && i < nr; i++) {
		cJSON *p = cJSON_CreateObject();

		if (!p)
			break;
		cJSON_AddNumberToObject(p, "pass", (double)(i + 1));
		cJSON_AddNumberToObject(p, "read_bytes", (double)passes[i].read_bytes);
		cJSON_AddNumberToObject(p, "end_ns", (double)passes[i].end_ns);
		cJSON_AddItemToArray(arr, p);
	}
	text = cJSON_PrintUnformatted(rec);
	cJSON_Delete(rec);
	if (!text || !arr || i < nr) {
		free(text);
		return -1;
	}
	f = strcmp(dest, "-") == 0 ? stdout : fopen(dest, "w");
	if (!f) {
		free(text);
		return -1;
	}
	if (fprintf(f, "%s\n", text) < 0)
		rc = -1;
	if (f == stdout ? fflush(f) != 0 : fclose(f) != 0)
		rc = -1;
	free(text);
	return rc;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cp-read-file [--json FILE|-] [--quiet] [--passes N] [--clock-base NS]\n"
		"                    [--read-size BYTES] FILE\n"
		"Reads FILE in a loop with 1 MiB read()s until SIGINT/SIGTERM (or N passes)\n"
		"and reports the bytes read from the device per completed pass.\n");
}

static int parse_u64(const char *s, uint64_t *out)
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

int main(int argc, char **argv)
{
	const char *json = NULL, *path = NULL;
	uint64_t max_passes = 0, base_ns = 0, prev, cur, total = 0, read_bytes = DEFAULT_READ_BYTES;
	int quiet = 0, have_base = 0, fd, iofd, i, rc = 0;
	struct pass *passes = NULL;
	size_t nr = 0, cap = 0;
	struct sigaction sa;
	char *buf;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
			json = argv[++i];
		} else if (strcmp(argv[i], "--quiet") == 0) {
			quiet = 1;
		} else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc) {
			if (parse_u64(argv[++i], &max_passes) || max_passes == 0) {
				fprintf(stderr, "cp-read-file: bad --passes '%s'\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--read-size") == 0 && i + 1 < argc) {
			if (parse_u64(argv[++i], &read_bytes) || read_bytes == 0 ||
			    read_bytes > MAX_READ_BYTES) {
				fprintf(stderr, "cp-read-file: bad --read-size '%s' (1..64M bytes)\n",
					argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--clock-base") == 0 && i + 1 < argc) {
			if (parse_u64(argv[++i], &base_ns)) {
				fprintf(stderr, "cp-read-file: bad --clock-base '%s'\n", argv[i]);
				return 2;
			}
			have_base = 1;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "cp-read-file: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!path) {
			path = argv[i];
		} else {
			fprintf(stderr, "cp-read-file: one FILE only ('%s')\n", argv[i]);
			return 2;
		}
	}
	if (!path) {
		usage(stderr);
		return 2;
	}
	if (!have_base)
		base_ns = now_ns();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a read() returns EINTR */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL)) {
		perror("cp-read-file: sigaction");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	iofd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	if (iofd < 0) {
		fprintf(stderr, "cp-read-file: /proc/self/io: %s\n", strerror(errno));
		return 1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "cp-read-file: %s: %s\n", path, strerror(errno));
		return 1;
	}
	buf = malloc((size_t)read_bytes);
	if (!buf || io_read_bytes(iofd, &prev)) {
		fprintf(stderr, "cp-read-file: no read_bytes in /proc/self/io\n");
		return 1;
	}

	while (!done) {
		ssize_t n = full_read(fd, buf, (size_t)read_bytes);

		if (n == -2)
			break;
		if (n < 0) {
			fprintf(stderr, "cp-read-file: %s: read: %s\n", path, strerror(errno));
			rc = 1;
			break;
		}
		if (n > 0)
			continue;
		/* end of file: one completed pass */
		if (io_read_bytes(iofd, &cur)) {
			fprintf(stderr, "cp-read-file: cannot read /proc/self/io\n");
			rc = 1;
			break;
		}
		if (nr == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct pass *np = realloc(passes, ncap * sizeof(*np));

			if (!np) {
				fprintf(stderr, "cp-read-file: out of memory\n");
				rc = 1;
				break;
			}
			passes = np;
			cap = ncap;
		}
		passes[nr].read_bytes = cur - prev;
		passes[nr].end_ns = now_ns() - base_ns;
		if (!quiet && cur != prev)
			printf("%s: loop %zu read bytes is %" PRIu64 "\n", path, nr, cur - prev);
		total += cur - prev;
		prev = cur;
		nr++;
		if (max_passes && nr >= max_passes)
			break;
		if (lseek(fd, 0, SEEK_SET) < 0) {
			fprintf(stderr, "cp-read-file: %s: lseek: %s\n", path, strerror(errno));
			rc = 1;
			break;
		}
	}
	if (!quiet)
		printf("%s: total read during loops %" PRIu64 "\n", path, total);
	if (json && write_json(json, path, passes, nr, total)) {
		fprintf(stderr, "cp-read-file: cannot write the JSON record to %s\n", json);
		rc = 1;
	}
	free(passes);
	free(buf);
	close(fd);
	close(iofd);
	return rc;
}
