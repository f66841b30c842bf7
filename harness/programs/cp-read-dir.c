/*
 * cp-read-dir - the seed author's read-dir walker: readdir() + stat() over
 * a directory tree in a loop until SIGINT/SIGTERM, reporting the passes it
 * completed and the bytes it had to read from the block device in each
 * (inode and directory blocks of an icache/dcache miss; /proc/self/io
 * read_bytes, as cp-read-file).
 *
 * read-dir.c of josefbacik/debug-scripts (cache-pressure/) walks one
 * directory and stat()s its regular files; this one stat()s every entry
 * but . and .., and with --recursive also descends into subdirectories
 * (fs_mark -D puts files one level down). Output lines:
 *
 *   DIR: loop N read bytes is X          (passes with X != 0; N from 0)
 *   DIR: total read during loops X
 *   DIR: total loops N                    (the seed's line)
 *
 * --json FILE ("-" = stdout) writes {"kind": "walker", "path", 
 * "total_read_bytes", "passes": [{"pass", "read_bytes", "end_ns",
 * "entries"}]}; --passes N stops after N passes.
 *
 * Exit: 0 done, 1 I/O error, 2 usage.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEPTH 64

static volatile sig_atomic_t done;

static void on_signal(int signo)
{
	(void)signo;
	done = 1;
}

struct pass {
	uint64_t read_bytes;
	uint64_t end_ns;
	uint64_t entries;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

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
	if (!p || sscanf(p + 1, "read_bytes: %" SCNu64, out) != 1)
		return -1;
	return 0;
}

/* Walks the directory open at dfd (consumed). Returns 0, 1 when stopped by
 * a signal, -1 on error (message printed). */
static int recursive;

static int walk(int dfd, const char *name, int depth, uint64_t *entries)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "cp-read-dir: %s: fdopendir: %s\n", name, strerror(errno));
		close(dfd);
		return -1;
	}
	for (;;) {
		struct stat st;

		if (done) {
			rc = 1;
			break;
		}
		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno == EINTR)
				continue;
			if (errno) {
				fprintf(stderr, "cp-read-dir: %s: readdir: %s\n", name, strerror(errno));
				rc = -1;
			}
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			fprintf(stderr, "cp-read-dir: %s/%s: stat: %s\n", name, de->d_name,
				strerror(errno));
			rc = -1;
			break;
		}
		(*entries)++;
		if (recursive && S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub < 0) {
				fprintf(stderr, "cp-read-dir: %s/%s: open: %s\n", name, de->d_name,
					strerror(errno));
				rc = -1;
				break;
			}
			rc = walk(sub, de->d_name, depth + 1, entries);
			if (rc)
				break;
		}
	}
	closedir(d);
	return rc;
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
	cJSON_AddStringToObject(rec, "kind", "walker");
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
		cJSON_AddNumberToObject(p, "entries", (double)passes[i].entries);
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
		"Usage: cp-read-dir [--json FILE|-] [--quiet] [--passes N] [--clock-base NS]\n"
		"                   [--recursive] DIR\n"
		"readdir() + stat() over DIR (--recursive: the tree) in a loop until SIGINT/SIGTERM\n"
		"(or N passes); reports passes completed and device bytes read per pass.\n");
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
	uint64_t max_passes = 0, base_ns = 0, prev, cur, total = 0;
	int quiet = 0, have_base = 0, iofd, i, rc = 0;
	struct pass *passes = NULL;
	size_t nr = 0, cap = 0;
	struct sigaction sa;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
			json = argv[++i];
		} else if (strcmp(argv[i], "--quiet") == 0) {
			quiet = 1;
		} else if (strcmp(argv[i], "--recursive") == 0) {
			recursive = 1;
		} else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc) {
			if (parse_u64(argv[++i], &max_passes) || max_passes == 0) {
				fprintf(stderr, "cp-read-dir: bad --passes '%s'\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--clock-base") == 0 && i + 1 < argc) {
			if (parse_u64(argv[++i], &base_ns)) {
				fprintf(stderr, "cp-read-dir: bad --clock-base '%s'\n", argv[i]);
				return 2;
			}
			have_base = 1;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "cp-read-dir: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!path) {
			path = argv[i];
		} else {
			fprintf(stderr, "cp-read-dir: one DIR only ('%s')\n", argv[i]);
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
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL)) {
		perror("cp-read-dir: sigaction");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	iofd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	if (iofd < 0 || io_read_bytes(iofd, &prev)) {
		fprintf(stderr, "cp-read-dir: no read_bytes in /proc/self/io\n");
		return 1;
	}

	while (!done) {
		uint64_t entries = 0;
		int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int w;

		if (dfd < 0) {
			fprintf(stderr, "cp-read-dir: %s: %s\n", path, strerror(errno));
			rc = 1;
			break;
		}
		w = walk(dfd, path, 0, &entries);
		if (w == 1)
			break; /* stopped mid-pass: not counted */
		if (w < 0) {
			rc = 1;
			break;
		}
		if (io_read_bytes(iofd, &cur)) {
			fprintf(stderr, "cp-read-dir: cannot read /proc/self/io\n");
			rc = 1;
			break;
		}
		if (nr == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct pass *np = realloc(passes, ncap * sizeof(*np));

			if (!np) {
				fprintf(stderr, "cp-read-dir: out of memory\n");
				rc = 1;
				break;
			}
			passes = np;
			cap = ncap;
		}
		passes[nr].read_bytes = cur - prev;
		passes[nr].end_ns = now_ns() - base_ns;
		passes[nr].entries = entries;
		if (!quiet && cur != prev)
			printf("%s: loop %zu read bytes is %" PRIu64 "\n", path, nr, cur - prev);
		total += cur - prev;
		prev = cur;
		nr++;
		if (max_passes && nr >= max_passes)
			break;
	}
	if (!quiet) {
		printf("%s: total read during loops %" PRIu64 "\n", path, total);
		printf("%s: total loops %zu\n", path, nr);
	}
	if (json && write_json(json, path, passes, nr, total)) {
		fprintf(stderr, "cp-read-dir: cannot write the JSON record to %s\n", json);
		rc = 1;
	}
	free(passes);
	close(iofd);
	return rc;
}
