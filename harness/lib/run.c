/*
 * run.c - one repetition of `cachepressure real`: build the world, run
 * the plan's setup and measured phases, record, tear down.
 *
 * The seed's cache-pressure.sh, step by step, on a world of our own:
 * mkfs + mount noatime (on a loop image instead of a raw NVMe drive), the
 * data files written (dd) and synced, readers started, fs_mark after the
 * delay, readers sent SIGINT when fs_mark exits. Memory is confined either
 * by a memory cgroup that every workload process joins before it runs
 * (memcg limit reclaim) or by a balloon that mlock()s all but SIZE of the
 * machine's available memory (global reclaim: kswapd and direct reclaim).
 *
 * The wait loop (pump) is the only place that blocks during a run: it
 * drains the children's pipes, reaps them, samples memory once a second,
 * and returns at a stop signal, so cleanup always runs.
 */
#include "run.h"

#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "balloon.h"
#include "pcplists.h"
#include "core/alloc.h"
#include "fsmark.h"
#include "guest.h"
#include "kfile.h"
#include "proc.h"
#include "resident.h"
#include "sample.h"
#include "sbtrace.h"
#include "sig.h"

#define MIB (1024ULL * 1024ULL)
#define SEC_NS 1000000000ULL
/* The series interval. Global runs: the model's (sim.c), short enough
 * to see the half-second bursts of deactivation and refaults
 * (docs/fidelity.md, session 45). Memcg runs: a second, because each
 * sample reads the cgroup's memory.stat, which flushes the memcg
 * statistics reclaim's heuristics read (the model's harness_memory_stat
 * timer, sim/daemons.c, does it every second too). */
#define SAMPLE_NS (SEC_NS / 10)
#define SAMPLE_MEMCG_NS SEC_NS
#define MAX_CHILDREN (CP_REAL_MAX_LOOPERS + CP_REAL_MAX_FILES + 4)
#define LOOPER_STOP_NS (60 * SEC_NS)

enum role { ROLE_SETUP, ROLE_LOOPER, ROLE_DRIVER };

struct child {
	pid_t pid;
	bool running;
	int status;
	uint64_t cpu_ns;     /* user + system time wait4() gave, with the
			      * children it reaped; 0 if not reaped by reap() */
	int fd;              /* read end of its stdout pipe, or -1 */
	char *out;           /* what it printed (captured children) */
	size_t len, cap;
	enum role role;
	const struct cp_real_looper *looper; /* loopers and a streaming driver */
	char what[96];
};

/* Everything one repetition creates, so teardown knows what to undo. */
struct world {
	struct cp_image img;
	struct cp_loop lo;
	struct cp_mount mnt;
	struct cp_cgroup cg;
	struct cp_balloon bal;
	struct cp_balloon topup[CP_BALLOON_MAX_TOPUPS]; /* more balloons (see inflate_topups) */
	struct cp_pcp_shrink pcp; /* per-CPU lists held short while the balloon fills */
	struct cp_sbtrace sbt;    /* the superblock shrinker's frees (tracefs instance) */
	struct child ch[MAX_CHILDREN];
	size_t nr_ch;
};

/* Every balloon that locked memory is still there. */
static bool balloons_alive(struct world *w)
{
	unsigned i;

	if (w->bal.bytes && !cp_balloon_alive(&w->bal))
		return false;
	for (i = 0; i < CP_BALLOON_MAX_TOPUPS; i++)
		if (w->topup[i].bytes && !cp_balloon_alive(&w->topup[i]))
			return false;
	return true;
}

struct run {
	struct cp_real_session *s;
	const struct cp_real_plan *p;
	struct cp_run_result *r;
	struct world w;
	struct cp_sampler smp;
	bool sampling;
	bool watch;           /* loopers must keep running, balloon must live */
	uint64_t next_sample_ns;
	char failure[256];    /* first reason the measurement is invalid */
};

enum pump_end { PUMP_DONE, PUMP_TIMEOUT, PUMP_STOPPED, PUMP_FAILED };

static void progress(struct run *R, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void progress(struct run *R, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!R->s->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	R->s->progress(R->s->progress_arg, msg);
}

static void fail(struct run *R, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void fail(struct run *R, const char *fmt, ...)
{
	va_list ap;

	if (R->failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(R->failure, sizeof(R->failure), fmt, ap);
	va_end(ap);
}

/* ---- children ------------------------------------------------------ */

static struct child *child_new(struct run *R, enum role role, const char *what)
{
	struct child *c;

	if (R->w.nr_ch == MAX_CHILDREN)
		return NULL;
	c = &R->w.ch[R->w.nr_ch];
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->role = role;
	snprintf(c->what, sizeof(c->what), "%s", what);
	return c;
}

/* Starts argv (or fn) as a child of this run: in the cgroup (memcg mode),
 * cwd on the mount, stdout captured when capture is set. */
static int child_start(struct run *R, enum role role, const char *what, const char *path,
		       char *const argv[], int (*fn)(void *), void *arg, bool capture,
		       struct child **out, struct cp_diag *diag)
{
	struct child *c = child_new(R, role, what);
	struct cp_spawn_opts so;
	int fds[2] = { -1, -1 }, rc;

	if (!c)
		return cp_diag_set(diag, -CP_ENOMEM, "too many children");
	cp_spawn_opts_init(&so);
	so.cwd = R->w.mnt.path;
	if (R->w.cg.created)
		so.cgroup_procs = R->w.cg.procs;
	if (capture) {
		if (cp_proc_pipe(fds))
			return cp_diag_set(diag, -CP_ESYS, "pipe: %s", strerror(errno));
		so.stdout_fd = fds[1];
		if (role == ROLE_DRIVER || role == ROLE_SETUP)
			so.stderr_fd = fds[1]; /* fs_mark: one stream to parse */
	}
	rc = path ? cp_proc_spawn(path, argv, &so, &c->pid, diag)
		  : cp_proc_fork(fn, arg, &so, &c->pid, diag);
	if (fds[1] >= 0)
		close(fds[1]);
	if (rc) {
		if (fds[0] >= 0)
			close(fds[0]);
		return rc;
	}
	c->fd = fds[0];
	c->running = true;
	R->w.nr_ch++;
	if (out)
		*out = c;
	return 0;
}

static void child_read(struct child *c)
{
	char buf[16384];
	ssize_t n;

	n = read(c->fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(c->fd);
		c->fd = -1;
		return;
	}
	if (c->len + (size_t)n + 1 > c->cap) {
		size_t cap = c->cap ? c->cap : 65536;
		char *p;

		while (cap < c->len + (size_t)n + 1)
			cap *= 2;
		p = cp_realloc(c->out, cap);
		if (!p)
			return; /* dropped; the JSON parse will fail and say so */
		c->out = p;
		c->cap = cap;
	}
	memcpy(c->out + c->len, buf, (size_t)n);
	c->len += (size_t)n;
	c->out[c->len] = '\0';
}

/* Drains the rest of a finished child's pipe. */
static void child_drain(struct child *c)
{
	while (c->fd >= 0) {
		struct pollfd pfd = { c->fd, POLLIN, 0 };

		if (poll(&pfd, 1, 1000) <= 0) {
			close(c->fd);
			c->fd = -1;
			break;
		}
		child_read(c);
	}
}

static uint64_t timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * SEC_NS + (uint64_t)tv.tv_usec * 1000;
}

/* Reaps the children that exited, keeping the CPU time wait4() reports
 * for each: its own and that of the children it waited for (fs_mark's
 * workers). */
static void reap(struct run *R)
{
	size_t i;

	for (i = 0; i < R->w.nr_ch; i++) {
		struct child *c = &R->w.ch[i];
		struct rusage ru;

		if (c->running && wait4(c->pid, &c->status, WNOHANG, &ru) == c->pid) {
			c->running = false;
			c->cpu_ns = timeval_ns(ru.ru_utime) + timeval_ns(ru.ru_stime);
		}
	}
}

static int exited_ok(const struct child *c)
{
	return !c->running && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0;
}

static void describe_status(const struct child *c, char *buf, size_t len)
{
	if (WIFEXITED(c->status))
		snprintf(buf, len, "%s exited with status %d", c->what, WEXITSTATUS(c->status));
	else if (WIFSIGNALED(c->status))
		snprintf(buf, len, "%s was killed by signal %d%s", c->what, WTERMSIG(c->status),
			 WTERMSIG(c->status) == SIGKILL ? " (OOM killer?)" : "");
	else
		snprintf(buf, len, "%s stopped", c->what);
}

/* The last non-empty line a captured child printed (for messages). */
static const char *last_line(struct child *c)
{
	char *end, *start;

	if (!c->out || !c->len)
		return "(no output)";
	end = c->out + c->len;
	while (end > c->out && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = end;
	while (start > c->out && start[-1] != '\n')
		start--;
	return *start ? start : "(no output)";
}

typedef bool (*pump_until_fn)(struct run *R, const void *arg);

static bool child_done(struct run *R, const void *arg)
{
	(void)R;
	return !((const struct child *)arg)->running;
}

static bool loopers_done(struct run *R, const void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < R->w.nr_ch; i++)
		if (R->w.ch[i].role == ROLE_LOOPER && R->w.ch[i].running)
			return false;
	return true;
}

static bool setup_done(struct run *R, const void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < R->w.nr_ch; i++)
		if (R->w.ch[i].role == ROLE_SETUP && R->w.ch[i].running)
			return false;
	return true;
}

/* The run's only wait: returns when until() holds, at deadline_ns (0 =
 * none), at a stop signal, or when the measurement became invalid. */
static enum pump_end pump(struct run *R, uint64_t deadline_ns, pump_until_fn until,
			  const void *arg, struct cp_diag *diag)
{
	for (;;) {
		struct pollfd pfd[MAX_CHILDREN];
		struct child *owner[MAX_CHILDREN];
		uint64_t now, wait_ns = 100000000ULL;
		size_t i, n = 0;

		reap(R);
		if (until && until(R, arg))
			return PUMP_DONE;
		if (cp_real_interrupted())
			return PUMP_STOPPED;
		if (R->watch) {
			for (i = 0; i < R->w.nr_ch; i++) {
				struct child *c = &R->w.ch[i];

				if (c->role == ROLE_LOOPER && !c->running) {
					char why[160];

					describe_status(c, why, sizeof(why));
					fail(R, "%s before the end of the run", why);
					return PUMP_FAILED;
				}
			}
			if (R->s->opts.confine == CP_CONFINE_GLOBAL && !balloons_alive(&R->w)) {
				fail(R, "the balloon process died (OOM killer?): memory was no "
					"longer confined");
				return PUMP_FAILED;
			}
		}
		now = cp_proc_now_ns();
		if (R->sampling && now >= R->next_sample_ns) {
			uint64_t period = R->s->opts.confine == CP_CONFINE_MEMCG ? SAMPLE_MEMCG_NS
										  : SAMPLE_NS;

			if (cp_sampler_sample(&R->smp, now, R->r, diag) == 0)
				R->next_sample_ns += period;
			else
				R->sampling = false;
			if (R->next_sample_ns < now)
				R->next_sample_ns = now + period;
		}
		if (R->sampling) {
			uint64_t due;

			cp_sampler_watch_zone(&R->smp, now);
			due = cp_sampler_zonewatch_due(&R->smp);
			if (due > now && due - now < wait_ns)
				wait_ns = due - now;
		}
		if (deadline_ns && now >= deadline_ns)
			return PUMP_TIMEOUT;
		if (deadline_ns && deadline_ns - now < wait_ns)
			wait_ns = deadline_ns - now;
		if (R->sampling && R->next_sample_ns > now && R->next_sample_ns - now < wait_ns)
			wait_ns = R->next_sample_ns - now;
		for (i = 0; i < R->w.nr_ch; i++)
			if (R->w.ch[i].fd >= 0) {
				pfd[n].fd = R->w.ch[i].fd;
				pfd[n].events = POLLIN;
				pfd[n].revents = 0;
				owner[n++] = &R->w.ch[i];
			}
		if (poll(pfd, n, (int)(wait_ns / 1000000ULL) + 1) > 0)
			for (i = 0; i < n; i++)
				if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
					child_read(owner[i]);
	}
}

/* Stops every child still running: loopers with SIGINT first (they print
 * their totals), anything left with SIGKILL; reaps them all. */
static void children_stop(struct run *R)
{
	size_t i;

	for (i = 0; i < R->w.nr_ch; i++) {
		struct child *c = &R->w.ch[i];

		if (c->running) {
			cp_proc_stop(c->pid, c->role == ROLE_LOOPER ? SIGINT : SIGKILL,
				     2 * SEC_NS, &c->status);
			c->running = false;
		}
		if (c->fd >= 0) {
			close(c->fd);
			c->fd = -1;
		}
	}
}

static void children_free(struct run *R)
{
	size_t i;

	for (i = 0; i < R->w.nr_ch; i++)
		cp_free(R->w.ch[i].out);
	R->w.nr_ch = 0;
}

/* ---- building and tearing down the world --------------------------- */

/* After the balloon: while MemAvailable is still above SIZE by
 * CP_BALLOON_TOPUP_MIN_BYTES or more (the kernel freed more than it had
 * promised while the balloon faulted in), lock the excess with another
 * balloon, CP_BALLOON_MAX_TOPUPS at most. *bytes grows by what they
 * lock; their number is the counter cp_balloon_topups. A top-up that
 * cannot lock is not an error (the run has the memory it would have had
 * without it); it is said and the top-ups end. */
static int inflate_topups(struct run *R, uint64_t *bytes, struct cp_diag *diag)
{
	struct cp_real_session *s = R->s;
	unsigned i;
	int rc = 0;

	for (i = 0; !rc && i < CP_BALLOON_MAX_TOPUPS; i++) {
		uint64_t avail, more;

		rc = cp_meminfo_available("/proc/meminfo", &avail, diag);
		if (rc)
			break;
		more = cp_balloon_topup_bytes(avail, s->opts.mem_bytes);
		if (!more)
			break;
		progress(R, "MemAvailable %" PRIu64 " MiB after the balloon: %" PRIu64
			    " MiB more locked", avail >> 20, more >> 20);
		if (cp_balloon_inflate(s->tools.balloon, more, &R->w.topup[i], diag)) {
			progress(R, "the top-up could not lock: %s", diag->msg);
			break;
		}
		*bytes += more;
	}
	if (!rc && cp_run_result_set_counter(R->r, "cp_balloon_topups", (int64_t)i))
		rc = cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	return rc;
}

/*
 * The device's readahead window and largest request, as the readers'
 * file_ra_state saw them (file_ra_state_init() copies the bdi's
 * ra_pages at open): counters cp_device_read_ahead_kb and
 * cp_device_max_sectors_kb. They are properties of the loop device, not
 * of the run, and a user write to max_sectors_kb outlives losetup -d (it
 * shrank loop0's read_ahead_kb from 2560 to 256 on this machine until
 * 2026-12-01), so validate compares them with the machine profile. A
 * guest disk or a missing file records nothing.
 */
static int record_queue_limits(struct run *R)
{
	static const struct { const char *file, *counter; } q[] = {
		{ "read_ahead_kb", "cp_device_read_ahead_kb" },
		{ "max_sectors_kb", "cp_device_max_sectors_kb" },
	};
	const char *dev = R->w.lo.dev;
	char path[160];
	uint64_t v;
	size_t i;

	if (strncmp(dev, "/dev/", 5) != 0)
		return 0;
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", dev + 5, q[i].file);
		if (cp_kfile_read_u64(path, &v, NULL) != 0)
			continue;
		if (cp_run_result_set_counter(R->r, q[i].counter, (int64_t)v))
			return -CP_ENOMEM;
	}
	return 0;
}

static int world_build(struct run *R, unsigned rep, struct cp_diag *diag)
{
	struct cp_real_session *s = R->s;
	const struct cp_real_plan *p = R->p;
	char name[96];
	uint64_t inodes = cp_real_plan_nr_files(p) + cp_real_plan_nr_files(p) / 10 + 65536;
	int rc;

	if (s->opts.guest_disk) {
		/* Lab guest: the host made the filesystem on the virtio disk.
		 * "attached" lets cp_mount_create() mount it; detach later
		 * finds no loop backing file and does nothing. */
		snprintf(R->w.lo.dev, sizeof(R->w.lo.dev), "%s", s->opts.guest_disk);
		R->w.lo.attached = true;
		progress(R, "guest disk %s (made on the host)", R->w.lo.dev);
	} else {
		snprintf(name, sizeof(name), "cachepressure-%d-%u.img", (int)getpid(), rep + 1);
		rc = cp_image_create(&s->wd, name, cp_real_plan_image_bytes(p), &R->w.img, diag);
		if (rc)
			return rc;
		rc = cp_loop_attach(s->tools.losetup, &R->w.img, &R->w.lo, diag);
		if (rc)
			return rc;
		progress(R, "image %s (%" PRIu64 " GiB sparse) on %s%s", R->w.img.path,
			 cp_real_plan_image_bytes(p) >> 30, R->w.lo.dev,
			 R->w.lo.dio ? ", direct I/O" : ", WITHOUT direct I/O");
		if (cp_real_interrupted())
			return -CP_EBUSY;
		rc = cp_mkfs(s->tools.mkfs, s->opts.fs, &R->w.lo, inodes, diag);
		if (rc)
			return rc;
	}
	snprintf(name, sizeof(name), "cachepressure-%d-%u.mnt", (int)getpid(), rep + 1);
	rc = cp_mount_create(&s->wd, name, &R->w.lo, s->opts.fs, &R->w.mnt, diag);
	if (rc)
		return rc;
	progress(R, "%s on %s (noatime)", cp_fs_name(s->opts.fs), R->w.mnt.path);
	/* made before the balloon, so its ring buffer is not taken from the
	 * memory the run gets. A kernel without tracefs, the event or
	 * function-name filters (older guests of the kernel lab) runs
	 * without the count; the instance, if made, goes at once. */
	snprintf(name, sizeof(name), "cachepressure-%d-%u", (int)getpid(), rep + 1);
	{
		struct cp_diag d = { "" };
		/* where a tracefs of the run's own goes when the machine has
		 * none mounted (these VMs boot without one) */
		char own[CP_FSIMAGE_PATH_MAX + sizeof(name) + 16];

		snprintf(own, sizeof(own), "%s/%s.tracefs", s->wd.path, name);
		rc = cp_sbtrace_create(&R->w.sbt, name, CP_SBTRACE_BUFFER_KB,
				       s->opts.confine == CP_CONFINE_MEMCG, own, &d);
		if (rc && rc != -CP_ENOENT)
			progress(R, "no count of the superblock shrinker's frees: %s", d.msg);
		if (rc && cp_sbtrace_remove(&R->w.sbt, &d))
			return cp_diag_set(diag, -CP_ESYS, "%s", d.msg);
	}
	rc = record_queue_limits(R);
	if (!rc) /* the running kernel's objects, for the model (validate) */
		rc = cp_sampler_record_slabs(R->r, s->opts.fs, diag);
	if (rc)
		return rc;
	if (cp_real_interrupted())
		return -CP_EBUSY;

	if (s->opts.confine == CP_CONFINE_MEMCG) {
		snprintf(name, sizeof(name), "cachepressure-%d-%u", (int)getpid(), rep + 1);
		rc = cp_cgroup_create(&s->cgsys, name, &R->w.cg, diag);
		if (!rc)
			rc = cp_cgroup_set_limit(&R->w.cg, s->opts.mem_bytes, diag);
		if (rc)
			return rc;
		progress(R, "memory cgroup v%d %s, limit %" PRIu64 " MiB", R->w.cg.version,
			 R->w.cg.path, s->opts.mem_bytes >> 20);
	} else {
		uint64_t avail, bytes;

		rc = cp_drop_caches(diag);
		/* empty the per-CPU lists, and keep them short while the
		 * balloon fills: their pages would be free memory that
		 * MemAvailable and the start layout do not show */
		if (!rc)
			rc = cp_pcp_shrink(&R->w.pcp, 3000, diag);
		if (!rc)
			rc = cp_meminfo_available("/proc/meminfo", &avail, diag);
		if (!rc)
			rc = cp_balloon_size_headroom(avail, s->opts.mem_bytes,
						      s->opts.guest_disk
							      ? CP_LAB_GUEST_HEADROOM_BYTES
							      : CP_BALLOON_HEADROOM_BYTES,
						      &bytes, diag);
		if (rc)
			return rc;
		progress(R, "caches dropped; balloon locking %" PRIu64 " MiB of %" PRIu64
			    " MiB available",
			 bytes >> 20, avail >> 20);
		rc = cp_balloon_inflate(s->tools.balloon, bytes, &R->w.bal, diag);
		if (!rc)
			rc = inflate_topups(R, &bytes, diag);
		if (rc)
			return rc;
		rc = cp_run_result_set_counter(R->r, "cp_balloon_bytes", (int64_t)bytes);
		if (rc)
			return cp_diag_set(diag, rc, "out of memory");
		/* the kernel's own list sizes again for the experiment */
		rc = cp_pcp_restore(&R->w.pcp, diag);
		if (rc)
			return rc;
	}
	return 0;
}

/* Undoes the world in reverse order. Returns 0, or the first error with
 * diag naming what was left behind. */
static int world_teardown(struct run *R, struct cp_diag *diag)
{
	struct cp_real_session *s = R->s;
	struct cp_diag d;
	int rc = 0, e;
	unsigned i;

	children_stop(R);
	e = cp_pcp_restore(&R->w.pcp, &d);
	if (e && !rc)
		rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	for (i = 0; i < CP_BALLOON_MAX_TOPUPS; i++)
		cp_balloon_deflate(&R->w.topup[i]);
	cp_balloon_deflate(&R->w.bal);
	e = cp_sbtrace_remove(&R->w.sbt, &d);
	if (e && !rc)
		rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	e = cp_mount_remove(&R->w.mnt, &d);
	if (e && !rc)
		rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	e = cp_cgroup_remove(&R->w.cg, &d);
	if (e && !rc)
		rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	if (s->opts.guest_disk) {
		R->w.lo.attached = false; /* the guest's disk: nothing to detach */
		e = 0;
	} else {
		e = cp_loop_detach(s->tools.losetup, &R->w.lo, &R->w.img, &d);
	}
	if (e && !rc)
		rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	if (s->opts.keep && R->w.img.created && !R->w.lo.attached) {
		if (s->nr_kept < CP_REAL_MAX_REPEAT)
			snprintf(s->kept[s->nr_kept++], sizeof(s->kept[0]), "%s", R->w.img.path);
		R->w.img.created = false; /* the user's now */
	} else {
		e = cp_image_remove(&R->w.img, &d);
		if (e && !rc)
			rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	}
	children_free(R);
	return rc;
}

/* ---- setup phase ---------------------------------------------------- */

struct writer {
	char path[CP_FSIMAGE_PATH_MAX + CP_REAL_NAME_MAX];
	uint64_t size_bytes;
	bool sparse;
};

/* Runs in a child (inside the cgroup): writes one data file with 1 MiB
 * write()s of zeros, as `dd if=/dev/zero bs=1M` does; a sparse file gets
 * only its last MiB written (dd seek=). */
static int write_file(void *arg)
{
	static char zeros[1 << 20];
	const struct writer *w = arg;
	uint64_t off = 0;
	int fd = open(w->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		goto fail;
	if (w->sparse)
		off = w->size_bytes > MIB ? w->size_bytes - MIB : 0;
	while (off < w->size_bytes) {
		size_t len = w->size_bytes - off < sizeof(zeros) ? (size_t)(w->size_bytes - off)
								: sizeof(zeros);
		ssize_t n = pwrite(fd, zeros, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		off += (uint64_t)n;
	}
	if (close(fd))
		goto fail;
	return 0;
fail:
	dprintf(2, "cachepressure: writing %s: %s\n", w->path, strerror(errno));
	return 1;
}

static int run_fs_mark_setup(struct run *R, const struct cp_fs_mark_args *a, struct cp_diag *diag)
{
	struct cp_fs_mark_report rep;
	struct child *c;
	char **argv;
	uint64_t t;
	int rc;

	rc = cp_fs_mark_argv(a, "fs_mark", &argv, diag);
	if (rc)
		return rc;
	progress(R, "populating: fs_mark, %" PRIu64 " files", cp_fs_mark_total_files(a));
	t = cp_proc_now_ns();
	rc = child_start(R, ROLE_SETUP, "fs_mark (setup)", R->s->tools.fs_mark, argv, NULL, NULL,
			 true, &c, diag);
	cp_fs_mark_argv_free(argv);
	if (rc)
		return rc;
	if (pump(R, 0, child_done, c, diag) == PUMP_STOPPED)
		return -CP_EBUSY;
	child_drain(c);
	if (!exited_ok(c)) {
		char why[160];

		describe_status(c, why, sizeof(why));
		return cp_diag_set(diag, -CP_ESYS, "%s: %s", why, last_line(c));
	}
	if (cp_fs_mark_parse(c->out ? c->out : "", &rep) == 0) {
		rc = cp_run_result_set_counter(R->r, "setup_fs_mark_files",
					       cp_run_result_counter(R->r, "setup_fs_mark_files", 0) +
						       (int64_t)rep.files);
		if (!rc)
			rc = cp_run_result_set_counter(R->r, "setup_fs_mark_files_per_sec",
						       (int64_t)rep.files_per_sec);
		if (!rc)
			rc = cp_run_result_set_counter(R->r, "setup_fs_mark_ns",
						       (int64_t)(cp_proc_now_ns() - t));
		if (rc)
			return cp_diag_set(diag, rc, "out of memory");
	}
	return 0;
}

static int setup_steps(struct run *R, struct cp_diag *diag)
{
	const struct cp_real_plan *p = R->p;
	struct writer wr[CP_REAL_MAX_FILES];
	size_t i;
	int64_t refetched = 0;
	uint64_t refetch_t0, write_t0;
	int rc, fd;

	/* the free memory the set-up starts from (after the balloon) */
	rc = cp_sampler_record_start_free(R->r, diag);
	if (rc)
		return rc;
	for (i = 0; i < p->nr_mkdirs; i++) { /* parents come first */
		char path[CP_FSIMAGE_PATH_MAX + CP_REAL_NAME_MAX];

		snprintf(path, sizeof(path), "%s/%s", R->w.mnt.path, p->mkdirs[i]);
		if (mkdir(path, 0755))
			return cp_diag_set(diag, -CP_ESYS, "mkdir %s: %s", path, strerror(errno));
	}
	for (i = 0; i < p->nr_setup; i++) {
		rc = run_fs_mark_setup(R, &p->setup[i], diag);
		if (rc)
			return rc;
	}
	write_t0 = cp_proc_now_ns();
	for (i = 0; i < p->nr_files; i++) {
		snprintf(wr[i].path, sizeof(wr[i].path), "%s/%s", R->w.mnt.path, p->files[i].name);
		wr[i].size_bytes = p->files[i].size_bytes;
		wr[i].sparse = p->files[i].sparse;
		rc = child_start(R, ROLE_SETUP, p->files[i].name, NULL, NULL, write_file, &wr[i],
				 false, NULL, diag);
		if (rc)
			return rc;
	}
	if (p->nr_files)
		progress(R, "writing %zu data file(s), %" PRIu64 " MiB", p->nr_files,
			 cp_real_plan_data_bytes(p) >> 20);
	if (pump(R, 0, setup_done, NULL, diag) == PUMP_STOPPED)
		return -CP_EBUSY;
	/* the writers' start to their exit, before the syncfs: their write()s,
	 * paced by balance_dirty_pages() (the model's cp_setup_write_ns) */
	if (p->nr_files &&
	    cp_run_result_set_counter(R->r, "cp_setup_write_ns", cp_proc_now_ns() - write_t0))
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	for (i = 0; i < R->w.nr_ch; i++) {
		struct child *c = &R->w.ch[i];

		if (c->role == ROLE_SETUP && !exited_ok(c)) {
			char why[160];

			describe_status(c, why, sizeof(why));
			return cp_diag_set(diag, -CP_ESYS, "setup failed: %s", why);
		}
	}
	fd = open(R->w.mnt.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd)) {
		rc = cp_diag_set(diag, -CP_ESYS, "syncfs %s: %s", R->w.mnt.path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	close(fd);
	/* cached = no: the file starts on disk only (clean after syncfs). */
	for (i = 0; i < p->nr_files; i++) {
		if (p->files[i].cached)
			continue;
		fd = open(wr[i].path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) {
			rc = cp_diag_set(diag, -CP_ESYS, "dropping the cache of %s: %s", wr[i].path,
					 strerror(errno));
			if (fd >= 0)
				close(fd);
			return rc;
		}
		close(fd);
	}
	/* cached = yes: every page resident (resident.h), a few rounds. */
	refetch_t0 = cp_proc_now_ns();
	for (i = 0; i < p->nr_files; i++) {
		int64_t got = 0, total = 0;
		int round;

		if (!p->files[i].cached || p->files[i].sparse)
			continue;
		for (round = 0; round < 3; round++) {
			got = cp_refetch_missing(wr[i].path, wr[i].size_bytes);
			if (got <= 0)
				break;
			total += got;
		}
		if (got < 0)
			return cp_diag_set(diag, -CP_ESYS, "checking the page cache of %s: %s",
					   wr[i].path, strerror(errno));
		if (total) {
			progress(R, "%s: %" PRId64 " MiB were not in the page cache after "
				    "writing; read back", p->files[i].name, total >> 20);
			refetched += total;
		}
	}
	rc = cp_run_result_set_counter(R->r, "cp_setup_refetched_bytes", refetched);
	if (!rc) /* the read-back's wall time, mincore() included */
		rc = cp_run_result_set_counter(R->r, "cp_setup_refetch_ns",
					       cp_proc_now_ns() - refetch_t0);
	if (rc)
		return cp_diag_set(diag, rc, "out of memory");
	return 0;
}

/* The set-up, and what it cost the kernel (/proc/vmstat before and
 * after: setup_* counters). */
static int setup_phase(struct run *R, struct cp_diag *diag)
{
	struct cp_kv before = { 0 };
	int rc;

	if (cp_kv_read("/proc/vmstat", &before, NULL))
		cp_kv_release(&before); /* no file: no setup_* counters */
	/* the set-up's fallbacks, in the run's trace instance */
	rc = R->w.sbt.created ? cp_sbtrace_begin_setup(&R->w.sbt, diag) : 0;
	if (!rc)
		rc = setup_steps(R, diag);
	if (!rc)
		rc = cp_sampler_record_setup(R->r, &before, diag);
	cp_kv_release(&before);
	return rc;
}

/* ---- measured phase ------------------------------------------------- */

static int start_looper(struct run *R, const struct cp_real_looper *l, uint64_t t0,
			enum role role, struct child **out, struct cp_diag *diag)
{
	const struct cp_real_tools *t = &R->s->tools;
	char base[32], size[32];
	char *argv[16];
	struct child *c;
	int n = 0, rc;

	snprintf(base, sizeof(base), "%" PRIu64, t0);
	snprintf(size, sizeof(size), "%" PRIu64, l->read_size_bytes);
	argv[n++] = l->kind == CP_REAL_WALKER ? "cp-read-dir" : "cp-read-file";
	argv[n++] = "--quiet";
	argv[n++] = "--json";
	argv[n++] = "-";
	argv[n++] = "--clock-base";
	argv[n++] = base;
	if (l->kind == CP_REAL_STREAMER) {
		argv[n++] = "--passes";
		argv[n++] = "1";
	}
	if (l->kind != CP_REAL_WALKER && l->read_size_bytes) {
		argv[n++] = "--read-size";
		argv[n++] = size;
	}
	if (l->kind == CP_REAL_WALKER && l->recursive)
		argv[n++] = "--recursive";
	argv[n++] = (char *)l->path;
	argv[n] = NULL;
	rc = child_start(R, role, l->path, l->kind == CP_REAL_WALKER ? t->read_dir : t->read_file,
			 argv, NULL, NULL, true, &c, diag);
	if (rc)
		return rc;
	c->looper = l;
	if (role == ROLE_LOOPER) /* its CPU time in the series */
		cp_sampler_add_reader(&R->smp, c->pid);
	if (out)
		*out = c;
	return 0;
}

/* Parses a looper's JSON record into a reader of the result. */
static int record_looper(struct run *R, struct child *c)
{
	struct cp_reader_result *rd;
	cJSON *rec, *passes, *it;
	const cJSON *path;
	int rc = 0;

	rec = c->out ? cJSON_Parse(c->out) : NULL;
	path = rec ? cJSON_GetObjectItemCaseSensitive(rec, "path") : NULL;
	passes = rec ? cJSON_GetObjectItemCaseSensitive(rec, "passes") : NULL;
	if (!cJSON_IsString(path) || !cJSON_IsArray(passes)) {
		cJSON_Delete(rec);
		fail(R, "%s: no result record", c->what);
		return 0;
	}
	if (cp_run_result_add_reader(R->r, c->looper ? c->looper->label : path->valuestring, &rd)) {
		cJSON_Delete(rec);
		return -CP_ENOMEM;
	}
	cJSON_ArrayForEach(it, passes)
	{
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(it, "read_bytes");
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(it, "end_ns");

		if (!cJSON_IsNumber(b) || !cJSON_IsNumber(t) || b->valuedouble < 0 ||
		    t->valuedouble < 0) {
			fail(R, "%s: bad pass in its record", c->what);
			break;
		}
		rc = cp_reader_add_pass(rd, (uint64_t)b->valuedouble, (uint64_t)t->valuedouble);
		if (rc)
			break;
	}
	cJSON_Delete(rec);
	return rc;
}

static int record_fs_mark(struct run *R, struct child *c, uint64_t ns)
{
	struct cp_fs_mark_report rep;
	int rc;

	if (cp_fs_mark_parse(c->out ? c->out : "", &rep)) {
		fail(R, "fs_mark printed no result table");
		return 0;
	}
	rc = cp_run_result_set_counter(R->r, "fs_mark_files", (int64_t)rep.files);
	if (!rc)
		rc = cp_run_result_set_counter(R->r, "fs_mark_files_per_sec",
					       (int64_t)rep.files_per_sec);
	if (!rc)
		rc = cp_run_result_set_counter(R->r, "fs_mark_min_files_per_sec",
					       (int64_t)rep.min_files_per_sec);
	if (!rc)
		rc = cp_run_result_set_counter(R->r, "fs_mark_loops", (int64_t)rep.nr_loops);
	if (!rc)
		rc = cp_run_result_set_counter(R->r, "fs_mark_ns", (int64_t)ns);
	/* its CPU time, workers included, when it exited by itself */
	if (!rc && c->cpu_ns)
		rc = cp_run_result_set_counter(R->r, "fs_mark_cpu_ns", (int64_t)c->cpu_ns);
	return rc;
}

struct named_count {
	const char *name;
	uint64_t value;
};

/* Sets the n counters of c (stopping at the first error). */
static int set_counters(struct run *R, const struct named_count *c, size_t n)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < n; i++)
		rc = cp_run_result_set_counter(R->r, c[i].name, (int64_t)c[i].value);
	return rc;
}

/* The superblock shrinker's calls and frees over the measured phase
 * (sbtrace.h), and the events the buffer lost (then a lower bound); the
 * readers' readahead and the fallbacks, when those events were on. */
static int record_sb_frees(struct run *R, struct cp_diag *diag)
{
	struct cp_sbtrace_sum sum;
	const struct cp_sbtrace_sum *setup = &R->w.sbt.setup;
	int rc = cp_sbtrace_end(&R->w.sbt, &sum, diag);

	if (rc)
		return rc;
	const struct named_count sb[] = {
		{ "sb_shrinker_calls", sum.calls },
		{ "sb_shrinker_freed", sum.freed },
		{ "sb_shrinker_trace_lost", sum.lost },
	};
	const struct named_count ra[] = {
		{ "ra_sync_calls", sum.ra_sync },
		{ "ra_async_calls", sum.ra_async },
		{ "ra_pages_order_2to5", sum.ra_pages_2to5 },
		{ "ra_pages_order_6to9", sum.ra_pages_6to9 },
	};
	const struct named_count ef[] = {
		{ "extfrag", sum.extfrag },
		{ "extfrag_claim", sum.extfrag_claim },
		{ "extfrag_claim_movable", sum.extfrag_claim_movable },
		{ "setup_extfrag", setup->extfrag },
		{ "setup_extfrag_claim", setup->extfrag_claim },
		{ "setup_extfrag_claim_movable", setup->extfrag_claim_movable },
		{ "setup_trace_lost", setup->lost },
	};

	const struct named_count deep[] = {
		{ "sb_deep_calls", sum.deep_calls },
		{ "sb_deep_scan", sum.deep_scan },
		{ "sb_deep_fs_calls", sum.deep_fs_calls },
	};

	const struct named_count mr[] = {
		{ "memcg_reclaims", sum.memcg_reclaims },
		{ "memcg_reclaims_fs", sum.memcg_reclaims_fs },
	};
	const struct named_count walk[] = {
		{ "memcg_reclaimed", sum.memcg_reclaimed },
		{ "memcg_reclaims_prio12", sum.memcg_reclaims_prio12 },
		{ "memcg_reclaims_deep", sum.memcg_reclaims_deep },
		{ "memcg_reclaim_restarts", sum.memcg_reclaim_restarts },
		{ "memcg_reclaims_unpaired", sum.memcg_unpaired },
		{ "memcg_reclaimed_fs", sum.memcg_reclaimed_fs },
		{ "memcg_reclaims_fs_prio12", sum.memcg_reclaims_fs_prio12 },
		{ "memcg_reclaims_fs_deep", sum.memcg_reclaims_fs_deep },
	};

	rc = set_counters(R, sb, sizeof(sb) / sizeof(sb[0]));
	if (!rc && R->w.sbt.deep)
		rc = set_counters(R, deep, sizeof(deep) / sizeof(deep[0]));
	if (!rc && R->w.sbt.memcg)
		rc = set_counters(R, mr, sizeof(mr) / sizeof(mr[0]));
	if (!rc && R->w.sbt.per_reclaim)
		rc = set_counters(R, walk, sizeof(walk) / sizeof(walk[0]));
	if (!rc && R->w.sbt.watching)
		rc = set_counters(R, ra, sizeof(ra) / sizeof(ra[0]));
	if (!rc && R->w.sbt.extfrag)
		rc = set_counters(R, ef, sizeof(ef) / sizeof(ef[0]));
	return rc;
}

/* The readers' files for the trace instance's readahead events (their
 * inode numbers, now that set-up wrote them). A kernel without those
 * events runs without the counts. */
static void watch_readers(struct run *R)
{
	const struct cp_real_plan *p = R->p;
	uint64_t inos[CP_SBTRACE_MAX_FILES];
	char path[CP_FSIMAGE_PATH_MAX + CP_REAL_NAME_MAX + 2];
	struct cp_diag d = { "" };
	size_t i, n = 0;
	struct stat st;

	for (i = 0; i < p->nr_loopers && n < CP_SBTRACE_MAX_FILES; i++) {
		if (p->loopers[i].kind != CP_REAL_READER)
			continue;
		snprintf(path, sizeof(path), "%s/%s", R->w.mnt.path, p->loopers[i].path);
		if (stat(path, &st) == 0)
			inos[n++] = (uint64_t)st.st_ino;
	}
	if (n && cp_sbtrace_watch_files(&R->w.sbt, inos, n, &d))
		progress(R, "no count of the readers' readahead: %s", d.msg);
}

static int measure_phase(struct run *R, struct cp_diag *diag)
{
	const struct cp_real_plan *p = R->p;
	struct cp_real_tools *t = &R->s->tools;
	struct child *driver = NULL;

	uint64_t t0, t_driver, t_end, readers_cpu_ns = 0;
	enum pump_end end;
	size_t i;
	int rc;

	if (R->w.sbt.created) {
		watch_readers(R);
		rc = cp_sbtrace_begin(&R->w.sbt, diag);
		if (rc)
			return rc;
	}
	t0 = cp_proc_now_ns();
	rc = cp_sampler_begin(&R->smp, R->s->opts.confine, R->w.cg.created ? &R->w.cg : NULL,
			      R->w.lo.dev, t0, R->r, diag);
	if (rc)
		return rc;
	R->sampling = true;
	R->next_sample_ns = t0;
	for (i = 0; i < p->nr_loopers; i++) {
		rc = start_looper(R, &p->loopers[i], t0, ROLE_LOOPER, NULL, diag);
		if (rc)
			goto out;
	}
	progress(R, "%zu reader(s)/walker(s) started", p->nr_loopers);
	R->watch = true;
	end = pump(R, t0 + p->driver_delay_ns, NULL, NULL, diag);
	if (end == PUMP_STOPPED || end == PUMP_FAILED)
		goto stop;

	t_driver = cp_proc_now_ns();
	if (p->driver == CP_REAL_DRIVE_FS_MARK) {
		char **argv;

		rc = cp_fs_mark_argv(&p->fsm, "fs_mark", &argv, diag);
		if (rc)
			goto out;
		progress(R, "%s started: fs_mark, %" PRIu64 " files in %zu directories",
			 p->driver_name, cp_fs_mark_total_files(&p->fsm), p->fsm.nr_dirs);
		rc = child_start(R, ROLE_DRIVER, "fs_mark", t->fs_mark, argv, NULL, NULL, true,
				 &driver, diag);
		cp_fs_mark_argv_free(argv);
	} else {
		progress(R, "streaming %s once", p->stream.label);
		rc = start_looper(R, &p->stream, t0, ROLE_DRIVER, &driver, diag);
	}
	if (rc)
		goto out;
	end = pump(R, p->time_limit_ns ? t0 + p->time_limit_ns : 0, child_done, driver, diag);
	t_end = cp_proc_now_ns();
	if (end == PUMP_TIMEOUT) {
		/* scenario.time_limit: stop the driver like the loopers */
		progress(R, "time limit reached: stopping %s", p->driver_name);
		cp_proc_stop(driver->pid, SIGINT, 5 * SEC_NS, &driver->status);
		driver->running = false;
		child_drain(driver);
		rc = cp_run_result_set_counter(R->r, "cp_time_limit_hit", 1);
		if (rc)
			goto out;
		if (p->driver == CP_REAL_DRIVE_FS_MARK)
			record_fs_mark(R, driver, t_end - t_driver);
	} else if (end == PUMP_DONE) {
		child_drain(driver);
		if (!exited_ok(driver)) {
			char why[160];

			describe_status(driver, why, sizeof(why));
			fail(R, "%s: %s", why, last_line(driver));
		} else if (p->driver == CP_REAL_DRIVE_FS_MARK) {
			rc = record_fs_mark(R, driver, t_end - t_driver);
			if (rc)
				goto out;
		}
	}
stop:
	R->watch = false;
	if (cp_real_interrupted()) {
		rc = cp_diag_set(diag, -CP_EBUSY, "interrupted by signal %d",
				 cp_real_interrupted());
		goto out;
	}
	/* The readers get SIGINT, like the seed's `kill -SIGINT`. */
	for (i = 0; i < R->w.nr_ch; i++)
		if (R->w.ch[i].role == ROLE_LOOPER && R->w.ch[i].running)
			kill(R->w.ch[i].pid, SIGINT);
	end = pump(R, cp_proc_now_ns() + LOOPER_STOP_NS, loopers_done, NULL, diag);
	if (end == PUMP_STOPPED) {
		rc = cp_diag_set(diag, -CP_EBUSY, "interrupted by signal %d",
				 cp_real_interrupted());
		goto out;
	}
	if (end == PUMP_TIMEOUT)
		fail(R, "the readers did not stop within 60 s of SIGINT");
	R->sampling = false;
	cp_sampler_sample(&R->smp, cp_proc_now_ns(), R->r, NULL);
	R->r->duration_ns = cp_proc_now_ns() - t0;
	rc = cp_sampler_end(&R->smp, R->r, diag);
	if (!rc && R->w.sbt.created)
		rc = record_sb_frees(R, diag);
	if (rc)
		goto out;
	for (i = 0; i < R->w.nr_ch; i++) {
		struct child *c = &R->w.ch[i];

		bool reader = c->role == ROLE_LOOPER ||
			      (c->role == ROLE_DRIVER && p->driver == CP_REAL_DRIVE_STREAM);

		if (!reader || c->running)
			continue;
		child_drain(c);
		if (c->role == ROLE_LOOPER && !exited_ok(c)) {
			char why[160];

			describe_status(c, why, sizeof(why));
			fail(R, "%s", why);
			continue;
		}
		rc = record_looper(R, c);
		if (rc) {
			rc = cp_diag_set(diag, rc, "out of memory");
			goto out;
		}
		readers_cpu_ns += c->cpu_ns;
	}
	/* the readers' (and walkers') own CPU time, from wait4(): how much
	 * of the CPUs they took beside fs_mark */
	rc = cp_run_result_set_counter(R->r, "readers_cpu_ns", (int64_t)readers_cpu_ns);
	if (rc)
		rc = cp_diag_set(diag, rc, "out of memory");
out:
	R->sampling = false;
	cp_sampler_release(&R->smp);
	return rc;
}

/* ---- one repetition ------------------------------------------------- */

int cp_real_run(struct cp_real_session *s, const struct cp_real_plan *p, unsigned rep,
		struct cp_run_result *r, struct cp_diag *diag)
{
	struct run R;
	struct cp_diag td;
	int rc, trc;

	memset(&R, 0, sizeof(R));
	R.s = s;
	R.p = p;
	R.r = r;
	if (cp_run_result_set_str(&r->source, "real") ||
	    cp_run_result_set_str(&r->policy, s->kernel) ||
	    cp_run_result_set_str(&r->kernel, s->kernel) ||
	    cp_run_result_set_str(&r->scenario, p->scenario) ||
	    cp_run_result_set_str(&r->confine, cp_confine_name(s->opts.confine)))
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	r->mem_bytes = s->opts.mem_bytes;

	rc = world_build(&R, rep, diag);
	if (!rc && cp_real_interrupted())
		rc = -CP_EBUSY;
	if (!rc)
		rc = setup_phase(&R, diag);
	if (!rc && cp_real_interrupted())
		rc = -CP_EBUSY;
	if (!rc)
		rc = measure_phase(&R, diag);
	if (rc == -CP_EBUSY && cp_real_interrupted())
		cp_diag_set(diag, rc, "interrupted by signal %d; cleaned up", cp_real_interrupted());
	progress(&R, "cleaning up");
	trc = world_teardown(&R, &td);
	if (trc && !rc) {
		rc = trc;
		cp_diag_set(diag, trc, "%s", td.msg);
	} else if (trc) {
		progress(&R, "%s", td.msg);
	}
	if (!rc && R.failure[0]) {
		r->failed = 1;
		if (cp_run_result_set_str(&r->failure, R.failure))
			return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	}
	return rc;
}
