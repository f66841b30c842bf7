/*
 * guest.h - the guest side of the kernel lab: `cachepressure real` run by
 * the /init of a lab initramfs (harness/guest/init.sh) inside qemu, on
 * the disk the host made (--guest-disk /dev/vda) instead of an image,
 * loop device and mkfs of its own.
 *
 * The hidden --guest-disk option must never act on a host: it is honoured
 * only when the kernel command line carries cachepressure.guest=1, pid 1
 * runs /init, and the initramfs marker file exists.
 */
#ifndef CP_GUEST_H
#define CP_GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cp_diag;

#define CP_LAB_GUEST_CMDLINE_FLAG "cachepressure.guest=1"
#define CP_LAB_GUEST_MARKER "/cachepressure/guest"
/* The host tells the guest its RAM (qemu -m, bytes) on the kernel command
 * line: `calibrate` inside the guest reports it as the machine's ram when
 * the kernel has no memory-block sysfs. */
#define CP_LAB_VM_MEM_ARG "cachepressure.vm_mem="
/* Inside the guest the balloon leaves this much beyond --mem (the host
 * keeps CP_BALLOON_HEADROOM_BYTES for itself; a guest has nothing else). */
#define CP_LAB_GUEST_HEADROOM_BYTES (64ULL << 20)

/* Pure: true when proc_cmdline (text of /proc/cmdline) holds the word
 * CP_LAB_GUEST_CMDLINE_FLAG, pid1_argv (/proc/1/cmdline: NUL-separated,
 * pid1_len bytes) has an argument "/init", and marker_exists. */
bool cp_lab_guest_check(const char *proc_cmdline, const char *pid1_argv, size_t pid1_len,
			bool marker_exists);

/* Reads /proc/cmdline, /proc/1/cmdline and the marker. 0 inside a lab
 * guest, -CP_EPERM otherwise (diag: "--guest-disk is only honoured ..."). */
int cp_lab_guest_verify(struct cp_diag *diag);

/* The admission of a run that touches the system (real, calibrate): with
 * guest_disk the guest guard first (cp_lab_guest_verify: on a host nothing
 * else happens), then root. -CP_EPERM with diag "needs root (what);
 * nothing was touched". */
int cp_lab_admit(const char *guest_disk, const char *what, struct cp_diag *diag);

#endif /* CP_GUEST_H */
