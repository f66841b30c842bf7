/*
 * labcal.c - `cachepressure calibrate --kernel BZIMAGE`: calibrate run
 * inside a kernel-lab guest (see labcal.h). The session, boot, timeout
 * and cleanup are the lab's (lab.c); this file says what the guest runs
 * and turns its profile into the host's.
 */
#include "labcal.h"

#include <cachepressure/error.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "calib_profile.h"
#include "core/alloc.h"
#include "guest.h"
#include "lab.h"
#include "qemu.h"

#define MIB (1024ULL * 1024ULL)
#define GIB (1024ULL * MIB)
#define SEC_NS 1000000000ULL
/* calibrate's own image on a host is 8 GiB sparse; the same here */
#define IMAGE_BYTES (8 * GIB)

void cp_labcal_guest_args(const struct cp_calibrate_opts *o, struct cp_labcal_args *a)
{
	memset(a, 0, sizeof(*a));
	snprintf(a->file_size, sizeof(a->file_size), "%" PRIu64, o->file_bytes);
	snprintf(a->files, sizeof(a->files), "%" PRIu64, o->nr_files);
	a->argv[a->argc++] = "calibrate";
	a->argv[a->argc++] = "--name";
	a->argv[a->argc++] = o->name;
	a->argv[a->argc++] = "--file-size";
	a->argv[a->argc++] = a->file_size;
	a->argv[a->argc++] = "--files";
	a->argv[a->argc++] = a->files;
	a->argv[a->argc++] = "-o";
	a->argv[a->argc++] = CP_LABCAL_RESULT;
}

void cp_labcal_note(char *out, size_t len, bool kvm, const char *bzimage,
		    const char *guest_kernel, uint64_t vm_mem_bytes, unsigned cpus,
		    const char *host)
{
	snprintf(out, len,
		 "measured inside a qemu %s guest of %s (kernel %s) with %" PRIu64
		 " MiB, %u CPU%s, virtio disk (cache=none) on an image file on %s",
		 kvm ? "KVM" : "TCG", bzimage, guest_kernel && *guest_kernel ? guest_kernel : "?",
		 vm_mem_bytes >> 20, cpus, cpus == 1 ? "" : "s", host);
}

uint64_t cp_labcal_default_timeout_ns(const struct cp_calibrate_opts *o)
{
	return 300 * SEC_NS + o->file_bytes * 300 / GIB * SEC_NS + o->nr_files / 200 * SEC_NS;
}

void cp_labcal_guest_kernel(const char *console_line, char *out, size_t len)
{
	static const char head[] = "cachepressure guest: kernel ";
	const char *p = console_line ? strstr(console_line, head) : NULL;
	size_t n;

	out[0] = '\0';
	if (!p || !len)
		return;
	p += strlen(head);
	n = strcspn(p, ", \t\r\n");
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

struct progress {
	void (*fn)(void *, const char *);
	void *arg;
};

static void on_lab_progress(void *arg, const char *msg)
{
	struct progress *p = arg;

	if (p->fn)
		p->fn(p->arg, msg);
}

/* The guest's profile into c, described as the guest's. */
static int take(const struct cp_calibrate_opts *o, struct cp_lab_session *s,
		struct cp_lab_boot *b, const char *command, struct cp_calibration *c,
		struct cp_diag *diag)
{
	char line[300], kernel[128], host[128] = "?", note[768];
	struct cp_calib_value *cpus, *ram, *desc;
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	bool kvm = s->accel == CP_LAB_ACCEL_KVM;
	int rc;

	cp_lab_console_line(b, "cachepressure guest: kernel", line, sizeof(line));
	cp_labcal_guest_kernel(line, kernel, sizeof(kernel));
	if (uname(&u) == 0)
		snprintf(host, sizeof(host), "%s", u.nodename);
	cp_labcal_note(note, sizeof(note), kvm, o->lab.kernel, kernel, s->vm_mem_bytes,
		       s->opts.lab.vm_cpus, host);
	rc = cp_calib_take_guest(c, b->out.json, b->out.json_len, note, diag);
	if (rc)
		return rc;
	gmtime_r(&now, &tm);
	strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cp_calib_text(c->kernel, sizeof(c->kernel), "%s (the guest's)", kernel[0] ? kernel : "?");
	cp_calib_text(c->host, sizeof(c->host), "a qemu %s guest of %s on %s", kvm ? "KVM" : "TCG",
	     o->lab.kernel, host);
	snprintf(c->command, sizeof(c->command), "%s", command);
	cpus = cp_calibration_get(c, "machine", "cpus");
	ram = cp_calibration_get(c, "machine", "ram");
	desc = cp_calibration_get(c, "machine", "description");
	if (desc) {
		cp_calib_text(desc->value, sizeof(desc->value),
			 "qemu %s guest of %s: %s CPUs, %s RAM, virtio disk (calibrated)",
			 kvm ? "KVM" : "TCG", kernel[0] ? kernel : "?",
			 cpus && cpus->measured ? cpus->value : "?",
			 ram && ram->measured ? ram->value : "?");
		snprintf(desc->how, sizeof(desc->how), "written by calibrate --kernel");
		desc->measured = true;
	}
	return 0;
}

int cp_labcal_run(const struct cp_calibrate_opts *o, const char *command, struct cp_calibration *c,
		  void (*progress)(void *, const char *), void *progress_arg, struct cp_diag *diag)
{
	struct cp_lab_session *s;
	struct cp_real_opts ro;
	struct cp_lab_job job;
	struct cp_labcal_args args;
	struct cp_lab_boot b;
	struct progress pr = { progress, progress_arg };
	char append[64];
	bool keep_console = false;
	int rc;

	if (!o->lab.kernel)
		return cp_diag_set(diag, -CP_EINVAL, "calibrate in the lab needs --kernel BZIMAGE");
	s = cp_calloc(1, sizeof(*s));
	if (!s)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	memset(&ro, 0, sizeof(ro));
	ro.workdir = o->workdir;
	ro.fs = CP_FS_XFS;
	ro.confine = CP_CONFINE_GLOBAL;
	ro.repeat = 1;
	ro.lab = o->lab;
	if (!ro.lab.vm_mem_bytes)
		ro.lab.vm_mem_bytes = CP_CALIB_LAB_DEFAULT_VM_MEM;
	if (!ro.lab.timeout_ns)
		ro.lab.timeout_ns = cp_labcal_default_timeout_ns(o);
	cp_labcal_guest_args(o, &args);
	memset(&job, 0, sizeof(job));
	job.args = args.argv;
	job.nr_args = args.argc;
	job.result_path = CP_LABCAL_RESULT;
	job.disk_bytes = o->file_bytes + GIB; /* what the guest writes, with room */
	s->progress = on_lab_progress;
	s->progress_arg = &pr;
	rc = cp_lab_session_open_job(s, &ro, &job, diag);
	if (rc) {
		cp_free(s);
		return rc;
	}
	memset(&b, 0, sizeof(b));
	b.image_bytes = IMAGE_BYTES;
	snprintf(append, sizeof(append), CP_LAB_VM_MEM_ARG "%" PRIu64, s->vm_mem_bytes);
	b.append = append;
	rc = cp_lab_boot_guest(s, o->lab.kernel, &b, diag);
	if (rc)
		goto out;
	if (b.out.status != CP_LAB_OUTPUT_OK) {
		rc = cp_diag_set(diag, -CP_ESYS, "%s", b.why);
		keep_console = true;
	} else if (b.out.guest_exit != 0) {
		char why[300];

		cp_lab_console_line(&b, "cachepressure calibrate", why, sizeof(why));
		rc = cp_diag_set(diag, -CP_ESYS,
				 "the guest's calibrate exited with status %d%s%s; console %s",
				 b.out.guest_exit, why[0] ? ": " : "", why, b.console);
		keep_console = true;
	} else {
		struct cp_diag d = { "" };

		rc = take(o, s, &b, command, c, &d);
		if (rc) {
			rc = cp_diag_set(diag, rc == -CP_ENOMEM ? rc : -CP_ESYS, "%s; console %s",
					 d.msg, b.console);
			keep_console = true;
		}
	}
	cp_lab_boot_release(s, &b, keep_console);
out:
	cp_lab_session_close(s);
	cp_free(s);
	return rc;
}
