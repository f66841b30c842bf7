/*
 * proc.c - fork/exec of the harness's children; no shell is ever involved.
 *
 * Every child gets its own process group, so a Ctrl-C on the terminal
 * reaches only `cachepressure`, which then stops the children in order
 * (readers get SIGINT and print their totals). PR_SET_PDEATHSIG kills a
 * child if the harness itself is killed outright. A child that must be
 * charged to a memory cgroup writes its own pid into cgroup.procs before
 * exec, so not one page of the workload is charged elsewhere.
 */
#include "proc.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sig.h"

enum child_step { STEP_PGRP = 1, STEP_CGROUP, STEP_CWD, STEP_FDS, STEP_EXEC };

struct child_err {
	int step;
	int err;
};

void cp_spawn_opts_init(struct cp_spawn_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->stdout_fd = -1;
	o->stderr_fd = -1;
	o->stdin_fd = -1;
}

uint64_t cp_proc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void cp_proc_sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

	nanosleep(&ts, NULL);
}

int cp_proc_pipe(int fds[2])
{
	return pipe2(fds, O_CLOEXEC) ? -CP_ESYS : 0;
}

static void child_fail(int errfd, int step)
{
	struct child_err ce = { step, errno };

	if (write(errfd, &ce, sizeof(ce)) < 0) {
		/* nothing more we can do */
	}
	_exit(127);
}

/* Async-signal-safe decimal formatting of a pid. */
static size_t fmt_pid(char *buf, pid_t pid)
{
	char tmp[24];
	size_t n = 0, i;
	unsigned long v = (unsigned long)pid;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n++] = '\n';
	return n;
}

/* Runs in the child between fork and exec: only async-signal-safe calls. */
static void child_setup(const struct cp_spawn_opts *o, pid_t parent, int errfd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };
	struct sigaction sa;
	sigset_t all;
	size_t i;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);

	if (setpgid(0, 0))
		child_fail(errfd, STEP_PGRP);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127); /* the harness is already gone */

	if (o->cgroup_procs) {
		char buf[24];
		size_t n = fmt_pid(buf, getpid());

		fd = open(o->cgroup_procs, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, buf, n) != (ssize_t)n)
			child_fail(errfd, STEP_CGROUP);
		close(fd);
	}
	if (o->cwd && chdir(o->cwd))
		child_fail(errfd, STEP_CWD);

	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0 || dup2(o->stdin_fd >= 0 ? o->stdin_fd : fd, 0) < 0)
		child_fail(errfd, STEP_FDS);
	if (dup2(o->stdout_fd >= 0 ? o->stdout_fd : fd, 1) < 0)
		child_fail(errfd, STEP_FDS);
	if (o->stderr_fd >= 0 && dup2(o->stderr_fd, 2) < 0)
		child_fail(errfd, STEP_FDS);
}

static const char *step_name(int step)
{
	switch (step) {
	case STEP_PGRP: return "setpgid";
	case STEP_CGROUP: return "joining the memory cgroup";
	case STEP_CWD: return "chdir";
	case STEP_FDS: return "redirecting stdin/stdout/stderr";
	case STEP_EXEC: return "exec";
	}
	return "setup";
}

/* Common fork; exec (path != NULL) or run fn. */
static int start(const char *path, char *const argv[], int (*fn)(void *), void *arg,
		 const struct cp_spawn_opts *o, pid_t *out, struct cp_diag *diag)
{
	const char *what = path ? path : "child";
	struct child_err ce;
	pid_t parent = getpid(), pid;
	int errp[2];
	ssize_t n;

	if (pipe2(errp, O_CLOEXEC))
		return cp_diag_set(diag, -CP_ESYS, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(errp[0]);
		close(errp[1]);
		return cp_diag_set(diag, -CP_ESYS, "fork for %s: %s", what, strerror(e));
	}
	if (pid == 0) {
		close(errp[0]);
		child_setup(o, parent, errp[1]);
		if (path) {
			execv(path, argv);
			child_fail(errp[1], STEP_EXEC);
		}
		close(errp[1]);
		_exit(fn(arg) & 0x7f);
	}
	close(errp[1]);
	setpgid(pid, pid); /* also done by the child; whichever runs first */
	do
		n = read(errp[0], &ce, sizeof(ce));
	while (n < 0 && errno == EINTR);
	close(errp[0]);
	if (n == (ssize_t)sizeof(ce)) {
		int st;

		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (ce.step == STEP_EXEC && ce.err == ENOENT)
			return cp_diag_set(diag, -CP_ENOENT, "%s: no such program", what);
		return cp_diag_set(diag, ce.step == STEP_CGROUP ? -CP_EPERM : -CP_ESYS,
				   "%s: %s failed: %s", what, step_name(ce.step), strerror(ce.err));
	}
	*out = pid;
	return 0;
}

int cp_proc_spawn(const char *path, char *const argv[], const struct cp_spawn_opts *o,
		  pid_t *pid, struct cp_diag *diag)
{
	return start(path, argv, NULL, NULL, o, pid, diag);
}

int cp_proc_fork(int (*fn)(void *arg), void *arg, const struct cp_spawn_opts *o, pid_t *pid,
		 struct cp_diag *diag)
{
	return start(NULL, NULL, fn, arg, o, pid, diag);
}

int cp_proc_wait(pid_t pid, uint64_t timeout_ns, int interruptible, int *status)
{
	uint64_t deadline = timeout_ns ? cp_proc_now_ns() + timeout_ns : 0;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return -CP_ESYS;
		if (interruptible && cp_real_interrupted())
			return 0;
		if (deadline && cp_proc_now_ns() >= deadline)
			return 0;
		cp_proc_sleep_ns(20000000); /* 20 ms */
	}
}

int cp_proc_stop(pid_t pid, int sig, uint64_t grace_ns, int *status)
{
	uint64_t deadline;
	int st = 0, r;

	if (pid <= 0)
		return 0;
	kill(-pid, sig);
	r = cp_proc_wait(pid, grace_ns ? grace_ns : 1, 0, &st);
	if (r != 1) {
		kill(-pid, SIGKILL);
		r = cp_proc_wait(pid, 10000000000ULL, 0, &st);
	}
	if (status)
		*status = st;
	/* Members of the group that outlived the leader (fs_mark's workers). */
	deadline = cp_proc_now_ns() + 10000000000ULL;
	kill(-pid, SIGKILL);
	for (;;) {
		while (waitpid(-pid, NULL, WNOHANG) > 0)
			;
		if (kill(-pid, 0) && errno == ESRCH)
			break;
		if (cp_proc_now_ns() >= deadline)
			return -CP_EBUSY;
		cp_proc_sleep_ns(20000000);
	}
	return r == 1 ? 0 : -CP_EBUSY;
}

static void append(char *buf, size_t cap, size_t *len, const char *data, size_t n)
{
	if (!buf || cap == 0)
		return;
	if (*len + 1 >= cap)
		return;
	if (n > cap - 1 - *len)
		n = cap - 1 - *len;
	memcpy(buf + *len, data, n);
	*len += n;
	buf[*len] = '\0';
}

int cp_proc_run(const char *path, char *const argv[], const struct cp_spawn_opts *o,
		uint64_t timeout_ns, char *out, size_t out_len, struct cp_diag *diag)
{
	struct cp_spawn_opts so = *o;
	char err[512] = "", chunk[512];
	size_t out_n = 0, err_n = 0;
	int op[2], ep[2], st = 0, rc, open_fds = 2;
	uint64_t deadline = cp_proc_now_ns() + timeout_ns;
	struct pollfd pfd[2];
	pid_t pid;

	if (out && out_len)
		out[0] = '\0';
	if (cp_proc_pipe(op))
		return cp_diag_set(diag, -CP_ESYS, "pipe: %s", strerror(errno));
	if (cp_proc_pipe(ep)) {
		close(op[0]);
		close(op[1]);
		return cp_diag_set(diag, -CP_ESYS, "pipe: %s", strerror(errno));
	}
	so.stdout_fd = op[1];
	so.stderr_fd = ep[1];
	rc = cp_proc_spawn(path, argv, &so, &pid, diag);
	close(op[1]);
	close(ep[1]);
	if (rc) {
		close(op[0]);
		close(ep[0]);
		return rc;
	}
	pfd[0].fd = op[0];
	pfd[1].fd = ep[0];
	pfd[0].events = pfd[1].events = POLLIN;
	while (open_fds > 0) {
		uint64_t now = cp_proc_now_ns();
		int i;

		if (now >= deadline)
			break;
		if (poll(pfd, 2, (int)((deadline - now) / 1000000ULL) + 1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(pfd[i].fd, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
				open_fds--;
				continue;
			}
			if (i == 0)
				append(out, out_len, &out_n, chunk, (size_t)n);
			else
				append(err, sizeof(err), &err_n, chunk, (size_t)n);
		}
	}
	if (pfd[0].fd >= 0)
		close(pfd[0].fd);
	if (pfd[1].fd >= 0)
		close(pfd[1].fd);
	if (open_fds > 0) {
		cp_proc_stop(pid, SIGKILL, 1, NULL);
		return cp_diag_set(diag, -CP_ESYS, "%s: timed out", path);
	}
	rc = cp_proc_wait(pid, deadline > cp_proc_now_ns() ? deadline - cp_proc_now_ns() : 1, 0,
			  &st);
	if (rc != 1) {
		cp_proc_stop(pid, SIGKILL, 1, NULL);
		return cp_diag_set(diag, -CP_ESYS, "%s: timed out", path);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		while (err_n > 0 && (err[err_n - 1] == '\n' || err[err_n - 1] == ' '))
			err[--err_n] = '\0';
		if (WIFEXITED(st))
			return cp_diag_set(diag, -CP_ESYS, "%s exited with %d: %s", path,
					   WEXITSTATUS(st), err_n ? err : "(no message)");
		return cp_diag_set(diag, -CP_ESYS, "%s killed by signal %d", path, WTERMSIG(st));
	}
	return 0;
}

static int executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int cp_proc_find_tool(const char *name, char *out, size_t len)
{
	static const char *const dirs[] = { "/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
					    "/usr/bin",	       "/sbin",		 "/bin" };
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		if (executable(path) && strlen(path) < len) {
			strcpy(out, path);
			return 0;
		}
	}
	return -CP_ENOENT;
}

int cp_proc_find_program(const char *name, char *out, size_t len)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -CP_ENOENT;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -CP_ENOENT;
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/%s", exe, name);
	if (!executable(path)) {
		snprintf(path, sizeof(path), "%s/../libexec/cachepressure/%s", exe, name);
		if (!executable(path))
			return -CP_ENOENT;
	}
	if (strlen(path) >= len)
		return -CP_ENOENT;
	strcpy(out, path);
	return 0;
}
