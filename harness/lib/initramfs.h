/*
 * initramfs.h - the kernel lab's initramfs: busybox, our /init, the
 * cachepressure program, its harness programs and fs_mark, each with the
 * shared libraries `ldd` names (and the dynamic loader), written with
 * Debian's `cpio -o -H newc` and cached in the work directory under a key
 * hashed from the files' contents and modes.
 *
 * The manifest (what goes where) is built by a pure function from the
 * binaries' paths and their ldd output, so tests check it without a
 * filesystem; building the archive reads the files and runs cpio.
 */
#ifndef CP_INITRAMFS_H
#define CP_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cp_diag;

#define CP_IR_PATH_MAX 512
#define CP_IR_MAX_BINARIES 8
#define CP_IR_PREFIX "cachepressure-initramfs-"

enum cp_ir_kind {
	CP_IR_DIR,     /* a directory */
	CP_IR_FILE,    /* a copy of the host file src (symlinks followed) */
	CP_IR_SYMLINK, /* a symbolic link to src */
	CP_IR_DATA,    /* data/len bytes given in memory (not owned) */
};

struct cp_ir_entry {
	enum cp_ir_kind kind;
	char dest[CP_IR_PATH_MAX]; /* path in the guest, absolute */
	char src[CP_IR_PATH_MAX];  /* FILE: host path; SYMLINK: link target */
	unsigned mode;             /* permission bits */
	const void *data;          /* DATA */
	size_t len;
};

struct cp_ir_manifest {
	struct cp_ir_entry *e; /* cp_malloc'ed, sorted by dest */
	size_t n, cap;
};

/* One program for the guest: its host path, where it goes, and what
 * `ldd` printed for it (NULL or a "not a dynamic executable" text: no
 * libraries needed). */
struct cp_ir_binary {
	const char *src;
	const char *dest;
	const char *ldd_out;
};

struct cp_ir_inputs {
	const char *busybox;          /* host path of busybox (static) */
	const char *busybox_ldd;      /* its ldd output, or NULL */
	struct cp_ir_binary bins[CP_IR_MAX_BINARIES];
	size_t nr_bins;
	const char *init_text;        /* the /init script (harness/guest/init.sh) */
	size_t init_len;
};

/* The busybox applets /init uses, linked as /bin/NAME -> busybox. */
extern const char *const cp_ir_applets[];
extern const size_t cp_ir_nr_applets;

/* Parses ldd output: every "NAME => /path (0x...)" and "/path (0x...)"
 * line adds /path (the loader included); "linux-vdso.so.1 (0x...)" and
 * "statically linked" / "not a dynamic executable" add nothing. Calls
 * add(arg, path) per library, in order. Returns 0, -CP_ENOENT when a
 * library is "not found" (diag names it), or add's error. */
int cp_ir_ldd_parse(const char *ldd_out, int (*add)(void *arg, const char *path), void *arg,
		    struct cp_diag *diag);

/* Pure: the manifest of in: directories (/bin /dev /proc /sys /tmp /usr
 * /usr/bin /cachepressure and the libraries' directories), /bin/busybox
 * and its applet links, /init (mode 0755), the marker /cachepressure/guest,
 * each binary at its dest, and each library named by ldd at its own path
 * (deduplicated). Returns 0, -CP_EINVAL (a relative path, a missing
 * library) or -CP_ENOMEM; release with cp_ir_manifest_release(). */
int cp_ir_manifest_build(const struct cp_ir_inputs *in, struct cp_ir_manifest *m,
			 struct cp_diag *diag);

/* Adds one entry and its parent directories (kept sorted by dest; an
 * existing dest is left as it is). data/len for CP_IR_DATA (not copied:
 * must outlive m). 0, -CP_EINVAL or -CP_ENOMEM. */
int cp_ir_manifest_add(struct cp_ir_manifest *m, enum cp_ir_kind kind, const char *dest,
		       const char *src, unsigned mode, const void *data, size_t len,
		       struct cp_diag *diag);

/* The entry for dest, or NULL. */
const struct cp_ir_entry *cp_ir_manifest_find(const struct cp_ir_manifest *m, const char *dest);

void cp_ir_manifest_release(struct cp_ir_manifest *m);

/* The cache key: FNV-1a 64 over every entry's kind, dest, mode, and the
 * bytes of its content (files read from the host). 0 or -CP_ESYS. */
int cp_ir_manifest_key(const struct cp_ir_manifest *m, uint64_t *key, struct cp_diag *diag);

/* Writes the archive of m to <dir>/cachepressure-initramfs-<key>.cpio
 * unless that file exists (*reused set): the entries are laid out in a
 * staging directory <dir>/cachepressure-initramfs-<pid>.stage, which
 * `cpio -o -H newc` (cpio: the program's path) archives and which is
 * removed again; archives of other keys in dir are then removed. out gets
 * the archive's path. */
int cp_ir_build(const struct cp_ir_manifest *m, const char *dir, const char *cpio, char *out,
		size_t out_len, bool *reused, struct cp_diag *diag);

/* Archives the entries of m (no cache) into the file out with cpio. */
int cp_ir_write(const struct cp_ir_manifest *m, const char *dir, const char *cpio,
		const char *out, struct cp_diag *diag);

#endif /* CP_INITRAMFS_H */
