/*
 * fsimage.c - work directory, sparse image, loop device, mkfs, mount.
 *
 * External programs are losetup (util-linux) and mkfs.xfs/mkfs.ext4, run
 * with argv arrays; mounting is the mount(2) system call.
 */
#include "fsimage.h"

#include <cachepressure/error.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "kfile.h"
#include "core/alloc.h"
#include "proc.h"

#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6

const char *cp_fs_name(enum cp_fs_kind fs)
{
	return fs == CP_FS_EXT4 ? "ext4" : "xfs";
}

int cp_fs_parse(const char *s, enum cp_fs_kind *out)
{
	if (strcmp(s, "xfs") == 0)
		*out = CP_FS_XFS;
	else if (strcmp(s, "ext4") == 0)
		*out = CP_FS_EXT4;
	else
		return -CP_EINVAL;
	return 0;
}

static int on_memory_fs(const char *path, struct cp_diag *diag)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return cp_diag_set(diag, -CP_ESYS, "statfs %s: %s", path, strerror(errno));
	if ((unsigned long)sf.f_type == TMPFS_MAGIC_ || (unsigned long)sf.f_type == RAMFS_MAGIC_)
		return cp_diag_set(diag, -CP_EPERM,
				   "work directory %s is on tmpfs/ramfs: the image would live in "
				   "the memory under test; use --workdir on a disk filesystem",
				   path);
	return 0;
}

int cp_workdir_prepare(const char *path, struct cp_workdir *wd, struct cp_diag *diag)
{
	struct cp_workdir tmp;
	struct stat st;
	struct dirent *de;
	DIR *d;
	int rc;

	memset(&tmp, 0, sizeof(tmp));
	if (path[0] != '/')
		return cp_diag_set(diag, -CP_EINVAL, "work directory '%s' must be an absolute path",
				   path);
	if ((size_t)snprintf(tmp.path, sizeof(tmp.path), "%s", path) >= sizeof(tmp.path) - 256)
		return cp_diag_set(diag, -CP_EINVAL, "work directory path too long");
	while (strlen(tmp.path) > 1 && tmp.path[strlen(tmp.path) - 1] == '/')
		tmp.path[strlen(tmp.path) - 1] = '\0';

	if (lstat(tmp.path, &st)) {
		char parent[CP_FSIMAGE_PATH_MAX], *slash;

		if (errno != ENOENT)
			return cp_diag_set(diag, -CP_ESYS, "%s: %s", tmp.path, strerror(errno));
		snprintf(parent, sizeof(parent), "%s", tmp.path);
		slash = strrchr(parent, '/');
		if (slash == parent)
			slash[1] = '\0';
		else
			*slash = '\0';
		rc = on_memory_fs(parent, diag);
		if (rc)
			return rc;
		if (mkdir(tmp.path, 0700))
			return cp_diag_set(diag, -CP_ESYS, "mkdir %s: %s", tmp.path, strerror(errno));
		tmp.created = true;
		*wd = tmp;
		return 0;
	}
	if (S_ISLNK(st.st_mode))
		return cp_diag_set(diag, -CP_EPERM, "work directory %s is a symlink; refusing",
				   tmp.path);
	if (!S_ISDIR(st.st_mode))
		return cp_diag_set(diag, -CP_EPERM, "work directory %s is not a directory",
				   tmp.path);
	rc = on_memory_fs(tmp.path, diag);
	if (rc)
		return rc;
	d = opendir(tmp.path);
	if (!d)
		return cp_diag_set(diag, -CP_ESYS, "%s: %s", tmp.path, strerror(errno));
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (strncmp(de->d_name, CP_FSIMAGE_PREFIX, strlen(CP_FSIMAGE_PREFIX)) != 0) {
			cp_diag_set(diag, -CP_EPERM,
				    "work directory %s holds '%s', which cachepressure did not "
				    "create; refusing (use an empty directory)",
				    tmp.path, de->d_name);
			closedir(d);
			return -CP_EPERM;
		}
	}
	closedir(d);
	*wd = tmp;
	return 0;
}

int cp_workdir_free_bytes(const struct cp_workdir *wd, uint64_t *out, struct cp_diag *diag)
{
	struct statvfs sv;

	if (statvfs(wd->path, &sv))
		return cp_diag_set(diag, -CP_ESYS, "statvfs %s: %s", wd->path, strerror(errno));
	*out = (uint64_t)sv.f_bfree * (uint64_t)sv.f_frsize;
	return 0;
}

void cp_workdir_release(struct cp_workdir *wd)
{
	if (wd->created && rmdir(wd->path) == 0)
		wd->created = false;
}

int cp_image_create(const struct cp_workdir *wd, const char *name, uint64_t bytes,
		    struct cp_image *img, struct cp_diag *diag)
{
	struct cp_image tmp;
	int fd;

	memset(&tmp, 0, sizeof(tmp));
	if (strncmp(name, CP_FSIMAGE_PREFIX, strlen(CP_FSIMAGE_PREFIX)) != 0 || strchr(name, '/'))
		return cp_diag_set(diag, -CP_EINVAL, "image name '%s' refused", name);
	if ((size_t)snprintf(tmp.path, sizeof(tmp.path), "%s/%s", wd->path, name) >=
	    sizeof(tmp.path))
		return cp_diag_set(diag, -CP_EINVAL, "image path too long");
	fd = open(tmp.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return cp_diag_set(diag, errno == EEXIST ? -CP_EBUSY : -CP_ESYS, "create %s: %s",
				   tmp.path, strerror(errno));
	tmp.created = true;
	if (ftruncate(fd, (off_t)bytes)) {
		int e = errno;

		close(fd);
		unlink(tmp.path);
		return cp_diag_set(diag, -CP_ESYS, "truncate %s to %" PRIu64 " bytes: %s",
				   tmp.path, bytes, strerror(e));
	}
	close(fd);
	*img = tmp;
	return 0;
}

int cp_image_remove(struct cp_image *img, struct cp_diag *diag)
{
	if (!img->created)
		return 0;
	if (unlink(img->path) && errno != ENOENT)
		return cp_diag_set(diag, -CP_ESYS, "unlink %s: %s", img->path, strerror(errno));
	img->created = false;
	return 0;
}

int cp_loop_backing_file(const char *dev, char *out, size_t len)
{
	const char *base = strrchr(dev, '/');
	char path[128], *text, *p;
	size_t n;

	base = base ? base + 1 : dev;
	if (strncmp(base, "loop", 4) != 0)
		return -CP_ENOENT;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", base);
	if (cp_kfile_read(path, &text, NULL))
		return -CP_ENOENT;
	n = strcspn(text, "\n");
	text[n] = '\0';
	p = strstr(text, " (deleted)");
	if (p && p[10] == '\0')
		*p = '\0';
	if (strlen(text) >= len) {
		cp_free(text);
		return -CP_ENOENT;
	}
	strcpy(out, text);
	cp_free(text);
	return 0;
}

/* Does the loop device's backing file name our image? */
static int backed_by(const char *dev, const struct cp_image *img)
{
	char backing[CP_FSIMAGE_PATH_MAX], real[PATH_MAX];

	if (cp_loop_backing_file(dev, backing, sizeof(backing)))
		return 0;
	if (!realpath(img->path, real))
		snprintf(real, sizeof(real), "%s", img->path);
	return strcmp(backing, real) == 0 || strcmp(backing, img->path) == 0;
}

int cp_loop_attach(const char *losetup, const struct cp_image *img, struct cp_loop *lo,
		   struct cp_diag *diag)
{
	char *argv[] = { "losetup", "--direct-io=on", "--find", "--show", (char *)img->path, NULL };
	struct cp_spawn_opts so;
	struct cp_loop tmp;
	char out[256], path[128], *text;
	size_t n;
	int rc;

	if (!img->created)
		return cp_diag_set(diag, -CP_EPERM, "refusing to attach an image we did not create");
	cp_spawn_opts_init(&so);
	rc = cp_proc_run(losetup, argv, &so, 60000000000ULL, out, sizeof(out), diag);
	if (rc)
		return rc;
	n = strcspn(out, "\n");
	out[n] = '\0';
	if (strncmp(out, "/dev/loop", 9) != 0 || n >= sizeof(tmp.dev))
		return cp_diag_set(diag, -CP_ESYS, "losetup printed '%s', not a loop device", out);
	memset(&tmp, 0, sizeof(tmp));
	memcpy(tmp.dev, out, n + 1);
	if (!backed_by(tmp.dev, img))
		return cp_diag_set(diag, -CP_ESYS,
				   "%s is not backed by %s after losetup; leaving it alone", tmp.dev,
				   img->path);
	tmp.attached = true;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/dio", tmp.dev + 5);
	if (cp_kfile_read(path, &text, NULL) == 0) {
		tmp.dio = text[0] == '1';
		cp_free(text);
	}
	*lo = tmp;
	return 0;
}

int cp_loop_detach(const char *losetup, struct cp_loop *lo, const struct cp_image *img,
		   struct cp_diag *diag)
{
	char *argv[] = { "losetup", "-d", lo->dev, NULL };
	struct cp_spawn_opts so;
	int rc = 0, tries;

	if (!lo->attached)
		return 0;
	if (!backed_by(lo->dev, img)) {
		/* Already gone (autoclear) or reused: not ours any more. */
		lo->attached = false;
		return 0;
	}
	cp_spawn_opts_init(&so);
	for (tries = 0; tries < 20; tries++) {
		rc = cp_proc_run(losetup, argv, &so, 60000000000ULL, NULL, 0, diag);
		if (rc == 0)
			break;
		cp_proc_sleep_ns(250000000);
	}
	if (rc)
		return rc;
	lo->attached = false;
	return 0;
}

int cp_mkfs_argv(const char *mkfs, enum cp_fs_kind fs, const char *dev, uint64_t nr_inodes,
		 char *buf, size_t buf_len, char *argv[10])
{
	int n = 0;

	argv[n++] = (char *)mkfs;
	if (fs == CP_FS_XFS) {
		argv[n++] = "-f";
		argv[n++] = "-q";
	} else {
		argv[n++] = "-F";
		argv[n++] = "-q";
		if (nr_inodes) {
			snprintf(buf, buf_len, "%" PRIu64, nr_inodes);
			argv[n++] = "-N";
			argv[n++] = buf;
		}
	}
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	return n;
}

int cp_mkfs(const char *mkfs, enum cp_fs_kind fs, const struct cp_loop *lo, uint64_t nr_inodes,
	    struct cp_diag *diag)
{
	struct cp_spawn_opts so;
	char *argv[10], num[32];

	if (!lo->attached)
		return cp_diag_set(diag, -CP_EPERM,
				   "refusing mkfs on a device cachepressure did not attach");
	cp_mkfs_argv(mkfs, fs, lo->dev, nr_inodes, num, sizeof(num), argv);
	cp_spawn_opts_init(&so);
	return cp_proc_run(mkfs, argv, &so, 600000000000ULL, NULL, 0, diag);
}

int cp_mount_create(const struct cp_workdir *wd, const char *name, const struct cp_loop *lo,
		    enum cp_fs_kind fs, struct cp_mount *m, struct cp_diag *diag)
{
	struct cp_mount tmp;

	memset(&tmp, 0, sizeof(tmp));
	if (!lo->attached)
		return cp_diag_set(diag, -CP_EPERM,
				   "refusing to mount a device cachepressure did not attach");
	if (strncmp(name, CP_FSIMAGE_PREFIX, strlen(CP_FSIMAGE_PREFIX)) != 0 || strchr(name, '/'))
		return cp_diag_set(diag, -CP_EINVAL, "mount point name '%s' refused", name);
	if ((size_t)snprintf(tmp.path, sizeof(tmp.path), "%s/%s", wd->path, name) >=
	    sizeof(tmp.path))
		return cp_diag_set(diag, -CP_EINVAL, "mount point path too long");
	if (mkdir(tmp.path, 0700))
		return cp_diag_set(diag, errno == EEXIST ? -CP_EBUSY : -CP_ESYS, "mkdir %s: %s",
				   tmp.path, strerror(errno));
	tmp.dir_created = true;
	if (mount(lo->dev, tmp.path, cp_fs_name(fs), MS_NOATIME, NULL)) {
		int e = errno;

		rmdir(tmp.path);
		return cp_diag_set(diag, -CP_ESYS, "mount %s on %s (%s, noatime): %s", lo->dev,
				   tmp.path, cp_fs_name(fs), strerror(e));
	}
	tmp.mounted = true;
	*m = tmp;
	return 0;
}

int cp_mount_remove(struct cp_mount *m, struct cp_diag *diag)
{
	uint64_t deadline = cp_proc_now_ns() + 10000000000ULL;
	int rc = 0;

	if (m->mounted) {
		while (umount2(m->path, UMOUNT_NOFOLLOW)) {
			int e = errno;

			if (e == EINVAL || e == ENOENT) /* not mounted any more */
				break;
			if (e != EBUSY || cp_proc_now_ns() >= deadline) {
				if (umount2(m->path, UMOUNT_NOFOLLOW | MNT_DETACH) == 0) {
					rc = cp_diag_set(diag, -CP_EBUSY,
							 "%s was busy; detached it lazily", m->path);
					break;
				}
				return cp_diag_set(diag, -CP_ESYS, "umount %s: %s", m->path,
						   strerror(e));
			}
			cp_proc_sleep_ns(100000000);
		}
		m->mounted = false;
	}
	if (m->dir_created) {
		if (rmdir(m->path) && errno != ENOENT)
			return cp_diag_set(diag, -CP_ESYS, "rmdir %s: %s", m->path, strerror(errno));
		m->dir_created = false;
	}
	return rc;
}
