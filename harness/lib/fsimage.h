/*
 * fsimage.h - the filesystem the real harness runs on: a work directory,
 * a sparse image file in it, a loop device attached to the image with
 * direct I/O (so the image's own pages never enter the host page cache),
 * mkfs, and a noatime mount on a mount point of its own.
 *
 * Every object is named cachepressure-*, is recorded when created and is
 * undone only if this process created it: detach checks that the loop
 * device's backing file is our image, unmount only our mount point.
 */
#ifndef CP_FSIMAGE_H
#define CP_FSIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fs_profile.h" /* enum cp_fs_kind: CP_FS_XFS, CP_FS_EXT4 */

#define CP_FSIMAGE_PATH_MAX 4096
#define CP_FSIMAGE_PREFIX "cachepressure-"

struct cp_diag;

/* "xfs" / "ext4". */
const char *cp_fs_name(enum cp_fs_kind fs);
/* Parses "xfs"/"ext4"; 0 or -CP_EINVAL. */
int cp_fs_parse(const char *s, enum cp_fs_kind *out);

struct cp_workdir {
	char path[CP_FSIMAGE_PATH_MAX];
	bool created; /* we made the directory: remove it when empty */
};

/* Checks (and creates, one level deep) the work directory. Refuses
 * (-CP_EPERM, diag says why) a relative path, a symlink, a non-directory,
 * a directory on tmpfs or ramfs, and a directory holding any entry whose
 * name does not start with "cachepressure-" (files it did not create). */
int cp_workdir_prepare(const char *path, struct cp_workdir *wd, struct cp_diag *diag);

/* Free bytes on the work directory's filesystem (f_bfree: root may use them). */
int cp_workdir_free_bytes(const struct cp_workdir *wd, uint64_t *out, struct cp_diag *diag);

/* rmdir if we created it and it is empty; otherwise nothing. */
void cp_workdir_release(struct cp_workdir *wd);

struct cp_image {
	char path[CP_FSIMAGE_PATH_MAX];
	bool created;
};

/* Creates <workdir>/<name> (O_EXCL, mode 0600) as a sparse file of bytes.
 * name must start with "cachepressure-". */
int cp_image_create(const struct cp_workdir *wd, const char *name, uint64_t bytes,
		    struct cp_image *img, struct cp_diag *diag);

/* Unlinks the image if we created it. */
int cp_image_remove(struct cp_image *img, struct cp_diag *diag);

struct cp_loop {
	char dev[64];   /* /dev/loopN */
	bool attached;  /* we attached it to our image */
	bool dio;       /* the kernel accepted direct I/O */
};

/* losetup --direct-io=on --find --show IMAGE; checks the new device's
 * backing file is the image. */
int cp_loop_attach(const char *losetup, const struct cp_image *img, struct cp_loop *lo,
		   struct cp_diag *diag);

/* The backing file of a loop device from sysfs (" (deleted)" stripped).
 * 0 or -CP_ENOENT. */
int cp_loop_backing_file(const char *dev, char *out, size_t len);

/* losetup -d, only when attached by us and still backed by our image. */
int cp_loop_detach(const char *losetup, struct cp_loop *lo, const struct cp_image *img,
		   struct cp_diag *diag);

/* mkfs on our loop device only: mkfs.xfs -f -q DEV, or mkfs.ext4 -F -q
 * [-N nr_inodes] DEV. */
int cp_mkfs(const char *mkfs, enum cp_fs_kind fs, const struct cp_loop *lo, uint64_t nr_inodes,
	    struct cp_diag *diag);

/* Builds the mkfs argv (for tests and error messages): returns the number
 * of arguments written to argv (NULL-terminated; max 10), using buf for
 * numbers. */
int cp_mkfs_argv(const char *mkfs, enum cp_fs_kind fs, const char *dev, uint64_t nr_inodes,
		 char *buf, size_t buf_len, char *argv[10]);

struct cp_mount {
	char path[CP_FSIMAGE_PATH_MAX];
	bool dir_created;
	bool mounted;
};

/* mkdir <workdir>/<name> and mount our loop device there with noatime. */
int cp_mount_create(const struct cp_workdir *wd, const char *name, const struct cp_loop *lo,
		    enum cp_fs_kind fs, struct cp_mount *m, struct cp_diag *diag);

/* Unmounts (retrying while busy, for up to 10 s, then a lazy detach) and
 * removes the mount point, each only if we made it. */
int cp_mount_remove(struct cp_mount *m, struct cp_diag *diag);

#endif /* CP_FSIMAGE_H */
