/*
 * proc.h - child processes of the real harness: fork/exec with argv arrays
 * only (never a shell string), each child in its own process group and
 * killed if the harness dies, optionally placed in a memory cgroup before
 * it runs a single instruction of the workload.
 */
#ifndef CP_PROC_H
#define CP_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cp_diag;

struct cp_spawn_opts {
	const char *cgroup_procs; /* cgroup.procs file the child joins first, or NULL */
	const char *cwd;          /* working directory of the child, or NULL */
	int stdout_fd;            /* becomes fd 1; -1 = /dev/null */
	int stderr_fd;            /* becomes fd 2; -1 = the caller's stderr */
	int stdin_fd;             /* becomes fd 0; -1 = /dev/null */
};

/* Defaults: no cgroup, no cwd, stdin and stdout on /dev/null, stderr inherited. */
void cp_spawn_opts_init(struct cp_spawn_opts *o);

/* Starts path with argv (argv[0] is what `ps` shows) in a new process
 * group whose id is the child's pid, stdin on /dev/null, with
 * PR_SET_PDEATHSIG=SIGKILL. Returns 0 with *pid set once the exec has
 * succeeded; -CP_ENOENT (no such program), -CP_EPERM (cannot join the
 * cgroup) or -CP_ESYS otherwise, with no child left behind. */
int cp_proc_spawn(const char *path, char *const argv[], const struct cp_spawn_opts *o,
		  pid_t *pid, struct cp_diag *diag);

/* As cp_proc_spawn(), but the child runs fn(arg) instead of exec and
 * exits with its return value (0 ok, 1..125 failure). */
int cp_proc_fork(int (*fn)(void *arg), void *arg, const struct cp_spawn_opts *o, pid_t *pid,
		 struct cp_diag *diag);

/* Waits up to timeout_ns (0 = until it exits or a stop signal arrives
 * when interruptible) for pid. Returns 1 when it exited (*status as from
 * waitpid), 0 when it is still running (timeout or stop signal), or
 * -CP_ESYS. */
int cp_proc_wait(pid_t pid, uint64_t timeout_ns, int interruptible, int *status);

/* Stops a child started by cp_proc_spawn/fork and everything in its
 * process group: sends sig to the group, waits grace_ns, then SIGKILL;
 * reaps the child and waits (up to 10 s) until the group is empty.
 * *status (may be NULL) gets the child's wait status. Returns 0, or
 * -CP_EBUSY when the group did not empty. */
int cp_proc_stop(pid_t pid, int sig, uint64_t grace_ns, int *status);

/* Runs a helper program to completion (losetup, mkfs): stdout captured
 * into out (NUL-terminated, truncated to out_len - 1), stderr captured for
 * the diagnostic. Not interrupted by stop signals (a helper that attaches
 * or formats must finish so cleanup knows what exists); killed after
 * timeout_ns. Returns 0 when it exited 0, -CP_ESYS otherwise (diag names
 * the program and quotes its stderr). */
int cp_proc_run(const char *path, char *const argv[], const struct cp_spawn_opts *o,
		uint64_t timeout_ns, char *out, size_t out_len, struct cp_diag *diag);

/* A pipe with both ends close-on-exec (the child's dup2 clears it). */
int cp_proc_pipe(int fds[2]);

/* Finds a system tool (losetup, mkfs.xfs, fs_mark) in the standard
 * directories /usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin, /sbin,
 * /bin. Returns 0 or -CP_ENOENT. */
int cp_proc_find_tool(const char *name, char *out, size_t len);

/* Finds a harness program (cp-read-file, ...) next to the running
 * executable, or in ../libexec/cachepressure from it. 0 or -CP_ENOENT. */
int cp_proc_find_program(const char *name, char *out, size_t len);

/* Monotonic clock in ns (wall time belongs to the harness, never src/). */
uint64_t cp_proc_now_ns(void);

/* Sleeps ns (returns early on a signal). */
void cp_proc_sleep_ns(uint64_t ns);

#endif /* CP_PROC_H */
