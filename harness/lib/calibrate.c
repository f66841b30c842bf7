/*
 * calibrate.c - measuring this machine for a machine profile.
 *
 * Every number comes from a measurement made here, on a filesystem of
 * our own, or from a kernel file; each records how it was obtained. The
 * per-object CPU costs of reclaim (page_cached_ns, lru_evict_ns, ...) and
 * the device's queue depth cannot be measured from user space without
 * tracing, so they stay unmeasured and the caller copies them from a
 * source profile, saying so.
 */
#include "calibrate.h"
#include "cgroup.h"

#include <cachepressure/error.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/rng.h"
#include "fsimage.h"
#include "fsmark.h"
#include "guest.h"
#include "balloon.h" /* cp_meminfo_available() */
#include "kfile.h"
#include "proc.h"
#include "sample.h" /* cp_proc_busy_ns() */
#include "sig.h"

#define MIB (1024ULL * 1024ULL)
#define GIB (1024ULL * MIB)
#define CACHED_PASSES 5
#define MAX_PARTS 64 /* processes of a parallel pass */
#define DIRECT_PASSES 2
#define LAT_READS 2000
#define LAT_WRITES 1000
#define SYSCALLS 1000000
#define HOW_CHARS 512

/* Every key of the profile in order; drifts: a rate or cost of the
 * machine that moves between calibrations (`calibrate --mean` averages
 * it), where the others are settings and sizes that must agree. */
static const struct {
	const char *section, *key;
	bool drifts;
} keys[] = {
	{ "machine", "name", false },
	{ "machine", "description", false },
	{ "machine", "cpus", false },
	{ "machine", "ram", false },
	{ "machine", "reserve", true }, /* SUnreclaim etc. at calibration */
	{ "machine", "process", false },
	{ "machine", "thp", false },
	{ "machine", "nr_zones", false },
	{ "machine", "dma32", false },
	{ "machine", "min_free_kbytes", false },
	{ "machine", "watermark_scale_factor", false },
	{ "cpu", "copy_bandwidth", true },
	{ "cpu", "memory_bandwidth", true },
	{ "cpu", "buffered_write_bandwidth", true },
	{ "cpu", "read_syscall_ns", true },
	{ "cpu", "page_cached_ns", true },
	{ "cpu", "page_insert_ns", true },
	{ "cpu", "page_insert_page_ns", true },
	{ "cpu", "lru_evict_ns", true },
	{ "cpu", "lru_evict_page_ns", true },
	{ "cpu", "lru_move_ns", true },
	{ "cpu", "lru_move_page_ns", true },
	{ "cpu", "slab_scan_ns", true },
	{ "cpu", "object_free_ns", true },
	{ "cpu", "xfs_create_ns", true },
	{ "cpu", "xfs_create_kworker_ns", true },
	{ "cpu", "sched_autogroup", false },
	{ "cpu", "fs_mark_cpus_beside_readers", true },
	{ "cpu", "readers_cpus_beside_fs_mark", true },
	{ "machine", "tasks_in_child_memcg", false },
	{ "device", "model", false },
	{ "device", "read_bandwidth", true },
	{ "device", "write_bandwidth", true },
	{ "device", "read_latency", true },
	{ "device", "write_latency", true },
	{ "device", "max_request", false },
	{ "device", "queue_depth", false },
	{ "readahead", "read_ahead_kb", false },
};

_Static_assert(sizeof(keys) / sizeof(keys[0]) <= CP_CALIB_MAX, "CP_CALIB_MAX too small");

void cp_calibration_init(struct cp_calibration *c, const char *name)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && i < CP_CALIB_MAX; i++) {
		c->v[i].section = keys[i].section;
		c->v[i].key = keys[i].key;
		c->v[i].drifts = keys[i].drifts;
	}
	c->nr = i;
	snprintf(c->v[0].value, sizeof(c->v[0].value), "%s", name);
	c->v[0].measured = true;
	snprintf(c->v[0].how, sizeof(c->v[0].how), "given with --name");
}

struct cp_calib_value *cp_calibration_get(struct cp_calibration *c, const char *section,
					  const char *key)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (strcmp(c->v[i].section, section) == 0 && strcmp(c->v[i].key, key) == 0)
			return &c->v[i];
	return NULL;
}

static void set(struct cp_calibration *c, const char *section, const char *key,
		const char *range, const char *how, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

static void set(struct cp_calibration *c, const char *section, const char *key,
		const char *range, const char *how, const char *fmt, ...)
{
	struct cp_calib_value *v = cp_calibration_get(c, section, key);
	va_list ap;

	if (!v)
		return;
	va_start(ap, fmt);
	vsnprintf(v->value, sizeof(v->value), fmt, ap);
	va_end(ap);
	snprintf(v->how, sizeof(v->how), "%s", how);
	snprintf(v->range, sizeof(v->range), "%s", range ? range : "");
	v->measured = true;
}

void cp_calib_text(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* ---- the world: image, loop, xfs, mount ---------------------------- */

struct calib_world {
	const char *guest_disk; /* inside a lab guest: the host's disk, no image/loop/mkfs */
	struct cp_workdir wd;
	struct cp_image img;
	struct cp_loop lo;
	struct cp_mount mnt;
	char losetup[512], mkfs[512], fs_mark[512];
};

static int world_teardown(struct calib_world *w, struct cp_diag *diag)
{
	struct cp_diag d;
	int rc = 0, e;

	e = cp_mount_remove(&w->mnt, &d);
	if (e && !rc)
		rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	if (w->guest_disk)
		w->lo.attached = false; /* the guest's disk: nothing to detach */
	e = cp_loop_detach(w->losetup, &w->lo, &w->img, &d);
	if (e && !rc)
		rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	e = cp_image_remove(&w->img, &d);
	if (e && !rc)
		rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	cp_workdir_release(&w->wd);
	return rc;
}

static int world_build(struct calib_world *w, const struct cp_calibrate_opts *o,
		       struct cp_diag *diag)
{
	char name[96];
	uint64_t free_bytes;
	int rc;

	if (w->guest_disk) {
		/* Lab guest (as `real --guest-disk`): the host made xfs on the
		 * virtio disk; the work directory is on the initramfs, which
		 * cp_workdir_prepare() would refuse, and holds only the mount
		 * point. */
		struct stat st;

		if (stat(w->guest_disk, &st) || !S_ISBLK(st.st_mode))
			return cp_diag_set(diag, -CP_ENOENT, "--guest-disk %s: not a block device",
					   w->guest_disk);
		if (mkdir(o->workdir, 0700) && errno != EEXIST)
			return cp_diag_set(diag, -CP_ESYS, "mkdir %s: %s", o->workdir,
					   strerror(errno));
		snprintf(w->wd.path, sizeof(w->wd.path), "%s", o->workdir);
		snprintf(w->lo.dev, sizeof(w->lo.dev), "%s", w->guest_disk);
		w->lo.attached = true; /* lets cp_mount_create() mount it */
		snprintf(name, sizeof(name), "cachepressure-%d-calibrate.mnt", (int)getpid());
		return cp_mount_create(&w->wd, name, &w->lo, CP_FS_XFS, &w->mnt, diag);
	}
	rc = cp_workdir_prepare(o->workdir, &w->wd, diag);
	if (rc)
		return rc;
	rc = cp_workdir_free_bytes(&w->wd, &free_bytes, diag);
	if (!rc && free_bytes < o->file_bytes + GIB)
		rc = cp_diag_set(diag, -CP_ENOSPC,
				 "%s has %" PRIu64 " MiB free; calibrate needs %" PRIu64 " MiB",
				 w->wd.path, free_bytes >> 20, (uint64_t)((o->file_bytes + GIB) >> 20));
	if (rc)
		return rc;
	snprintf(name, sizeof(name), "cachepressure-%d-calibrate.img", (int)getpid());
	rc = cp_image_create(&w->wd, name, 8 * GIB, &w->img, diag);
	if (!rc)
		rc = cp_loop_attach(w->losetup, &w->img, &w->lo, diag);
	if (!rc)
		rc = cp_mkfs(w->mkfs, CP_FS_XFS, &w->lo, 0, diag);
	if (rc)
		return rc;
	snprintf(name, sizeof(name), "cachepressure-%d-calibrate.mnt", (int)getpid());
	return cp_mount_create(&w->wd, name, &w->lo, CP_FS_XFS, &w->mnt, diag);
}

/* ---- measurements --------------------------------------------------- */

struct ctx {
	struct calib_world *w;
	struct cp_calibration *c;
	void (*progress)(void *, const char *);
	void *arg;
	char file[CP_FSIMAGE_PATH_MAX + 16];
	char *buf; /* 1 MiB, 4 KiB aligned (O_DIRECT) */
	/* 1 MiB from malloc(), as the seed's read-file.c and cp-read-file
	 * take theirs: glibc mmap()s it and returns 16 bytes past a page
	 * boundary. The copy into it is the readers' copy: on this AMD EPYC
	 * VM a page-aligned destination copied 16.4-18.4 GB/s and one 16
	 * bytes in 8.0-8.4 GB/s (2026-12-01, 1 GiB cached file, 1 MiB
	 * read()s). */
	char *rbuf;
	char tag[256]; /* "; date; kernel; host" suffix of every how */
	uint64_t file_bytes;  /* the data file */
	uint64_t nr_files;    /* fs_mark -n */
	char dev_desc[CP_FSIMAGE_PATH_MAX + 96]; /* "the loop device ... over an image in DIR" */
};

static void say(struct ctx *x, const char *msg)
{
	if (x->progress)
		x->progress(x->arg, msg);
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static int stopped(struct cp_diag *diag)
{
	if (cp_real_interrupted())
		return cp_diag_set(diag, -CP_EBUSY, "interrupted by signal %d; cleaned up",
				   cp_real_interrupted());
	return 0;
}

/* Reads the whole file with 1 MiB read()s; returns ns, 0 on error. */
static uint64_t read_pass(int fd, char *buf)
{
	uint64_t t = cp_proc_now_ns();
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(fd, buf, MIB, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return 0;
		if (n == 0)
			break;
		off += n;
	}
	return cp_proc_now_ns() - t;
}

static void fmt_rate(char *out, size_t len, double bytes_per_s)
{
	snprintf(out, len, "%" PRIu64 "M", (uint64_t)(bytes_per_s / (double)MIB + 0.5));
}

/* 1 MiB pwrite()s of x->buf over the whole data file open at fd;
 * false (errno set) on an error. */
static bool write_all(struct ctx *x, int fd)
{
	uint64_t off;

	for (off = 0; off < x->file_bytes; off += MIB) {
		ssize_t n = pwrite(fd, x->buf, MIB, (off_t)off);

		if (n < 0 && errno == EINTR) {
			off -= MIB;
			continue;
		}
		if (n != (ssize_t)MIB)
			return false;
	}
	return true;
}

/* write_all(), then fsync; false (errno set) on an error. */
static bool write_whole(struct ctx *x, int fd)
{
	return write_all(x, fd) && fsync(fd) == 0;
}

/*
 * The data file written as a run's set-up writes its files: 1 MiB
 * buffered pwrite()s to a new file (delayed allocation, the copy, new
 * page-cache folios dirtied) - their time is one task's write path,
 * buffered_write_bandwidth; the file (under the dirty background
 * threshold of a machine this size, so nothing is written back yet)
 * then goes to the device by fsync, many requests in flight as the
 * flusher sends them - write_bandwidth, the device's rate for
 * writeback. (Until session 46: 1 MiB O_DIRECT writes one at a time,
 * which left the device idle between them: 575 - 915 MB/s on the 6.18
 * VM against 1.26 - 1.48 GB/s by fsync; docs/fidelity.md.)
 */
static int write_new_file(struct ctx *x, struct cp_diag *diag)
{
	uint64_t t, t_sync;
	char how[HOW_CHARS], v[32];
	struct cp_kv vm = { 0 };
	int64_t bg = 0;
	bool early;
	int fd;

	/* a file over the background threshold is written back while it is
	 * written: the fsync's rate is then that of the rest only */
	if (cp_kv_read("/proc/vmstat", &vm, NULL) == 0) {
		if (cp_kv_get(&vm, "nr_dirty_background_threshold", &bg))
			bg = 0;
		cp_kv_release(&vm);
	}
	early = bg > 0 && x->file_bytes / 4096 > (uint64_t)bg;
	fd = open(x->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return cp_diag_set(diag, -CP_ESYS, "create %s: %s", x->file, strerror(errno));
	say(x, "write rates: 1 MiB buffered writes of a new data file, then fsync");
	t = cp_proc_now_ns();
	if (!write_all(x, fd)) {
		close(fd);
		return cp_diag_set(diag, -CP_ESYS, "write of %s: %s", x->file, strerror(errno));
	}
	t_sync = cp_proc_now_ns();
	t = t_sync - t;
	if (fsync(fd)) {
		close(fd);
		return cp_diag_set(diag, -CP_ESYS, "fsync of %s: %s", x->file, strerror(errno));
	}
	t_sync = cp_proc_now_ns() - t_sync;
	close(fd);
	if (!t || !t_sync)
		return cp_diag_set(diag, -CP_ESYS, "writing %s took no time", x->file);
	fmt_rate(v, sizeof(v), (double)x->file_bytes / secs(t));
	cp_calib_text(how, sizeof(how),
		 "%" PRIu64 " buffered pwrite()s of 1 MiB to a new file on a fresh xfs on %s, "
		 "one process, as a run's set-up writes its data files (fsync not included): "
		 "%.2f s%s",
		 (uint64_t)(x->file_bytes / MIB), x->dev_desc, secs(t), x->tag);
	set(x->c, "cpu", "buffered_write_bandwidth", NULL, how, "%s", v);
	/* written back during the writes too: the whole time, a lower bound */
	fmt_rate(v, sizeof(v), (double)x->file_bytes / secs(early ? t + t_sync : t_sync));
	cp_calib_text(how, sizeof(how),
		 "fsync() of those %" PRIu64 " MiB of dirty pages, the writeback's requests in "
		 "flight together, on %s: %.2f s%s%s",
		 (uint64_t)(x->file_bytes / MIB), x->dev_desc, secs(t_sync),
		 early ? " (the file is over the dirty background threshold, so writeback "
			 "began during the writes: the rate over writes and fsync, a lower bound)"
		       : " (under the dirty background threshold: nothing written back before it)",
		 x->tag);
	set(x->c, "device", "write_bandwidth", NULL, how, "%s", v);
	return 0;
}

/* nr passes of 1 MiB reads over the 1 GiB file open at fd (fd stays open):
 * the mean rate in v, "LO..HI" in range. Returns 0, or -CP_E* with
 * "WHAT: error" when a read fails, or when a stop signal came first. */
#define RATE_CHARS 32
#define RANGE_CHARS 64

/* Mean, slowest and fastest of a series of rates. */
struct rate_acc {
	double lo, hi, sum;
	int n;
};

static void rate_add(struct rate_acc *a, double r)
{
	if (a->n == 0 || r < a->lo)
		a->lo = r;
	if (a->n == 0 || r > a->hi)
		a->hi = r;
	a->sum += r;
	a->n++;
}

/* v: the mean; range: "slowest..fastest". */
static void rate_format(const struct rate_acc *a, char v[RATE_CHARS], char range[RANGE_CHARS])
{
	char lo[RATE_CHARS], hi[RATE_CHARS];

	fmt_rate(v, RATE_CHARS, a->sum / a->n);
	fmt_rate(lo, sizeof(lo), a->lo);
	fmt_rate(hi, sizeof(hi), a->hi);
	cp_calib_text(range, RANGE_CHARS, "%s..%s", lo, hi);
}

static int read_rates(struct ctx *x, int fd, int nr, const char *what, char v[RATE_CHARS],
		      char range[RANGE_CHARS], struct cp_diag *diag)
{
	struct rate_acc acc = { 0 };
	int i;

	for (i = 0; i < nr && !cp_real_interrupted(); i++) {
		uint64_t t = read_pass(fd, x->rbuf);

		if (!t)
			return cp_diag_set(diag, -CP_ESYS, "%s: %s", what, strerror(errno));
		rate_add(&acc, (double)x->file_bytes / secs(t));
	}
	if (i < nr)
		return stopped(diag);
	rate_format(&acc, v, range);
	return 0;
}

static uint64_t parts_pass(struct ctx *x, int nr, bool drop);
static uint64_t parts_loops(struct ctx *x, int nr, int loops);

/*
 * The copy rate of all the CPUs together: one process per CPU, each
 * reading its part of the cached file PARALLEL_LOOPS times, all started
 * together once every one has its buffer and its part warm; total bytes
 * over the wall time. Less than cpus x copy_bandwidth when the copies
 * share the memory bus (or the CPUs share a core). The readers of a run
 * loop for seconds, so neither fork() nor the first touch of a buffer
 * nor the scheduler spreading new processes belongs in this rate: timed
 * from fork() over one pass of 0.06 s, they made it 11.2 GB/s (7.8 ..
 * 12.8) where two cp-read-file loops over cached XFS files read 8.5 GB/s
 * each (0.050 - 0.054 s a 406 MiB pass, 2026-12-01).
 */
#define PARALLEL_LOOPS 8
static int copy_all_cpus(struct ctx *x, struct cp_diag *diag)
{
	char how[HOW_CHARS], range[RANGE_CHARS], v[RATE_CHARS];
	struct rate_acc acc = { 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nr = cpus < 1 ? 1 : cpus > MAX_PARTS ? MAX_PARTS : (int)cpus, i;

	say(x, "memory bandwidth: one process per CPU reads its part of the cached data file");
	for (i = 0; i < CACHED_PASSES && !cp_real_interrupted(); i++) {
		uint64_t t = parts_loops(x, nr, PARALLEL_LOOPS);

		if (!t)
			return cp_diag_set(diag, -CP_ESYS, "parallel cached read of %s failed",
					   x->file);
		rate_add(&acc, (double)(x->file_bytes / (uint64_t)nr * (uint64_t)nr *
					PARALLEL_LOOPS) / secs(t));
	}
	if (i < CACHED_PASSES)
		return stopped(diag);
	rate_format(&acc, v, range);
	cp_calib_text(how, sizeof(how),
		 "mean of %d runs: %d processes (one per CPU), each with its part of the cached "
		 "%" PRIu64 " MiB file on xfs read once, read it %d times more with 1 MiB "
		 "read()s, started together; total bytes / wall time%s",
		 CACHED_PASSES, nr, (uint64_t)(x->file_bytes / MIB), PARALLEL_LOOPS, x->tag);
	set(x->c, "cpu", "memory_bandwidth", range, how, "%s", v);
	return 0;
}

/*
 * Puts the data file in the page cache as a run's data files are: 1 MiB
 * buffered pwrite()s (run.c write_file(), like dd bs=1M), then fsync so
 * that no writeback runs during the timed reads. On 6.6+ the write path
 * makes folios of the write's size, and those read faster than what a
 * cold readahead leaves (0.050 against 0.054 s a cached 406 MiB pass
 * here, 2026-12-01). Returns the ns taken, 0 on error.
 */
static uint64_t write_buffered(struct ctx *x)
{
	uint64_t t = cp_proc_now_ns();
	int fd = open(x->file, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write_whole(x, fd);

	if (fd >= 0 && close(fd))
		ok = false;
	return ok ? cp_proc_now_ns() - t : 0;
}

static int cached_reads(struct ctx *x, struct cp_diag *diag)
{
	uint64_t t, written;
	char how[HOW_CHARS], range[RANGE_CHARS], v[RATE_CHARS];
	int fd, i, rc;

	say(x, "cached read rate: 1 MiB read()s of the cached data file");
	written = write_buffered(x); /* brings it into the page cache */
	if (!written)
		return cp_diag_set(diag, -CP_ESYS, "buffered rewrite of %s: %s", x->file,
				   strerror(errno));
	fd = open(x->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cp_diag_set(diag, -CP_ESYS, "open %s: %s", x->file, strerror(errno));
	rc = read_rates(x, fd, CACHED_PASSES, "read", v, range, diag);
	if (rc) {
		close(fd);
		return rc;
	}
	cp_calib_text(how, sizeof(how),
		 "mean of %d passes of 1 MiB read()s over a cached %" PRIu64 " MiB file on xfs "
		 "into a malloc()ed buffer like read-file.c's (one process; includes the "
		 "per-page lookup; the file put in the page cache by 1 MiB buffered pwrite()s "
		 "as a run's data files are, %.2f s with fsync)%s",
		 CACHED_PASSES, (uint64_t)(x->file_bytes / MIB), secs(written), x->tag);
	set(x->c, "cpu", "copy_bandwidth", range, how, "%s", v);
	rc = copy_all_cpus(x, diag);
	if (rc) {
		close(fd);
		return rc;
	}

	say(x, "read() fixed cost: 1,000,000 read()s of 0 bytes");
	t = cp_proc_now_ns();
	for (i = 0; i < SYSCALLS; i++)
		if (read(fd, x->buf, 0) < 0 && errno != EINTR)
			break;
	t = cp_proc_now_ns() - t;
	close(fd);
	cp_calib_text(how, sizeof(how),
		 "1000000 read(fd, buf, 0) calls on the cached file: the system call and VFS "
		 "entry without a page (%.3f s)%s",
		 secs(t), x->tag);
	set(x->c, "cpu", "read_syscall_ns", NULL, how, "%" PRIu64, (t + SYSCALLS / 2) / SYSCALLS);
	return 0;
}

/* Buffered 1 MiB read()s of [off, off + len) of fd into buf (through
 * the kernel's readahead when it is not cached); false on an error or
 * a short file. */
static bool read_range(int fd, char *buf, off_t off, uint64_t len)
{
	uint64_t done = 0;

	if (!buf || fd < 0 || lseek(fd, off, SEEK_SET) != off)
		return false;
	while (done < len) {
		ssize_t n = read(fd, buf, MIB);

		if (n <= 0)
			return false;
		done += (uint64_t)n;
	}
	return true;
}

/* One stream of a parallel read pass: the part [off, off + len) of the
 * file once. Runs in a child process; exits 0 or 1. */
static void read_part(const char *file, off_t off, uint64_t len)
{
	_exit(read_range(open(file, O_RDONLY | O_CLOEXEC), malloc(MIB), off, len) ? 0 : 1);
}

/* A child of parts_loops(): reads its part once (its buffer and pages
 * warm), says so on ready, waits until go closes, reads its part loops
 * times. Exits 0 or 1. */
static void loop_part(const char *file, off_t off, uint64_t len, int loops, int ready, int go)
{
	char *buf = malloc(MIB), c = 1;
	int fd = open(file, O_RDONLY | O_CLOEXEC), i;

	for (i = -1; i < loops; i++) {
		if (!read_range(fd, buf, off, len))
			_exit(1);
		/* ready closed once written: a child that died before saying
		 * it is warm ends the parent's wait with EOF */
		if (i == -1 && (write(ready, &c, 1) != 1 || close(ready) || read(go, &c, 1) != 0))
			_exit(1);
	}
	_exit(0);
}

/* Children reading the parts of the cached file in a loop (loop_part). */
struct loopers {
	pid_t pid[MAX_PARTS];
	int started; /* forked */
	int go;      /* closing it starts them */
};

/* Forks nr children that read the nr parts of the cached file loops
 * times each, and returns once every one has read its part once (warm):
 * 0, with l->go open (loopers_go() starts them), or -1 (l->go closed;
 * l->started children to reap). */
static int loopers_start(struct ctx *x, int nr, int loops, struct loopers *l)
{
	uint64_t part = x->file_bytes / (uint64_t)nr;
	int ready[2], go[2], k, ok = 1;
	char c;

	l->started = 0;
	l->go = -1;
	if (nr < 1 || nr > MAX_PARTS || pipe(ready))
		return -1;
	if (pipe(go)) {
		close(ready[0]);
		close(ready[1]);
		return -1;
	}
	for (k = 0; k < nr; k++) {
		l->pid[k] = fork();
		if (l->pid[k] == 0) {
			close(ready[0]);
			close(go[1]);
			loop_part(x->file, (off_t)((uint64_t)k * part), part, loops, ready[1], go[0]);
		}
		if (l->pid[k] < 0) {
			ok = 0;
			break;
		}
		l->started++;
	}
	close(ready[1]);
	close(go[0]);
	for (k = 0; ok && k < l->started; k++) /* every child warm */
		if (read(ready[0], &c, 1) != 1)
			ok = 0;
	close(ready[0]);
	l->go = go[1];
	if (ok && l->started == nr)
		return 0;
	close(l->go);
	l->go = -1;
	return -1;
}

/* Go: the children's read() of go returns 0. */
static void loopers_go(struct loopers *l)
{
	close(l->go);
	l->go = -1;
}

/* nr processes read the nr parts of the cached file loops times each,
 * started together once all are warm (loop_part). Returns the wall time
 * of the loops in ns, 0 on error. */
static uint64_t parts_loops(struct ctx *x, int nr, int loops)
{
	struct loopers l;
	uint64_t t = 0;
	int k, ok = loopers_start(x, nr, loops, &l) == 0;

	t = cp_proc_now_ns();
	if (ok)
		loopers_go(&l);
	for (k = 0; k < l.started; k++) {
		int st;

		if (!ok)
			kill(l.pid[k], SIGKILL);
		if (waitpid(l.pid[k], &st, 0) != l.pid[k] || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0)
			ok = 0;
	}
	t = cp_proc_now_ns() - t;
	return ok ? t : 0;
}

/* One pass: nr processes read the nr parts of the file at once, after
 * dropping its (clean) pages when drop is set. Returns the wall time in
 * ns, 0 on error. */
static uint64_t parts_pass(struct ctx *x, int nr, bool drop)
{
	int fd = open(x->file, O_RDONLY | O_CLOEXEC), k, ok = 1;
	uint64_t part = x->file_bytes / (uint64_t)nr, t;
	pid_t pid[MAX_PARTS];

	if (fd < 0 || nr < 1 || nr > MAX_PARTS) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (drop && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0) {
		close(fd);
		return 0;
	}
	close(fd);
	t = cp_proc_now_ns();
	for (k = 0; k < nr; k++) {
		pid[k] = fork();
		if (pid[k] == 0)
			read_part(x->file, (off_t)((uint64_t)k * part), part);
		if (pid[k] < 0)
			ok = 0;
	}
	for (k = 0; k < nr; k++) {
		int st;

		if (pid[k] > 0 && (waitpid(pid[k], &st, 0) != pid[k] || !WIFEXITED(st) ||
				   WEXITSTATUS(st) != 0))
			ok = 0;
	}
	t = cp_proc_now_ns() - t;
	return ok ? t : 0;
}

/*
 * The device's transfer rate, the `bandwidth` of the model's block device
 * (its serial data channel, with request latency overlapped up to the
 * queue depth: src/engine/blockdev.c). Measured as the model's readers
 * use the device: buffered sequential read()s of an uncached file through
 * the kernel's readahead (async requests of up to max_sectors_kb), two
 * streams at once so that the channel, not one stream's request latency,
 * is the limit. One O_DIRECT 1 MiB read at a time would measure latency +
 * transfer instead: on these machines 0.92 GB/s against 2.05 GB/s for two
 * readahead streams.
 */
static int device_reads(struct ctx *x, struct cp_diag *diag)
{
	char how[HOW_CHARS], range[RANGE_CHARS], v[RATE_CHARS];
	struct rate_acc acc = { 0 };
	int i;

	say(x, "device read rate: two readers, buffered 1 MiB read()s of the two halves of "
	       "the uncached data file");
	for (i = 0; i < DIRECT_PASSES && !cp_real_interrupted(); i++) {
		uint64_t t = parts_pass(x, 2, true);

		if (!t)
			return cp_diag_set(diag, -CP_ESYS, "device read pass over %s failed",
					   x->file);
		rate_add(&acc, (double)x->file_bytes / secs(t));
	}
	if (i < DIRECT_PASSES)
		return stopped(diag);
	rate_format(&acc, v, range);
	cp_calib_text(how, sizeof(how),
		 "mean of %d passes: two processes read the two halves of the %" PRIu64
		 " MiB file on xfs at once with 1 MiB read()s after POSIX_FADV_DONTNEED "
		 "(readahead, read_ahead_kb of the device), on %s%s",
		 DIRECT_PASSES, (uint64_t)(x->file_bytes / MIB), x->dev_desc, x->tag);
	set(x->c, "device", "read_bandwidth", range, how, "%s", v);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* 4 KiB O_DIRECT requests at random page offsets, one at a time. */
static int latency(struct ctx *x, int writing, struct cp_diag *diag)
{
	int n = writing ? LAT_WRITES : LAT_READS, i;
	uint64_t *lat = calloc((size_t)n, sizeof(*lat)), sum = 0;
	struct cp_rng rng;
	char how[HOW_CHARS], range[64];
	int fd = open(x->file, (writing ? O_WRONLY : O_RDONLY) | O_DIRECT | O_CLOEXEC);

	if (!lat || fd < 0) {
		free(lat);
		if (fd >= 0)
			close(fd);
		return cp_diag_set(diag, -CP_ESYS, "open %s O_DIRECT: %s", x->file, strerror(errno));
	}
	say(x, writing ? "device write latency: 1000 random 4 KiB O_DIRECT writes"
		       : "device read latency: 2000 random 4 KiB O_DIRECT reads");
	cp_rng_init(&rng, 42, writing ? 2 : 1);
	for (i = 0; i < n && !cp_real_interrupted(); i++) {
		off_t off = (off_t)(cp_rng_next(&rng) % (x->file_bytes / 4096)) * 4096;
		uint64_t t = cp_proc_now_ns();
		ssize_t r = writing ? pwrite(fd, x->buf, 4096, off) : pread(fd, x->buf, 4096, off);

		if (r != 4096) {
			close(fd);
			free(lat);
			return cp_diag_set(diag, -CP_ESYS, "O_DIRECT 4 KiB %s: %s",
					   writing ? "write" : "read", strerror(errno));
		}
		lat[i] = cp_proc_now_ns() - t;
		sum += lat[i];
	}
	close(fd);
	if (i < n) {
		free(lat);
		return stopped(diag);
	}
	qsort(lat, (size_t)n, sizeof(*lat), cmp_u64);
	cp_calib_text(range, sizeof(range), "%" PRIu64 "us..%" PRIu64 "us (p5..p95)",
		 (lat[n / 20] + 500) / 1000, (lat[n - 1 - n / 20] + 500) / 1000);
	cp_calib_text(how, sizeof(how),
		 "mean of %d %s of 4 KiB with O_DIRECT at random page offsets of the %" PRIu64
		 " MiB file, one at a time (queue depth 1), through xfs and %s%s",
		 n, writing ? "pwrite()s" : "pread()s", (uint64_t)(x->file_bytes / MIB), x->dev_desc, x->tag);
	set(x->c, "device", writing ? "write_latency" : "read_latency", range, how,
	    "%" PRIu64 "us", (sum / (uint64_t)n + 500) / 1000);
	free(lat);
	return 0;
}

/* fs_mark with a's arguments in calibrate's filesystem, its directories
 * made first; out gets what it printed, cmd its command line. Returns 0
 * or -CP_E* (diag says what failed). */
static int run_fs_mark(struct ctx *x, const struct cp_fs_mark_args *a, char *out, size_t out_len,
		       char *cmd, size_t cmd_len, struct cp_diag *diag)
{
	char dir[CP_FSIMAGE_PATH_MAX + CP_FS_MARK_DIR_MAX + 2];
	struct cp_spawn_opts so;
	char **argv;
	size_t i, len = 0;
	int rc;

	for (i = 0; i < a->nr_dirs; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", x->w->mnt.path, a->dirs[i]);
		if (mkdir(dir, 0755))
			return cp_diag_set(diag, -CP_ESYS, "mkdir %s: %s", dir, strerror(errno));
	}
	rc = cp_fs_mark_argv(a, "fs_mark", &argv, diag);
	if (rc)
		return rc;
	cmd[0] = '\0';
	for (i = 0; argv[i] && len < cmd_len; i++)
		len += (size_t)snprintf(cmd + len, cmd_len - len, "%s%s", i ? " " : "", argv[i]);
	cp_spawn_opts_init(&so);
	so.cwd = x->w->mnt.path;
	rc = cp_proc_run(x->w->fs_mark, argv, &so, 600000000000ULL, out, out_len, diag);
	cp_fs_mark_argv_free(argv);
	return rc;
}

static int fs_mark_rate(struct ctx *x, struct cp_diag *diag)
{
	struct cp_fs_mark_args a = { .nr_dirs = 1, .dirs = { "fsm" }, .files_per_loop = 0,
				     .loops = 1, .subdirs = 0, .sync_method = 0, .file_size = 0 };
	struct cp_fs_mark_report rep;
	char out[8192], cmd[256];
	int rc;

	a.files_per_loop = x->nr_files;
	say(x, "fs_mark create rate: empty files, one worker, no sync");
	rc = run_fs_mark(x, &a, out, sizeof(out), cmd, sizeof(cmd), diag);
	if (!rc && cp_fs_mark_parse(out, &rep))
		rc = cp_diag_set(diag, -CP_ESYS, "fs_mark printed no result row");
	if (!rc) {
		x->c->fs_mark_files_per_sec = rep.files_per_sec;
		cp_calib_text(x->c->fs_mark_how, sizeof(x->c->fs_mark_how), "`%s` on a fresh xfs on %s",
			      cmd, x->w->guest_disk ? x->w->guest_disk : "the loop device");
	}
	return rc;
}

/* User + system time of this process's reaped children, in ns. */
static uint64_t children_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0;
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

/* The CPU one empty-file create costs the whole machine on xfs, as the
 * seed's fs_mark makes them: its flags (-D 5000 -S0 -s 0 -L 1) with two
 * workers in new directories, and the busy time of all CPUs over the run
 * (/proc/stat) per file - the system calls, fs_mark's own work between
 * them (the failing mkdir() of a subdirectory among it) and the log and
 * loop work left to kworkers (scripts/measure-create-cost.sh, the source
 * of profiles/xfs.ini's [create], measures the same). The rest of the
 * machine is idle while calibrate runs. Of that busy time, what fs_mark's
 * processes did not run themselves goes to xfs_create_kworker_ns. */
static int xfs_create_cost(struct ctx *x, struct cp_diag *diag)
{
	struct cp_fs_mark_args a = { .nr_dirs = 2, .dirs = { "fsc0", "fsc1" }, .loops = 1,
				     .subdirs = 5000, .sync_method = 0, .file_size = 0 };
	char out[8192], how[HOW_CHARS], cmd[256];
	uint64_t busy0, busy1, files, own0, own1, own, kworker;
	int rc;

	a.files_per_loop = x->nr_files / 2 ? x->nr_files / 2 : 1;
	files = cp_fs_mark_total_files(&a);
	say(x, "xfs create cost: empty files, two workers, busy CPU per file");
	sync();
	rc = cp_proc_busy_ns(&busy0);
	if (rc)
		return cp_diag_set(diag, rc, "/proc/stat: no busy time to measure the creates by");
	own0 = children_cpu_ns();
	rc = run_fs_mark(x, &a, out, sizeof(out), cmd, sizeof(cmd), diag);
	own1 = children_cpu_ns();
	if (!rc && cp_proc_busy_ns(&busy1))
		rc = cp_diag_set(diag, -CP_ESYS, "/proc/stat: not readable after fs_mark");
	if (!rc && busy1 <= busy0)
		rc = cp_diag_set(diag, -CP_ESYS, "/proc/stat: no busy time over %" PRIu64 " creates",
				 files);
	if (rc)
		return rc;
	cp_calib_text(how, sizeof(how),
		      "busy time of all CPUs (/proc/stat user + nice + system + irq + softirq) over "
		      "`%s` on a fresh xfs on %s, per file: %.2f s for %" PRIu64 " files%s; the whole "
		      "create as the model charges it (xfs [create] create_cpu_ns + mkdir_lookup_ns)",
		      cmd, x->dev_desc, secs(busy1 - busy0), files, x->tag);
	set(x->c, "cpu", "xfs_create_ns", NULL, how, "%" PRIu64, (busy1 - busy0 + files / 2) / files);
	/* what fs_mark's processes ran themselves (their user + system time,
	 * reaped: getrusage(RUSAGE_CHILDREN)); the rest of the busy time ran
	 * in kernel threads - the log's and the loop device's kworkers - and
	 * in interrupts */
	own = own1 > own0 ? own1 - own0 : 0;
	kworker = busy1 - busy0 > own ? busy1 - busy0 - own : 0;
	cp_calib_text(how, sizeof(how),
		      "the same run's busy time less fs_mark's own user + system time "
		      "(getrusage RUSAGE_CHILDREN: %.2f s), per file: the create's work done by "
		      "kworkers and interrupts%s",
		      secs(own), x->tag);
	set(x->c, "cpu", "xfs_create_kworker_ns", NULL, how, "%" PRIu64,
	    (kworker + files / 2) / files);
	return 0;
}

/* utime + stime of task pid, in clock ticks; false when unreadable. */
static bool task_cpu_ticks(pid_t pid, uint64_t *ticks)
{
	char path[64], *text;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (cp_kfile_read(path, &text, NULL))
		return false;
	ok = cp_proc_stat_cpu_ticks(text, ticks) == 0;
	cp_free(text);
	return ok;
}

/* The seed's fs_mark as its 1G rows run it: two workers, 6 250 files a
 * worker a loop, a new pair of workers each of its 20 loops. */
#define SHARE_FILES_PER_LOOP 6250
#define SHARE_LOOPS 20

/*
 * The CPUs fs_mark's workers and two readers have side by side, no
 * reclaim: the seed's fs_mark as at 1G (-D 5000 -S0 -s 0 -L 20 -n 6250,
 * two workers in new directories: 250 000 files) while two processes
 * loop over the halves of the cached data file with 1 MiB read()s.
 * fs_mark's CPU is its reaped user + system time, the readers' the
 * utime + stime of /proc/PID/stat over the same span, each over
 * fs_mark's wall time. What the kernel's load
 * balancing gives them, which the model's fluid cannot place
 * (engine.h cp_engine_set_light_share(); docs/fidelity.md sessions 37 and
 * 44: the workers, forked anew each loop, are left beside a reader part
 * of the time). The readers are this process's children, killed and
 * reaped on every path.
 */
static int fs_mark_beside_readers(struct ctx *x, struct cp_diag *diag)
{
	struct cp_fs_mark_args a = { .nr_dirs = 2, .dirs = { "fsr0", "fsr1" },
				     .files_per_loop = SHARE_FILES_PER_LOOP, .loops = SHARE_LOOPS,
				     .subdirs = 5000, .sync_method = 0, .file_size = 0 };
	uint64_t r0[2] = { 0, 0 }, r1[2] = { 0, 0 }, t0 = 0, t1 = 0, own0 = 0, own1 = 0;
	uint64_t files = cp_fs_mark_total_files(&a), readers_ns;
	uint64_t hz = (uint64_t)sysconf(_SC_CLK_TCK);
	char out[8192], how[sizeof(x->c->v[0].how)], cmd[256];
	struct loopers l;
	int k, rc = 0;

	say(x, "fs_mark beside two readers: the CPUs each side gets");
	sync();
	if (loopers_start(x, 2, INT32_MAX, &l))
		rc = cp_diag_set(diag, -CP_ESYS, "two readers of %s did not start", x->file);
	else
		loopers_go(&l);
	for (k = 0; !rc && k < 2; k++)
		if (!task_cpu_ticks(l.pid[k], &r0[k]))
			rc = cp_diag_set(diag, -CP_ESYS, "/proc/%d/stat: not readable", (int)l.pid[k]);
	if (!rc) {
		own0 = children_cpu_ns();
		t0 = cp_proc_now_ns();
		rc = run_fs_mark(x, &a, out, sizeof(out), cmd, sizeof(cmd), diag);
		t1 = cp_proc_now_ns();
		own1 = children_cpu_ns();
	}
	for (k = 0; !rc && k < 2; k++)
		if (!task_cpu_ticks(l.pid[k], &r1[k]))
			rc = cp_diag_set(diag, -CP_ESYS, "/proc/%d/stat: not readable", (int)l.pid[k]);
	for (k = 0; k < l.started; k++) { /* the readers loop until killed */
		int st;

		kill(l.pid[k], SIGKILL);
		waitpid(l.pid[k], &st, 0);
	}
	if (rc)
		return rc;
	if (t1 <= t0 || own1 <= own0 || !hz)
		return cp_diag_set(diag, -CP_ESYS, "fs_mark took no time or no CPU beside the readers");
	readers_ns = (r1[0] - r0[0] + r1[1] - r0[1]) * (1000000000ull / hz);
	cp_calib_text(how, sizeof(how),
		      "fs_mark's own user + system time (getrusage RUSAGE_CHILDREN: %.2f s) over "
		      "its wall time (%.2f s), per mille of a CPU: `%s` (%" PRIu64 " files) on a "
		      "fresh xfs on %s beside two processes reading the halves of a cached %" PRIu64
		      " MiB file in a loop, 1 MiB read()s%s",
		      secs(own1 - own0), secs(t1 - t0), cmd, files, x->dev_desc,
		      x->file_bytes >> 20, x->tag);
	set(x->c, "cpu", "fs_mark_cpus_beside_readers", NULL, how, "%" PRIu64,
	    ((own1 - own0) * 1000 + (t1 - t0) / 2) / (t1 - t0));
	cp_calib_text(how, sizeof(how),
		      "the same run's two readers' utime + stime (/proc/PID/stat: %.2f s) over "
		      "fs_mark's wall time, per mille of a CPU%s",
		      secs(readers_ns), x->tag);
	set(x->c, "cpu", "readers_cpus_beside_fs_mark", NULL, how, "%" PRIu64,
	    (readers_ns * 1000 + (t1 - t0) / 2) / (t1 - t0));
	return 0;
}

/* ---- facts from /proc and /sys --------------------------------------- */

static uint64_t installed_ram(uint64_t mem_total)
{
	char *text, path[300];
	unsigned long long block;
	uint64_t online = 0;
	struct dirent *de;
	DIR *d;

	if (cp_kfile_read("/sys/devices/system/memory/block_size_bytes", &text, NULL))
		return 0;
	block = strtoull(text, NULL, 16);
	cp_free(text);
	d = opendir("/sys/devices/system/memory");
	if (!d || !block)
		return 0;
	while ((de = readdir(d))) {
		uint64_t on;

		if (strncmp(de->d_name, "memory", 6) != 0 || de->d_name[6] < '0' ||
		    de->d_name[6] > '9')
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/memory/%s/online", de->d_name);
		if (cp_kfile_read_u64(path, &on, NULL) == 0 && on == 1)
			online++;
	}
	closedir(d);
	return online * block >= mem_total ? online * block : 0;
}

static int nr_populated_zones(void)
{
	char *text, *p;
	int n = 0;

	if (cp_kfile_read("/proc/zoneinfo", &text, NULL))
		return -1;
	for (p = text; (p = strstr(p, "\n        present ")) != NULL; p++) {
		unsigned long long v;

		if (sscanf(p + 17, "%llu", &v) == 1 && v > 0)
			n++;
	}
	cp_free(text);
	return n;
}

/* "managed" pages of ZONE_DMA32 in /proc/zoneinfo (the line after the
 * zone's "Node N, zone    DMA32" header block); 0 if there is none. */
static uint64_t dma32_managed_pages(void)
{
	char *text, *p, *next;
	unsigned long long v = 0;

	if (cp_kfile_read("/proc/zoneinfo", &text, NULL))
		return 0;
	p = strstr(text, "zone    DMA32");
	if (p) {
		next = strstr(p + 1, "Node ");
		p = strstr(p, "\n        managed ");
		if (p && (!next || p < next))
			v = strtoull(p + 17, NULL, 10);
	}
	cp_free(text);
	return v;
}

/* Inside a lab guest: the RAM qemu was given (-m), which the host puts
 * on the kernel command line as cachepressure.vm_mem=BYTES; 0 if absent. */
static uint64_t guest_vm_mem(void)
{
	char *text, *p;
	unsigned long long v = 0;

	if (cp_kfile_read("/proc/cmdline", &text, NULL))
		return 0;
	p = strstr(text, CP_LAB_VM_MEM_ARG);
	if (p && (p == text || p[-1] == ' '))
		v = strtoull(p + strlen(CP_LAB_VM_MEM_ARG), NULL, 10);
	cp_free(text);
	return v;
}

/* [machine] tasks_in_child_memcg: the memory cgroup calibrate runs in is
 * the one 'real --confine global' starts its processes in. */
static void memcg_fact(struct ctx *x)
{
	char how[384], path[CP_CGROUP_PATH_MAX];
	char *text;
	int rc;

	if (cp_kfile_read("/proc/self/cgroup", &text, NULL))
		return;
	rc = cp_cgroup_memory_path(text, path, sizeof(path));
	cp_free(text);
	if (rc)
		return;
	cp_calib_text(how, sizeof(how), "/proc/self/cgroup: the memory cgroup is %s%s", path,
		      x->tag);
	set(x->c, "machine", "tasks_in_child_memcg", NULL, how, "%s",
	    strcmp(path, "/") ? "yes" : "no");
}

static void system_facts(struct ctx *x)
{
	struct cp_kv kv = { 0 };
	int64_t total = 0, v;
	uint64_t ram, u;
	char how[HOW_CHARS], *text;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int zones;

	cp_calib_text(how, sizeof(how), "sysconf(_SC_NPROCESSORS_ONLN) (as `nproc`)%s", x->tag);
	set(x->c, "machine", "cpus", NULL, how, "%ld", cpus);
	if (cp_kv_read("/proc/meminfo", &kv, NULL) == 0 && cp_kv_get(&kv, "MemTotal", &total) == 0) {
		int64_t base = 0;
		static const char *const kern[] = { "SUnreclaim", "KernelStack", "PageTables",
						    "Percpu" };
		size_t i;

		ram = installed_ram((uint64_t)total);
		if (ram) {
			cp_calib_text(how, sizeof(how),
				 "online memory blocks x block_size_bytes in /sys/devices/system/memory "
				 "(MemTotal is %" PRId64 " MiB)%s",
				 total >> 20, x->tag);
		} else if (x->w->guest_disk && (ram = guest_vm_mem()) >= (uint64_t)total) {
			/* the lab kernel has no memory hotplug sysfs */
			cp_calib_text(how, sizeof(how),
				 "the guest's RAM as given to qemu (-m; the host passed it as "
				 CP_LAB_VM_MEM_ARG "%" PRIu64 " on the kernel command line; MemTotal "
				 "is %" PRId64 " MiB)%s",
				 ram, total >> 20, x->tag);
		} else {
			ram = 0;
		}
		if (ram) {
			set(x->c, "machine", "ram", NULL, how, "%" PRIu64 "M", ram >> 20);
			for (i = 0; i < sizeof(kern) / sizeof(kern[0]); i++)
				if (cp_kv_get(&kv, kern[i], &v) == 0)
					base += v;
			cp_calib_text(how, sizeof(how),
				 "ram - MemTotal (%" PRIu64 " MiB) + SUnreclaim + KernelStack + "
				 "PageTables + Percpu of /proc/meminfo at calibration (%" PRId64
				 " MiB)%s",
				 (ram - (uint64_t)total) >> 20, base >> 20, x->tag);
			set(x->c, "machine", "reserve", NULL, how, "%" PRIu64 "M",
			    (ram - (uint64_t)total + (uint64_t)base) >> 20);
		}
	}
	cp_kv_release(&kv);
	if (cp_kfile_read("/sys/kernel/mm/transparent_hugepage/enabled", &text, NULL) == 0) {
		int never = strstr(text, "[never]") != NULL;

		cp_calib_text(how, sizeof(how), "/sys/kernel/mm/transparent_hugepage/enabled: %.*s%s",
			 (int)strcspn(text, "\n"), text, x->tag);
		set(x->c, "machine", "thp", NULL, how, "%s", never ? "no" : "yes");
		cp_free(text);
	} else if (access("/sys/kernel", F_OK) == 0 &&
		   access("/sys/kernel/mm/transparent_hugepage", F_OK) != 0) {
		cp_calib_text(how, sizeof(how),
			 "/sys/kernel/mm/transparent_hugepage does not exist: the kernel was built "
			 "without THP%s",
			 x->tag);
		set(x->c, "machine", "thp", NULL, how, "no");
	}
	zones = nr_populated_zones();
	if (zones > 0) {
		cp_calib_text(how, sizeof(how), "zones with present pages > 0 in /proc/zoneinfo%s", x->tag);
		set(x->c, "machine", "nr_zones", NULL, how, "%d", zones);
	}
	u = dma32_managed_pages();
	if (u > 0) {
		cp_calib_text(how, sizeof(how),
			 "ZONE_DMA32 managed pages in /proc/zoneinfo (`grep -A5 DMA32 "
			 "/proc/zoneinfo`): %" PRIu64 " pages%s",
			 u, x->tag);
		set(x->c, "machine", "dma32", NULL, how, "%" PRIu64 "K", u * 4);
	}
	if (cp_kfile_read_u64("/proc/sys/vm/min_free_kbytes", &u, NULL) == 0) {
		cp_calib_text(how, sizeof(how),
			 "/proc/sys/vm/min_free_kbytes as set on this machine (0 would mean the "
			 "kernel default)%s",
			 x->tag);
		set(x->c, "machine", "min_free_kbytes", NULL, how, "%" PRIu64, u);
	}
	if (cp_kfile_read_u64("/proc/sys/vm/watermark_scale_factor", &u, NULL) == 0) {
		cp_calib_text(how, sizeof(how), "/proc/sys/vm/watermark_scale_factor%s", x->tag);
		set(x->c, "machine", "watermark_scale_factor", NULL, how, "%" PRIu64, u);
	}
	if (cp_kfile_read_u64("/proc/sys/kernel/sched_autogroup_enabled", &u, NULL) == 0) {
		cp_calib_text(how, sizeof(how), "/proc/sys/kernel/sched_autogroup_enabled = %" PRIu64
			      "%s", u, x->tag);
		set(x->c, "cpu", "sched_autogroup", NULL, how, "%s", u ? "yes" : "no");
	} else {
		cp_calib_text(how, sizeof(how), "no /proc/sys/kernel/sched_autogroup_enabled: a "
			      "kernel without CONFIG_SCHED_AUTOGROUP%s", x->tag);
		set(x->c, "cpu", "sched_autogroup", NULL, how, "no");
	}
	memcg_fact(x);
}

static void device_facts(struct ctx *x)
{
	const char *dev = x->w->lo.dev + 5; /* "loopN" */
	char path[160], how[384];
	uint64_t v;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/max_sectors_kb", dev);
	if (cp_kfile_read_u64(path, &v, NULL) == 0) {
		cp_calib_text(how, sizeof(how), "%s of the device the files were read from%s", path, x->tag);
		set(x->c, "device", "max_request", NULL, how, "%" PRIu64 "K", v);
	}
	snprintf(path, sizeof(path), "/sys/block/%s/queue/read_ahead_kb", dev);
	if (cp_kfile_read_u64(path, &v, NULL) == 0) {
		cp_calib_text(how, sizeof(how), "%s of the device the files were read from%s", path, x->tag);
		set(x->c, "readahead", "read_ahead_kb", NULL, how, "%" PRIu64, v);
	}
	cp_calib_text(how, sizeof(how), "the device calibrate measured%s", x->tag);
	if (x->w->guest_disk)
		set(x->c, "device", "model", NULL, how,
		    "virtio disk %s of a qemu guest (an image file on the host)", x->w->guest_disk);
	else
		set(x->c, "device", "model", NULL, how,
		    "loop device (direct I/O) on an image file in %s", x->w->wd.path);
}

int cp_calibrate_run(const struct cp_calibrate_opts *o, const char *command,
		     struct cp_calibration *c, void (*progress)(void *, const char *),
		     void *progress_arg, struct cp_diag *diag)
{
	struct calib_world w;
	struct ctx x;
	struct utsname u;
	struct cp_diag td;
	time_t now = time(NULL);
	struct tm tm;
	uint64_t avail;
	int rc, trc;
	char desc[200];

	rc = cp_lab_admit(o->guest_disk, "it makes a filesystem on a loop device", diag);
	if (rc)
		return rc;
	memset(&w, 0, sizeof(w));
	w.guest_disk = o->guest_disk;
	if (!w.guest_disk && cp_proc_find_tool("losetup", w.losetup, sizeof(w.losetup)))
		return cp_diag_set(diag, -CP_ENOENT, "losetup not found (util-linux)");
	if (!w.guest_disk && cp_proc_find_tool("mkfs.xfs", w.mkfs, sizeof(w.mkfs)))
		return cp_diag_set(diag, -CP_ENOENT, "mkfs.xfs not found (Debian package xfsprogs)");
	if (cp_proc_find_tool("fs_mark", w.fs_mark, sizeof(w.fs_mark)))
		return cp_diag_set(diag, -CP_ENOENT, "fs_mark not found (Debian package fsmark)");

	gmtime_r(&now, &tm);
	strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (uname(&u) == 0) {
		snprintf(c->kernel, sizeof(c->kernel), "%s", u.release);
		snprintf(c->host, sizeof(c->host), "%s", u.nodename);
	}
	snprintf(c->command, sizeof(c->command), "%s", command);

	memset(&x, 0, sizeof(x));
	x.w = &w;
	x.c = c;
	x.progress = progress;
	x.arg = progress_arg;
	snprintf(x.tag, sizeof(x.tag), "; `%s`, %s, kernel %s", command, c->date, c->kernel);
	x.file_bytes = o->file_bytes ? o->file_bytes : CP_CALIB_DEFAULT_FILE_BYTES;
	x.nr_files = o->nr_files ? o->nr_files : CP_CALIB_DEFAULT_FILES;
	/* the cached passes must find the whole file cached */
	rc = cp_meminfo_available("/proc/meminfo", &avail, diag);
	if (rc)
		return rc;
	if (avail < x.file_bytes + 64 * MIB)
		return cp_diag_set(diag, -CP_ENOSPC,
				   "--file-size %" PRIu64 " MiB does not fit in the page cache "
				   "(MemAvailable %" PRIu64 " MiB, needs the file + 64 MiB); give a "
				   "smaller --file-size",
				   x.file_bytes >> 20, avail >> 20);
	if (w.guest_disk)
		snprintf(x.dev_desc, sizeof(x.dev_desc),
			 "the virtio disk %s (a qemu guest's: an image file on the host, cache=none)",
			 w.guest_disk);
	else
		snprintf(x.dev_desc, sizeof(x.dev_desc),
			 "the loop device (direct I/O) over an image in %s", o->workdir);
	if (posix_memalign((void **)&x.buf, 4096, MIB))
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	memset(x.buf, 0, MIB);
	x.rbuf = malloc(MIB);
	if (!x.rbuf) {
		free(x.buf);
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	}
	memset(x.rbuf, 0, MIB);

	system_facts(&x);
	rc = world_build(&w, o, diag);
	if (!rc)
		rc = stopped(diag);
	/* the creates first, on the fresh filesystem as a run's fs_mark
	 * finds it: after the other fs_mark run the log's and the inodes'
	 * writeback still goes on and its CPU would count as theirs */
	if (!rc)
		rc = xfs_create_cost(&x, diag);
	if (!rc)
		rc = stopped(diag);
	if (!rc) {
		snprintf(x.file, sizeof(x.file), "%s/calib", w.mnt.path);
		device_facts(&x);
		rc = write_new_file(&x, diag);
	}
	if (!rc)
		rc = stopped(diag);
	if (!rc)
		rc = cached_reads(&x, diag);
	if (!rc)
		rc = stopped(diag);
	if (!rc)
		rc = device_reads(&x, diag);
	if (!rc)
		rc = latency(&x, 0, diag);
	if (!rc)
		rc = latency(&x, 1, diag);
	if (!rc)
		rc = stopped(diag);
	if (!rc)
		rc = fs_mark_rate(&x, diag);
	if (!rc)
		rc = stopped(diag);
	if (!rc)
		rc = fs_mark_beside_readers(&x, diag);
	if (!rc)
		rc = stopped(diag);
	free(x.buf);
	free(x.rbuf);
	say(&x, "cleaning up");
	trc = world_teardown(&w, &td);
	if (trc && !rc)
		rc = cp_diag_set(diag, trc, "%s", td.msg);
	if (!rc) {
		struct cp_calib_value *cpus = cp_calibration_get(c, "machine", "cpus");
		struct cp_calib_value *ram = cp_calibration_get(c, "machine", "ram");

		cp_calib_text(desc, sizeof(desc), "%s CPUs, %s RAM, %s %s (calibrated)",
			 cpus && cpus->measured ? cpus->value : "?",
			 ram && ram->measured ? ram->value : "?",
			 w.guest_disk ? "virtio disk" : "loop device on",
			 w.guest_disk ? w.guest_disk : o->workdir);
		set(c, "machine", "description", NULL, "written by calibrate", "%s", desc);
	}
	return rc;
}
