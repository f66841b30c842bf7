/*
 * lab.c - `cachepressure real --kernel BZIMAGE`: each repetition in a
 * fresh qemu guest (see lab.h).
 *
 * The host side never needs root: the disk is a sparse file formatted by
 * mkfs.xfs as a file, the guest gets it as a virtio disk with
 * cache=none (O_DIRECT on the host, so its pages stay out of the host's
 * page cache, as the loop device's direct I/O does for `real`), and
 * everything runs as the calling user. The guest runs the same harness
 * (run.c) in its guest mode (guest.h) and reports over ttyS1.
 */
#include "lab.h"

#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "cp_guest_init.h" /* cp_guest_init_sh[]: harness/guest/init.sh, embedded by CMake */
#include "initramfs.h"
#include "proc.h"
#include "qemu.h"
#include "report/json.h"
#include "scenario/scenario.h"
#include "sig.h"

#define MIB (1024ULL * 1024ULL)
#define SEC_NS 1000000000ULL
#define PROBE_TIMEOUT_NS (20 * SEC_NS)
#define LDD_OUT_MAX 16384
#define RESULT_MAX (64ULL * MIB)

static void say(struct cp_lab_session *s, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void say(struct cp_lab_session *s, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	if (!s->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->progress(s->progress_arg, msg);
}

/* <dir>/cachepressure-<name>: every file the lab makes in the work
 * directory carries the prefix (the work-directory rule of `real`). */
static void wd_file(char *out, size_t len, const char *dir, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static void wd_file(char *out, size_t len, const char *dir, const char *fmt, ...)
{
	char name[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	n = (int)strlen(dir);
	if ((size_t)n + strlen(CP_FSIMAGE_PREFIX) + strlen(name) + 2 > len) {
		out[0] = '\0'; /* cannot happen: cp_workdir_prepare() limits dir */
		return;
	}
	memcpy(out, dir, (size_t)n);
	out[n] = '/';
	strcpy(out + n + 1, CP_FSIMAGE_PREFIX);
	strcat(out, name);
}

uint64_t cp_lab_default_timeout_ns(const struct cp_real_plan *p)
{
	return 120 * SEC_NS + p->mem_bytes * 600 / (1024 * MIB) * SEC_NS + p->time_limit_ns;
}

int cp_lab_kvm_openable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* ---- tools ---------------------------------------------------------- */

static int find_tools(const struct cp_real_opts *o, struct cp_lab_tools *t, struct cp_diag *diag)
{
	static const struct {
		const char *name, *package;
		size_t off;
	} sys[] = {
		{ "qemu-system-x86_64", "qemu-system-x86", offsetof(struct cp_lab_tools, qemu) },
		{ "cpio", "cpio", offsetof(struct cp_lab_tools, cpio) },
		{ "busybox", "busybox-static", offsetof(struct cp_lab_tools, busybox) },
		{ "ldd", "libc-bin", offsetof(struct cp_lab_tools, ldd) },
		{ "fs_mark", "fsmark", offsetof(struct cp_lab_tools, fs_mark) },
	};
	static const struct {
		const char *name;
		size_t off;
	} own[] = {
		{ "cp-read-file", offsetof(struct cp_lab_tools, read_file) },
		{ "cp-read-dir", offsetof(struct cp_lab_tools, read_dir) },
		{ "cp-balloon", offsetof(struct cp_lab_tools, balloon) },
	};
	const char *mkfs = o->fs == CP_FS_EXT4 ? "mkfs.ext4" : "mkfs.xfs";
	ssize_t n;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (cp_proc_find_tool(mkfs, t->mkfs, sizeof(t->mkfs)))
		return cp_diag_set(diag, -CP_ENOENT, "%s not found (Debian package %s)", mkfs,
				   o->fs == CP_FS_EXT4 ? "e2fsprogs" : "xfsprogs");
	for (i = 0; i < sizeof(sys) / sizeof(sys[0]); i++)
		if (cp_proc_find_tool(sys[i].name, (char *)t + sys[i].off, CP_REAL_TOOL_MAX))
			return cp_diag_set(diag, -CP_ENOENT, "%s not found (Debian package %s)",
					   sys[i].name, sys[i].package);
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (cp_proc_find_program(own[i].name, (char *)t + own[i].off, CP_REAL_TOOL_MAX))
			return cp_diag_set(diag, -CP_ENOENT,
					   "%s not found next to the cachepressure program "
					   "(build it: make build)",
					   own[i].name);
	n = readlink("/proc/self/exe", t->self, sizeof(t->self) - 1);
	if (n <= 0)
		return cp_diag_set(diag, -CP_ENOENT, "cannot find the cachepressure program");
	t->self[n] = '\0';
	return 0;
}

/* ---- initramfs ------------------------------------------------------ */

/* What ldd prints for prog, or NULL for a static program (ldd fails). */
static char *ldd_of(const struct cp_lab_tools *t, const char *prog)
{
	char *argv[] = { "ldd", (char *)prog, NULL };
	struct cp_spawn_opts so;
	char *out = cp_malloc(LDD_OUT_MAX);

	if (!out)
		return NULL;
	cp_spawn_opts_init(&so);
	if (cp_proc_run(t->ldd, argv, &so, 60 * SEC_NS, out, LDD_OUT_MAX, NULL)) {
		cp_free(out);
		return NULL;
	}
	return out;
}

static int build_base_initrd(struct cp_lab_session *s, struct cp_diag *diag)
{
	const struct cp_lab_tools *t = &s->tools;
	struct cp_ir_inputs in;
	struct cp_ir_manifest m = { NULL, 0, 0 };
	char *ldds[CP_IR_MAX_BINARIES + 1] = { NULL };
	bool reused = false;
	size_t i;
	int rc;

	memset(&in, 0, sizeof(in));
	in.busybox = t->busybox;
	in.busybox_ldd = ldds[0] = ldd_of(t, t->busybox);
	in.bins[0] = (struct cp_ir_binary){ t->self, "/bin/cachepressure", NULL };
	in.bins[1] = (struct cp_ir_binary){ t->read_file, "/bin/cp-read-file", NULL };
	in.bins[2] = (struct cp_ir_binary){ t->read_dir, "/bin/cp-read-dir", NULL };
	in.bins[3] = (struct cp_ir_binary){ t->balloon, "/bin/cp-balloon", NULL };
	in.bins[4] = (struct cp_ir_binary){ t->fs_mark, "/usr/bin/fs_mark", NULL };
	in.nr_bins = 5;
	for (i = 0; i < in.nr_bins; i++)
		in.bins[i].ldd_out = ldds[i + 1] = ldd_of(t, in.bins[i].src);
	in.init_text = (const char *)cp_guest_init_sh;
	in.init_len = sizeof(cp_guest_init_sh);
	rc = cp_ir_manifest_build(&in, &m, diag);
	if (!rc)
		rc = cp_ir_build(&m, s->wd.path, t->cpio, s->base_initrd, sizeof(s->base_initrd),
				 &reused, diag);
	if (!rc)
		say(s, "initramfs %s (%zu entries%s)", s->base_initrd, m.n,
		    reused ? ", reused: same content" : ", built");
	cp_ir_manifest_release(&m);
	for (i = 0; i <= in.nr_bins; i++)
		cp_free(ldds[i]);
	return rc;
}

static bool is_path(const char *arg)
{
	size_t n = strlen(arg);

	return strchr(arg, '/') != NULL || (n >= 4 && strcmp(arg + n - 4, ".ini") == 0);
}

/* Appends one argument line to buf; arguments with a newline are refused. */
static int add_arg(char *buf, size_t len, size_t *used, const char *a, struct cp_diag *diag)
{
	int n;

	if (strchr(a, '\n'))
		return cp_diag_set(diag, -CP_EINVAL, "argument '%s' holds a newline", a);
	n = snprintf(buf + *used, len - *used, "%s\n", a);
	if (n < 0 || (size_t)n >= len - *used)
		return cp_diag_set(diag, -CP_EINVAL, "the guest's arguments are too long");
	*used += (size_t)n;
	return 0;
}

/* Concatenates the files parts[0..n) into out (created, O_EXCL). */
static int concat_files(const char *out_path, const char *const *parts, size_t n,
			bool *created, struct cp_diag *diag)
{
	static char buf[1 << 16];
	int out = open(out_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600), rc = 0;
	size_t i;

	if (out < 0)
		return cp_diag_set(diag, -CP_ESYS, "%s: %s", out_path, strerror(errno));
	*created = true;
	for (i = 0; !rc && i < n; i++) {
		int in = open(parts[i], O_RDONLY | O_CLOEXEC);
		ssize_t r;

		if (in < 0) {
			rc = cp_diag_set(diag, -CP_ESYS, "%s: %s", parts[i], strerror(errno));
			break;
		}
		while ((r = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)r) != r) {
				r = -1;
				break;
			}
		if (r < 0)
			rc = cp_diag_set(diag, -CP_ESYS, "writing %s: %s", out_path, strerror(errno));
		close(in);
	}
	if (close(out) && !rc)
		rc = cp_diag_set(diag, -CP_ESYS, "writing %s: %s", out_path, strerror(errno));
	return rc;
}

/* The job's arguments (/cachepressure/args, one per line), the name of
 * its result file (/cachepressure/result) and its files, as a second
 * archive appended to the base one (the kernel unpacks both). */
static int build_session_initrd(struct cp_lab_session *s, const struct cp_lab_job *job,
				struct cp_diag *diag)
{
	struct cp_ir_manifest m = { NULL, 0, 0 };
	char args[8192], result[CP_IR_PATH_MAX + 2], extra[CP_FSIMAGE_PATH_MAX];
	size_t used = 0, i;
	int rc = 0, n;

	for (i = 0; !rc && i < job->nr_args; i++)
		rc = add_arg(args, sizeof(args), &used, job->args[i], diag);
	if (rc)
		return rc;
	if (!job->result_path || job->result_path[0] != '/' || strchr(job->result_path, '\n'))
		return cp_diag_set(diag, -CP_EINVAL, "the guest's result file must be an absolute path");
	n = snprintf(result, sizeof(result), "%s\n", job->result_path);
	if (n < 0 || (size_t)n >= sizeof(result))
		return cp_diag_set(diag, -CP_EINVAL, "the guest's result file name is too long");
	rc = cp_ir_manifest_add(&m, CP_IR_DATA, "/cachepressure/args", NULL, 0644, args, used, diag);
	if (!rc)
		rc = cp_ir_manifest_add(&m, CP_IR_DATA, "/cachepressure/result", NULL, 0644, result,
					(size_t)n, diag);
	for (i = 0; !rc && i < job->nr_files; i++)
		rc = cp_ir_manifest_add(&m, CP_IR_FILE, job->files[i].dest, job->files[i].src, 0644,
					NULL, 0, diag);
	wd_file(extra, sizeof(extra), s->wd.path, "%d.args.cpio", (int)getpid());
	if (!rc)
		rc = cp_ir_write(&m, s->wd.path, s->tools.cpio, extra, diag);
	cp_ir_manifest_release(&m);
	if (rc)
		return rc;

	/* initrd = base archive + argument archive */
	wd_file(s->initrd, sizeof(s->initrd), s->wd.path, "%d.initrd", (int)getpid());
	{
		const char *parts[2] = { s->base_initrd, extra };

		rc = concat_files(s->initrd, parts, 2, &s->initrd_created, diag);
	}
	unlink(extra);
	return rc;
}

/* ---- session -------------------------------------------------------- */

int cp_lab_session_open_job(struct cp_lab_session *s, const struct cp_real_opts *ro,
			    const struct cp_lab_job *job, struct cp_diag *diag)
{
	cp_real_progress_fn progress = s->progress;
	void *progress_arg = s->progress_arg;
	int rc, fd;

	memset(s, 0, sizeof(*s));
	s->progress = progress; /* the caller may set these before opening */
	s->progress_arg = progress_arg;
	s->opts = *ro;
	if (ro->lab.kernel) {
		fd = open(ro->lab.kernel, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return cp_diag_set(diag, -CP_EINVAL, "--kernel %s: %s", ro->lab.kernel,
					   strerror(errno));
		close(fd);
	}
	s->vm_mem_bytes = ro->lab.vm_mem_bytes;
	if (!s->opts.lab.vm_cpus)
		s->opts.lab.vm_cpus = CP_LAB_DEFAULT_VM_CPUS;
	s->timeout_ns = ro->lab.timeout_ns;
	if (!s->vm_mem_bytes || !s->timeout_ns)
		return cp_diag_set(diag, -CP_EINVAL, "lab session: no guest memory or timeout");
	rc = find_tools(ro, &s->tools, diag);
	if (rc)
		return rc;
	rc = cp_real_workdir_open(ro->workdir, job->disk_bytes, &s->wd, diag);
	if (rc)
		return rc;
	rc = build_base_initrd(s, diag);
	if (!rc)
		rc = build_session_initrd(s, job, diag);
	if (rc) {
		cp_lab_session_close(s);
		return rc;
	}
	if (ro->lab.accel != CP_LAB_ACCEL_AUTO) {
		s->accel = ro->lab.accel;
		s->accel_known = true;
		snprintf(s->accel_why, sizeof(s->accel_why), "%s (--accel)",
			 s->accel == CP_LAB_ACCEL_KVM ? "KVM" : "TCG");
	}
	return 0;
}

#define REAL_MAX_ARGS (10 + 2 * CP_REAL_MAX_SETS)

int cp_lab_session_open(struct cp_lab_session *s, const struct cp_real_opts *ro,
			const struct cp_real_plan *p, struct cp_diag *diag)
{
	struct cp_real_opts o = *ro;
	struct cp_lab_job job;
	const char *args[REAL_MAX_ARGS];
	char dest[CP_IR_PATH_MAX], guest_name[CP_IR_PATH_MAX], mem[32];
	char *host_path = NULL;
	const char *base;
	size_t n = 0, i;
	int rc;

	if (!o.lab.vm_mem_bytes)
		o.lab.vm_mem_bytes = ro->mem_bytes + CP_LAB_VM_EXTRA_BYTES;
	if (o.lab.vm_mem_bytes < ro->mem_bytes + CP_LAB_VM_MIN_EXTRA_BYTES)
		return cp_diag_set(diag, -CP_EINVAL,
				   "--vm-mem %" PRIu64 " MiB is too small for --mem %" PRIu64
				   " MiB: needs at least --mem + %llu MiB",
				   o.lab.vm_mem_bytes >> 20, ro->mem_bytes >> 20,
				   (unsigned long long)(CP_LAB_VM_MIN_EXTRA_BYTES >> 20));
	if (!o.lab.timeout_ns)
		o.lab.timeout_ns = cp_lab_default_timeout_ns(p);

	if (is_path(ro->scenario)) {
		base = strrchr(ro->scenario, '/');
		base = base ? base + 1 : ro->scenario;
		if (access(ro->scenario, R_OK))
			return cp_diag_set(diag, -CP_EINVAL, "scenario file %s: %s", ro->scenario,
					   strerror(errno));
		snprintf(dest, sizeof(dest), "/cachepressure/scenarios/%s", base);
		snprintf(guest_name, sizeof(guest_name), "%s", dest);
		host_path = cp_strdup(ro->scenario);
	} else {
		const char *dir = ro->lab.scenarios_dir;

		if (!dir)
			dir = getenv("CACHEPRESSURE_SCENARIOS_DIR");
		rc = cp_scenario_find_builtin(ro->scenario, dir && *dir ? dir : "scenarios",
					      &host_path, diag);
		if (rc)
			return rc;
		snprintf(dest, sizeof(dest), "/cachepressure/scenarios/%s.ini", ro->scenario);
		snprintf(guest_name, sizeof(guest_name), "%s", ro->scenario);
	}
	if (!host_path)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	if (ro->mem_arg)
		snprintf(mem, sizeof(mem), "%s", ro->mem_arg);
	else
		snprintf(mem, sizeof(mem), "%" PRIu64, ro->mem_bytes);
	args[n++] = "real";
	args[n++] = guest_name;
	args[n++] = "--mem";
	args[n++] = mem;
	args[n++] = "--confine";
	args[n++] = cp_confine_name(ro->confine);
	args[n++] = "--fs";
	args[n++] = cp_fs_name(ro->fs);
	for (i = 0; i < ro->nr_sets; i++) { /* at most CP_REAL_MAX_SETS: fits */
		args[n++] = "--set";
		args[n++] = ro->sets[i];
	}
	args[n++] = "--json";
	args[n++] = "/tmp/result.json";
	memset(&job, 0, sizeof(job));
	job.args = args;
	job.nr_args = n;
	job.result_path = "/tmp/result.json";
	job.files[0] = (struct cp_lab_file){ dest, host_path };
	job.nr_files = 1;
	job.disk_bytes = cp_real_plan_disk_bytes(p);
	rc = cp_lab_session_open_job(s, &o, &job, diag);
	cp_free(host_path);
	return rc;
}

void cp_lab_session_close(struct cp_lab_session *s)
{
	if (s->initrd_created) {
		unlink(s->initrd);
		s->initrd_created = false;
	}
	cp_workdir_release(&s->wd);
}

/* ---- one guest ------------------------------------------------------- */

struct guest {
	char console[CP_FSIMAGE_PATH_MAX];
	char result[CP_FSIMAGE_PATH_MAX];
	char qemu_log[CP_FSIMAGE_PATH_MAX];
	off_t console_off;      /* forwarded up to here */
	char partial[512];      /* an incomplete console line */
	size_t partial_len;
	int status;
	bool exited, timed_out;
	uint64_t ns;            /* boot to exit */
};

/* Reads a whole small file (cp_malloc'ed, NUL-terminated) or NULL. */
static char *slurp(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0, cap = 65536;
	char *buf;
	ssize_t n;

	*len = 0;
	if (fd < 0)
		return NULL;
	buf = cp_malloc(cap + 1);
	while (buf && (n = read(fd, buf + used, cap - used)) > 0) {
		used += (size_t)n;
		if (used == cap && cap < max) {
			char *nb = cp_realloc(buf, cap * 2 + 1);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		} else if (used == cap) {
			break;
		}
	}
	close(fd);
	if (buf) {
		buf[used] = '\0';
		*len = used;
	}
	return buf;
}

/* Forwards the guest harness's progress lines ("cachepressure real:
 * [...]", "cachepressure calibrate: ...") from the console file as they
 * appear. */
static void forward_console(struct cp_lab_session *s, struct guest *g)
{
	char buf[4096];
	ssize_t n;
	int fd = open(g->console, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while ((n = pread(fd, buf, sizeof(buf), g->console_off)) > 0) {
		ssize_t i;

		g->console_off += n;
		for (i = 0; i < n; i++) {
			char c = buf[i];

			if (c == '\n') {
				static const char *const from[] = { "cachepressure real: [",
								    "cachepressure calibrate: " };
				size_t k;

				g->partial[g->partial_len] = '\0';
				for (k = 0; k < sizeof(from) / sizeof(from[0]); k++) {
					const char *at = strstr(g->partial, from[k]);

					if (at) {
						say(s, "guest: %s", at + strcspn(at, ":") + 2);
						break;
					}
				}
				g->partial_len = 0;
			} else if (c != '\r' && g->partial_len + 1 < sizeof(g->partial)) {
				g->partial[g->partial_len++] = c;
			}
		}
	}
	close(fd);
}

/* Boots one guest and waits for qemu to exit, the timeout, or a stop
 * signal. Returns 0 (g->exited or g->timed_out set), -CP_EBUSY at a stop
 * signal (qemu killed), or the spawn error. */
static int boot(struct cp_lab_session *s, const struct cp_qemu_config *qc, uint64_t timeout_ns,
		struct guest *g, struct cp_diag *diag)
{
	struct cp_qemu_argv qa;
	struct cp_spawn_opts so;
	uint64_t t0, deadline;
	pid_t pid;
	int rc, logfd;

	rc = cp_qemu_argv_build(qc, &qa, diag);
	if (rc)
		return rc;
	logfd = open(g->qemu_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (logfd < 0)
		return cp_diag_set(diag, -CP_ESYS, "%s: %s", g->qemu_log, strerror(errno));
	cp_spawn_opts_init(&so);
	so.stdout_fd = logfd;
	so.stderr_fd = logfd;
	t0 = cp_proc_now_ns();
	rc = cp_proc_spawn(qc->qemu, qa.argv, &so, &pid, diag);
	close(logfd);
	if (rc)
		return rc;
	deadline = t0 + timeout_ns;
	for (;;) {
		int w = cp_proc_wait(pid, SEC_NS / 5, 1, &g->status);

		forward_console(s, g);
		if (w == 1) {
			g->exited = true;
			break;
		}
		if (w < 0) {
			cp_proc_stop(pid, SIGTERM, 3 * SEC_NS, &g->status);
			return cp_diag_set(diag, -CP_ESYS, "waiting for qemu %d failed; killed it",
					   (int)pid);
		}
		if (cp_real_interrupted()) {
			cp_proc_stop(pid, SIGTERM, 3 * SEC_NS, &g->status);
			return cp_diag_set(diag, -CP_EBUSY, "interrupted by signal %d; qemu %d killed",
					   cp_real_interrupted(), (int)pid);
		}
		if (cp_proc_now_ns() >= deadline) {
			cp_proc_stop(pid, SIGTERM, 3 * SEC_NS, &g->status);
			g->timed_out = true;
			break;
		}
	}
	g->ns = cp_proc_now_ns() - t0;
	return 0;
}

static void guest_files(struct cp_lab_session *s, unsigned n, struct guest *g)
{
	memset(g, 0, sizeof(*g));
	wd_file(g->console, sizeof(g->console), s->wd.path, "%d-%u.console", (int)getpid(), n);
	wd_file(g->result, sizeof(g->result), s->wd.path, "%d-%u.result", (int)getpid(), n);
	wd_file(g->qemu_log, sizeof(g->qemu_log), s->wd.path, "%d-%u.qemu", (int)getpid(), n);
}

static void guest_files_remove(struct guest *g, bool keep_console)
{
	if (!keep_console)
		unlink(g->console);
	unlink(g->result);
	unlink(g->qemu_log);
}

/* The last line of a file holding needle (or its last non-empty line). */
static void last_line_of(const char *path, const char *needle, char *out, size_t len)
{
	size_t n;
	char *text = slurp(path, 16 * MIB, &n), *line, *save = NULL, *best = NULL;

	out[0] = '\0';
	if (!text)
		return;
	for (line = strtok_r(text, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save))
		if (*line && (!needle || strstr(line, needle)))
			best = line;
	if (best)
		snprintf(out, len, "%s", best);
	cp_free(text);
}

/* Decides KVM or TCG once: KVM only when /dev/kvm opens read-write and a
 * probe guest boots under it (it can open and still fail: nested
 * virtualisation without the MSRs qemu wants, a hang). */
static int decide_accel(struct cp_lab_session *s, const char *bzimage, struct cp_diag *diag)
{
	struct cp_qemu_config qc;
	struct guest g;
	size_t n = 0;
	char *text;
	int rc;

	if (s->accel_known)
		return 0;
	if (!cp_lab_kvm_openable()) {
		s->accel = CP_LAB_ACCEL_TCG;
		s->accel_known = true;
		snprintf(s->accel_why, sizeof(s->accel_why),
			 "TCG (software emulation): /dev/kvm does not open read-write");
		return 0;
	}
	guest_files(s, 0, &g);
	memset(&qc, 0, sizeof(qc));
	qc.qemu = s->tools.qemu;
	qc.kernel = bzimage;
	qc.initrd = s->initrd;
	qc.console_path = g.console;
	qc.result_path = g.result;
	qc.mem_bytes = 256 * MIB;
	qc.cpus = 1;
	qc.accel = CP_LAB_ACCEL_KVM;
	qc.append_extra = "cachepressure.probe=1";
	say(s, "probing KVM with a short guest");
	rc = boot(s, &qc, PROBE_TIMEOUT_NS, &g, diag);
	if (rc) {
		guest_files_remove(&g, false);
		return rc;
	}
	text = slurp(g.result, MIB, &n);
	s->accel_known = true;
	if (g.exited && text && strstr(text, CP_LAB_PROBE_OK)) {
		s->accel = CP_LAB_ACCEL_KVM;
		snprintf(s->accel_why, sizeof(s->accel_why), "KVM (a probe guest booted in %.1f s)",
			 (double)g.ns / 1e9);
	} else {
		char why[120];

		last_line_of(g.qemu_log, "error", why, sizeof(why));
		if (!why[0])
			last_line_of(g.qemu_log, NULL, why, sizeof(why));
		s->accel = CP_LAB_ACCEL_TCG;
		snprintf(s->accel_why, sizeof(s->accel_why),
			 "TCG (software emulation): /dev/kvm opens but a KVM guest %s%s%s",
			 g.timed_out ? "did not finish booting in 20 s" : "failed",
			 why[0] ? ": " : "", why);
	}
	cp_free(text);
	guest_files_remove(&g, false);
	return 0;
}

static int fail_run(struct cp_run_result *r, struct cp_diag *diag, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static int fail_run(struct cp_run_result *r, struct cp_diag *diag, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->failed = 1;
	if (cp_run_result_set_str(&r->failure, msg))
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	return 0;
}

/* Moves the guest's one run into r, keeping r's policy (the bzImage). */
static int take_result(struct cp_run_result *r, const char *json, size_t len, const char *bzimage,
		       struct cp_diag *diag)
{
	struct cp_run_result *runs = NULL;
	struct cp_diag d = { "" };
	size_t n = 0;
	char *text = cp_malloc(len + 1);
	int rc;

	if (!text)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	memcpy(text, json, len);
	text[len] = '\0';
	rc = cp_report_json_parse(text, "the guest's result", &runs, &n, &d);
	cp_free(text);
	if (rc == -CP_ENOMEM)
		return cp_diag_set(diag, rc, "out of memory");
	if (rc)
		return fail_run(r, diag, "the guest's result is not valid JSON: %s", d.msg);
	if (n < 1) {
		cp_report_runs_free(runs, n);
		return fail_run(r, diag, "the guest reported no run");
	}
	cp_run_result_release(r);
	*r = runs[0];
	cp_run_result_init(&runs[0]);
	cp_report_runs_free(runs, n);
	if (cp_run_result_set_str(&r->policy, bzimage))
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	return 0;
}

/* The reason a boot gave no payload (paths may make it long: cut). */
static void set_why(struct cp_lab_boot *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void set_why(struct cp_lab_boot *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->why, sizeof(b->why), fmt, ap);
	va_end(ap);
}

int cp_lab_boot_guest(struct cp_lab_session *s, const char *bzimage, struct cp_lab_boot *b,
		      struct cp_diag *diag)
{
	const struct cp_real_opts *o = &s->opts;
	struct cp_qemu_config qc;
	struct cp_image img;
	struct cp_spawn_opts so;
	struct guest g;
	struct cp_diag d;
	char name[96], num[32], *argv[10];
	int rc, e;

	b->text = NULL;
	b->text_len = 0;
	memset(&b->out, 0, sizeof(b->out));
	b->out.status = CP_LAB_OUTPUT_NONE;
	b->out.guest_exit = -1;
	b->timed_out = false;
	b->guest_ns = 0;
	b->why[0] = b->console[0] = b->result[0] = b->qemu_log[0] = '\0';
	memset(&img, 0, sizeof(img));
	if (access(bzimage, R_OK))
		return cp_diag_set(diag, -CP_EINVAL, "kernel %s: %s", bzimage, strerror(errno));
	rc = decide_accel(s, bzimage, diag);
	if (rc)
		return rc;
	if (s->nr_boots == 0)
		say(s, "qemu accelerator: %s", s->accel_why);

	s->nr_boots++;
	if (b->image_bytes) {
		snprintf(name, sizeof(name), CP_FSIMAGE_PREFIX "%d-%u.img", (int)getpid(),
			 s->nr_boots);
		rc = cp_image_create(&s->wd, name, b->image_bytes, &img, diag);
		if (rc)
			return rc;
		cp_mkfs_argv(s->tools.mkfs, o->fs, img.path, b->nr_inodes, num, sizeof(num), argv);
		cp_spawn_opts_init(&so);
		rc = cp_proc_run(s->tools.mkfs, argv, &so, 600 * SEC_NS, NULL, 0, diag);
		if (rc)
			goto out;
		say(s, "image %s (%" PRIu64 " GiB sparse, %s made on the file)", img.path,
		    b->image_bytes >> 30, cp_fs_name(o->fs));
	}

	guest_files(s, s->nr_boots, &g);
	snprintf(b->console, sizeof(b->console), "%s", g.console);
	snprintf(b->result, sizeof(b->result), "%s", g.result);
	snprintf(b->qemu_log, sizeof(b->qemu_log), "%s", g.qemu_log);
	memset(&qc, 0, sizeof(qc));
	qc.qemu = s->tools.qemu;
	qc.kernel = bzimage;
	qc.initrd = s->initrd;
	qc.disk = b->image_bytes ? img.path : NULL;
	qc.console_path = g.console;
	qc.result_path = g.result;
	qc.mem_bytes = s->vm_mem_bytes;
	qc.cpus = o->lab.vm_cpus;
	qc.accel = s->accel;
	qc.append_extra = b->append;
	say(s, "booting %s: %s, %" PRIu64 " MiB, %u CPU(s), timeout %" PRIu64 " s", bzimage,
	    s->accel == CP_LAB_ACCEL_KVM ? "KVM" : "TCG", s->vm_mem_bytes >> 20, qc.cpus,
	    (uint64_t)(s->timeout_ns / SEC_NS));
	rc = boot(s, &qc, s->timeout_ns, &g, diag);
	if (rc) {
		guest_files_remove(&g, false);
		goto out;
	}
	b->guest_ns = g.ns;
	b->timed_out = g.timed_out;
	b->text = slurp(g.result, RESULT_MAX, &b->text_len);
	cp_lab_output_parse(b->text ? b->text : "", b->text_len, &b->out);
	if (b->out.status != CP_LAB_OUTPUT_OK) {
		char why[300];

		last_line_of(g.console, NULL, why, sizeof(why));
		if (!why[0]) /* qemu refused to start, or the kernel printed nothing */
			last_line_of(g.qemu_log, NULL, why, sizeof(why));
		if (g.timed_out)
			set_why(b, "the guest did not finish within %" PRIu64
				 " s (--timeout); qemu killed; console %s ends: %s",
				 (uint64_t)(s->timeout_ns / SEC_NS), g.console, why);
		else if (b->out.status == CP_LAB_OUTPUT_TRUNCATED)
			set_why(b, "the guest's result was cut off (no end marker); console %s ends: %s",
				 g.console, why);
		else
			set_why(b, "the guest ended without a result (%s); console %s ends: %s",
				 WIFEXITED(g.status) ? "qemu exited" : "qemu killed", g.console, why);
	}
out:
	if (o->keep && img.created) {
		if (s->nr_kept < CP_REAL_MAX_REPEAT)
			snprintf(s->kept[s->nr_kept++], sizeof(s->kept[0]), "%s", img.path);
		img.created = false;
	} else {
		e = cp_image_remove(&img, &d);
		if (e && !rc)
			rc = cp_diag_set(diag, e, "cleanup: %s", d.msg);
	}
	if (rc && b->console[0]) {
		cp_free(b->text);
		b->text = NULL;
		unlink(b->console);
		unlink(b->result);
		unlink(b->qemu_log);
	}
	return rc;
}

void cp_lab_console_line(const struct cp_lab_boot *b, const char *needle, char *out, size_t len)
{
	last_line_of(b->console, needle, out, len);
}

void cp_lab_boot_release(struct cp_lab_session *s, struct cp_lab_boot *b, bool keep_console)
{
	cp_free(b->text);
	b->text = NULL;
	b->text_len = 0;
	if (!keep_console && b->console[0])
		unlink(b->console);
	if (b->result[0])
		unlink(b->result);
	if (b->qemu_log[0])
		unlink(b->qemu_log);
	if (keep_console && b->console[0])
		say(s, "guest console kept: %s", b->console);
}

int cp_lab_run(struct cp_lab_session *s, const char *bzimage, const struct cp_real_plan *p,
	       unsigned rep, struct cp_run_result *r, struct cp_diag *diag)
{
	const struct cp_real_opts *o = &s->opts;
	struct cp_lab_boot b;
	char append[64];
	bool keep_console = false;
	int rc;

	if (cp_run_result_set_str(&r->source, "real") || cp_run_result_set_str(&r->policy, bzimage) ||
	    cp_run_result_set_str(&r->scenario, p->scenario) ||
	    cp_run_result_set_str(&r->confine, cp_confine_name(o->confine)))
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	r->mem_bytes = o->mem_bytes;
	memset(&b, 0, sizeof(b));
	b.image_bytes = cp_real_plan_image_bytes(p);
	b.nr_inodes = cp_real_plan_nr_files(p) + cp_real_plan_nr_files(p) / 10 + 65536;
	snprintf(append, sizeof(append), "cachepressure.rep=%u", rep + 1);
	b.append = append;
	rc = cp_lab_boot_guest(s, bzimage, &b, diag);
	if (rc)
		return rc;
	rc = cp_run_result_set_counter(r, "lab_guest_ns", (int64_t)b.guest_ns);
	if (!rc)
		rc = cp_run_result_set_counter(r, "lab_kvm", s->accel == CP_LAB_ACCEL_KVM);
	if (rc) {
		rc = cp_diag_set(diag, rc, "out of memory");
		cp_lab_boot_release(s, &b, false);
		return rc;
	}
	if (b.out.status == CP_LAB_OUTPUT_OK) {
		rc = take_result(r, b.out.json, b.out.json_len, bzimage, diag);
		if (!rc && !r->failed && b.out.guest_exit != 0)
			rc = fail_run(r, diag, "the guest's cachepressure exited with status %d",
				      b.out.guest_exit);
		if (!rc && r->failed && r->readers == NULL) {
			char why[300];

			cp_lab_console_line(&b, "cachepressure", why, sizeof(why));
			if (why[0]) {
				char msg[700];

				snprintf(msg, sizeof(msg), "%s; guest: %s",
					 r->failure ? r->failure : "failed", why);
				if (cp_run_result_set_str(&r->failure, msg))
					rc = cp_diag_set(diag, -CP_ENOMEM, "out of memory");
			}
		}
		/* the guest's result replaced r: record the boot again */
		if (!rc && (cp_run_result_set_counter(r, "lab_guest_ns", (int64_t)b.guest_ns) ||
			    cp_run_result_set_counter(r, "lab_kvm", s->accel == CP_LAB_ACCEL_KVM)))
			rc = cp_diag_set(diag, -CP_ENOMEM, "out of memory");
		keep_console = r->failed;
	} else {
		keep_console = true;
		rc = fail_run(r, diag, "%s", b.why);
	}
	cp_lab_boot_release(s, &b, keep_console);
	return rc;
}
