/*
 * qemu.h - the qemu command line of a kernel-lab guest, and what the
 * guest prints back over its second serial port.
 *
 * Both are pure functions, so the tests check them without qemu: the
 * argv (KVM or TCG, memory, CPUs, the disk, the kernel command line) and
 * the parse of the result port (markers, a truncated output, a guest that
 * never printed its end marker).
 */
#ifndef CP_QEMU_H
#define CP_QEMU_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h" /* enum cp_lab_accel */

struct cp_diag;

#define CP_QEMU_MAX_ARGS 48
#define CP_QEMU_BUF 8192

/* Marker lines on the guest's result port (ttyS1), each on a line of its own. */
#define CP_LAB_BEGIN "@@cachepressure-result-begin@@"
#define CP_LAB_END "@@cachepressure-result-end" /* " exit=N@@" follows */
#define CP_LAB_PROBE_OK "@@cachepressure-probe-ok@@"

struct cp_qemu_config {
	const char *qemu;         /* path of qemu-system-x86_64 */
	const char *kernel;       /* bzImage */
	const char *initrd;       /* cpio archive */
	const char *disk;         /* raw image (virtio), or NULL */
	const char *console_path; /* ttyS0 (kernel and init messages) -> this file */
	const char *result_path;  /* ttyS1 (the result) -> this file */
	uint64_t mem_bytes;       /* guest RAM (rounded down to MiB) */
	unsigned cpus;
	enum cp_lab_accel accel;  /* KVM or TCG (AUTO is refused) */
	const char *append_extra; /* appended to the kernel command line, or NULL */
};

struct cp_qemu_argv {
	char *argv[CP_QEMU_MAX_ARGS]; /* NULL-terminated, pointing into buf */
	size_t argc;
	char buf[CP_QEMU_BUF];
};

/* The kernel command line every guest gets before append_extra. */
#define CP_LAB_APPEND_BASE "console=ttyS0 panic=-1 quiet cachepressure.guest=1"

/* Builds: qemu -nographic -monitor none -no-reboot -accel kvm -cpu host |
 * -accel tcg, -m MiB, -smp N, -kernel, -initrd, -append "BASE extra",
 * -drive file=DISK,format=raw,if=virtio,cache=none, -serial file:CONSOLE
 * -serial file:RESULT. Returns 0 or -CP_EINVAL (a missing path, AUTO,
 * zero memory or CPUs, too long). */
int cp_qemu_argv_build(const struct cp_qemu_config *c, struct cp_qemu_argv *out,
		       struct cp_diag *diag);

enum cp_lab_output_status {
	CP_LAB_OUTPUT_OK,        /* begin and end markers: json holds the result */
	CP_LAB_OUTPUT_NONE,      /* no begin marker: the guest never reported */
	CP_LAB_OUTPUT_TRUNCATED, /* begin marker without an end marker */
};

struct cp_lab_output {
	enum cp_lab_output_status status;
	const char *json;  /* into the parsed text (OK, TRUNCATED) */
	size_t json_len;
	int guest_exit;    /* exit status of the guest's cachepressure (OK), else -1 */
};

/* Parses the result port's text (len bytes, need not be NUL-terminated):
 * the last line that is exactly CP_LAB_BEGIN starts the JSON, the next
 * line starting with CP_LAB_END (" exit=N@@") ends it. Carriage returns
 * (a serial port's "\r\n") are tolerated. */
void cp_lab_output_parse(const char *text, size_t len, struct cp_lab_output *out);

#endif /* CP_QEMU_H */
