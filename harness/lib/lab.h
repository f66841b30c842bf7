/*
 * lab.h - the kernel lab: `cachepressure real SCENARIO --kernel BZIMAGE`
 * runs each repetition in a fresh qemu guest booted from that kernel.
 *
 * A session finds the tools (qemu-system-x86_64, mkfs, cpio, busybox,
 * fs_mark, ldd), prepares the work directory, builds (or reuses, keyed by
 * content) the initramfs and adds the run's arguments to it. A run makes
 * a fresh sparse image in the work directory, runs mkfs on the FILE (no
 * loop device, no mount on the host: no root needed), boots the guest
 * (KVM when it works, TCG otherwise), whose /init runs `cachepressure
 * real` on /dev/vda and prints the result JSON between marker lines on
 * the second serial port; the host parses it into the result. qemu is
 * killed at the timeout or a stop signal; the image is removed on every
 * path.
 */
#ifndef CP_LAB_H
#define CP_LAB_H

#include <stdbool.h>
#include <stdint.h>

#include "fsimage.h"
#include "opts.h"
#include "plan.h"
#include "qemu.h" /* struct cp_lab_output */
#include "run.h" /* cp_real_progress_fn, CP_REAL_TOOL_MAX */

struct cp_run_result;
struct cp_diag;

struct cp_lab_tools {
	char qemu[CP_REAL_TOOL_MAX];
	char mkfs[CP_REAL_TOOL_MAX];
	char cpio[CP_REAL_TOOL_MAX];
	char busybox[CP_REAL_TOOL_MAX];
	char ldd[CP_REAL_TOOL_MAX];
	char fs_mark[CP_REAL_TOOL_MAX];
	char self[CP_REAL_TOOL_MAX]; /* the cachepressure program */
	char read_file[CP_REAL_TOOL_MAX];
	char read_dir[CP_REAL_TOOL_MAX];
	char balloon[CP_REAL_TOOL_MAX];
};

struct cp_lab_session {
	struct cp_real_opts opts;        /* with opts.lab */
	struct cp_lab_tools tools;
	struct cp_workdir wd;
	char base_initrd[CP_FSIMAGE_PATH_MAX]; /* cached: cachepressure-initramfs-KEY.cpio */
	char initrd[CP_FSIMAGE_PATH_MAX];      /* base + this session's arguments */
	bool initrd_created;
	enum cp_lab_accel accel;         /* decided by the first run when AUTO */
	bool accel_known;
	char accel_why[256];             /* "KVM", "TCG: /dev/kvm ..." */
	uint64_t timeout_ns;             /* per boot */
	uint64_t vm_mem_bytes;
	cp_real_progress_fn progress;    /* may be NULL */
	void *progress_arg;
	char kept[CP_REAL_MAX_REPEAT][CP_FSIMAGE_PATH_MAX]; /* --keep */
	unsigned nr_kept;
	unsigned nr_boots;               /* names the per-run files */
};

/* A host file copied into the guest's initramfs. */
struct cp_lab_file {
	const char *dest; /* absolute path in the guest */
	const char *src;  /* host path */
};

#define CP_LAB_JOB_MAX_FILES 4

/* What the guest's /init runs: `cachepressure ARGS... --guest-disk
 * /dev/vda --workdir /cachepressure-work`, then it prints the file
 * result_path (which ARGS make the command write) between the result
 * markers. */
struct cp_lab_job {
	const char *const *args;  /* args[0] is the command: "real", "calibrate" */
	size_t nr_args;
	const char *result_path;  /* in the guest, e.g. "/tmp/result.json" */
	struct cp_lab_file files[CP_LAB_JOB_MAX_FILES];
	size_t nr_files;
	uint64_t disk_bytes;      /* host free space a run needs for its image */
};

/* Boot timeout derived from a plan when --timeout is not given: 120 s
 * for the boot and setup plus 10 min per GiB of --mem (TCG runs the seed
 * at 1 GiB in about a minute) plus the scenario's time limit. */
uint64_t cp_lab_default_timeout_ns(const struct cp_real_plan *p);

/* Checks the inputs (the bzImage in ro->lab.kernel when set: -CP_EINVAL
 * naming it when missing), finds the tools (-CP_ENOENT naming the Debian
 * package), prepares the work directory (as `real`: refusals -CP_EPERM)
 * and its free space (-CP_ENOSPC), and builds the initramfs (reused when
 * its content key matches) plus this session's argument archive.
 * ro->lab.scenarios_dir must be set (the CLI's built-in scenario
 * directory); a scenario FILE is copied into the guest. Needs no root.
 * s->progress/progress_arg may be set before (they are kept); the rest
 * of *s is overwritten. */
int cp_lab_session_open(struct cp_lab_session *s, const struct cp_real_opts *ro,
			const struct cp_real_plan *p, struct cp_diag *diag);

/* The generic part of cp_lab_session_open(): ro->lab must be resolved
 * (vm_mem_bytes and timeout_ns non-zero, vm_cpus set); ro->workdir,
 * ro->fs and ro->keep are used. Checks the bzImage (-CP_EINVAL naming
 * it), finds the tools, prepares the work directory and its free space
 * (job->disk_bytes + 512 MiB), builds the base initramfs and the job's
 * archive (/cachepressure/args one per line, /cachepressure/result, the
 * job's files). Arguments holding a newline are refused (-CP_EINVAL). */
int cp_lab_session_open_job(struct cp_lab_session *s, const struct cp_real_opts *ro,
			    const struct cp_lab_job *job, struct cp_diag *diag);

/* One boot of a fresh guest, generic: the caller fills the inputs, the
 * boot fills the rest. */
struct cp_lab_boot {
	uint64_t image_bytes;      /* in: a fresh sparse image + mkfs as the virtio disk */
	uint64_t nr_inodes;        /* in: for mkfs.ext4 -N */
	const char *append;        /* in: more kernel command line, or NULL */
	char *text;                /* out: what the guest wrote on its result port (cp_malloc) */
	size_t text_len;
	struct cp_lab_output out;  /* out: parse of text (payload in out.json) */
	bool timed_out;            /* out: killed at s->timeout_ns */
	uint64_t guest_ns;         /* out: qemu start to exit */
	char why[1024];            /* out: out.status != OK: why there is no payload */
	char console[CP_FSIMAGE_PATH_MAX];
	char result[CP_FSIMAGE_PATH_MAX];
	char qemu_log[CP_FSIMAGE_PATH_MAX];
};

/* Decides the accelerator (once per session), makes the image (removed
 * again before returning, or kept with --keep), boots bzimage, waits for
 * qemu to exit or the timeout, reads and parses the result port. Returns
 * 0 (b->out.status says whether a payload came; if not, b->why says why,
 * naming the console file), -CP_EBUSY at a stop signal, or the host-side
 * error. After 0 the caller must call cp_lab_boot_release(). */
int cp_lab_boot_guest(struct cp_lab_session *s, const char *bzimage, struct cp_lab_boot *b,
		      struct cp_diag *diag);

/* The last line of the guest's console holding needle (NULL: the last
 * non-empty line), or "". */
void cp_lab_console_line(const struct cp_lab_boot *b, const char *needle, char *out, size_t len);

/* Frees b->text and removes the guest's files, the console kept (and
 * said so) when keep_console. */
void cp_lab_boot_release(struct cp_lab_session *s, struct cp_lab_boot *b, bool keep_console);

/* One fresh guest booted from bzimage: fresh image + mkfs, boot, run,
 * parse, the guest reboots (qemu exits), image removed. Returns 0 with r
 * filled (initialised by the caller) - r->failed set with r->failure
 * saying why when the guest hung, crashed, timed out or reported a
 * failed run, never a result - or a -CP_E* code when the host side could
 * not be set up, or -CP_EBUSY at a stop signal (qemu killed, image
 * removed). r->kernel is the guest's uname -r, r->policy the bzImage
 * path. */
int cp_lab_run(struct cp_lab_session *s, const char *bzimage, const struct cp_real_plan *p,
	       unsigned rep, struct cp_run_result *r, struct cp_diag *diag);

/* Removes the session's argument archive, and the work directory when
 * the session created it and it is empty (the cached initramfs stays). */
void cp_lab_session_close(struct cp_lab_session *s);

/* 1 when /dev/kvm opens read-write (KVM may be usable), else 0. */
int cp_lab_kvm_openable(void);

#endif /* CP_LAB_H */
