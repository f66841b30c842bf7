/*
 * labcal.h - `cachepressure calibrate --kernel BZIMAGE`: the machine
 * profile of a kernel-lab guest, measured inside it.
 *
 * The host opens a lab session (lab.h) whose job is `cachepressure
 * calibrate` with the guest's disk, boots one guest on a fresh xfs image,
 * and takes the profile the guest printed on its result port: every key
 * the guest measured keeps the guest's comment and gets a note saying
 * it was measured inside a qemu guest of that kernel, with that RAM and
 * CPUs, on a virtio disk backed by an image file on this host. The
 * writer copies the rest from --from as for a host calibration.
 */
#ifndef CP_LABCAL_H
#define CP_LABCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calibrate.h"
#include "opts.h"

struct cp_diag;

#define CP_LABCAL_RESULT "/tmp/result.ini" /* the profile the guest writes */
#define CP_LABCAL_MAX_ARGS 12

/* The guest's `cachepressure` arguments (without the --guest-disk and
 * --workdir /init adds). */
struct cp_labcal_args {
	const char *argv[CP_LABCAL_MAX_ARGS];
	size_t argc;
	char file_size[32], files[32]; /* storage for argv */
};

/* Pure: calibrate --name NAME --file-size BYTES --files N -o
 * CP_LABCAL_RESULT, from o (o->name, o->file_bytes, o->nr_files). */
void cp_labcal_guest_args(const struct cp_calibrate_opts *o, struct cp_labcal_args *a);

/* Pure: the per-key note, "measured inside a qemu TCG guest of BZIMAGE
 * (kernel K) with VM_MEM MiB, N CPUs, virtio disk (cache=none) on an
 * image file on HOST". */
void cp_labcal_note(char *out, size_t len, bool kvm, const char *bzimage,
		    const char *guest_kernel, uint64_t vm_mem_bytes, unsigned cpus,
		    const char *host);

/* Pure: the default --timeout: 5 min for boot and setup, 5 min per GiB
 * of --file-size, 1 s per 200 fs_mark files (TCG creates ~1,800 files/s
 * in the guest). */
uint64_t cp_labcal_default_timeout_ns(const struct cp_calibrate_opts *o);

/* Pure: the guest's `uname -r` from its /init line "cachepressure guest:
 * kernel K, ..." (console_line), or "" when it is not one. */
void cp_labcal_guest_kernel(const char *console_line, char *out, size_t len);

/* Boots one guest of o->lab.kernel and fills c (cp_calibration_init'ed
 * by the caller) with what it measured; c->host, command, date and
 * kernel describe the guest and the host's command. Returns 0,
 * -CP_EINVAL for bad input (the bzImage; diag names it), -CP_ENOENT for
 * a missing tool, -CP_ESYS when the guest failed, hung or reported
 * nothing usable (diag says why and names the kept console file),
 * -CP_EBUSY at a stop signal. Nothing is left but the cached initramfs
 * (and a failed guest's console). */
int cp_labcal_run(const struct cp_calibrate_opts *o, const char *command, struct cp_calibration *c,
		  void (*progress)(void *, const char *), void *progress_arg, struct cp_diag *diag);

#endif /* CP_LABCAL_H */
