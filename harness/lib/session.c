/*
 * session.c - what `cachepressure real` checks before it touches
 * anything: root, the programs it runs, loop devices, the memory cgroup
 * controller, available memory, the work directory and its free space.
 */
#include "run.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "balloon.h"
#include "guest.h"
#include "proc.h"

#define MIB (1024ULL * 1024ULL)

int cp_real_find_tools(enum cp_fs_kind fs, struct cp_real_tools *t, struct cp_diag *diag)
{
	static const struct {
		const char *name, *package;
		size_t off;
		int harness;
	} need[] = {
		{ "losetup", "util-linux", offsetof(struct cp_real_tools, losetup), 0 },
		{ "fs_mark", "fsmark", offsetof(struct cp_real_tools, fs_mark), 0 },
		{ "cp-read-file", "cachepressure", offsetof(struct cp_real_tools, read_file), 1 },
		{ "cp-read-dir", "cachepressure", offsetof(struct cp_real_tools, read_dir), 1 },
		{ "cp-balloon", "cachepressure", offsetof(struct cp_real_tools, balloon), 1 },
	};
	const char *mkfs = fs == CP_FS_EXT4 ? "mkfs.ext4" : "mkfs.xfs";
	size_t i;

	memset(t, 0, sizeof(*t));
	if (cp_proc_find_tool(mkfs, t->mkfs, sizeof(t->mkfs)))
		return cp_diag_set(diag, -CP_ENOENT, "%s not found (Debian package %s)", mkfs,
				   fs == CP_FS_EXT4 ? "e2fsprogs" : "xfsprogs");
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		char *dst = (char *)t + need[i].off;
		int rc = need[i].harness ? cp_proc_find_program(need[i].name, dst, CP_REAL_TOOL_MAX)
					 : cp_proc_find_tool(need[i].name, dst, CP_REAL_TOOL_MAX);

		if (rc)
			return cp_diag_set(diag, -CP_ENOENT,
					   need[i].harness
						   ? "%s not found next to the cachepressure program "
						     "(build it: make build)"
						   : "%s not found (Debian package %s)",
					   need[i].name, need[i].package);
	}
	return 0;
}

/* Inside a lab guest (guest.h): the disk exists and is formatted; no
 * losetup or mkfs, and the work directory (the mount point's parent) is
 * on the initramfs, which is fine there: the guest has no other memory
 * to protect and the data lives on the virtio disk. */
static int guest_open(struct cp_real_session *s, const struct cp_real_opts *o,
		      struct cp_diag *diag)
{
	struct cp_real_tools t;
	struct stat st;
	int rc;

	rc = cp_lab_guest_verify(diag);
	if (rc)
		return rc;
	rc = cp_real_find_tools(o->fs, &t, NULL);
	if (rc == -CP_ENOENT) {
		/* losetup and mkfs are not in the initramfs: find the rest */
		memset(&t, 0, sizeof(t));
		if (cp_proc_find_tool("fs_mark", t.fs_mark, sizeof(t.fs_mark)) ||
		    cp_proc_find_program("cp-read-file", t.read_file, sizeof(t.read_file)) ||
		    cp_proc_find_program("cp-read-dir", t.read_dir, sizeof(t.read_dir)) ||
		    cp_proc_find_program("cp-balloon", t.balloon, sizeof(t.balloon)))
			return cp_diag_set(diag, -CP_ENOENT,
					   "the guest's initramfs lacks fs_mark or a harness program");
	}
	s->tools = t;
	if (stat(o->guest_disk, &st) || !S_ISBLK(st.st_mode))
		return cp_diag_set(diag, -CP_ENOENT, "--guest-disk %s: not a block device",
				   o->guest_disk);
	if (mkdir(o->workdir, 0700) && errno != EEXIST)
		return cp_diag_set(diag, -CP_ESYS, "mkdir %s: %s", o->workdir, strerror(errno));
	snprintf(s->wd.path, sizeof(s->wd.path), "%s", o->workdir);
	s->wd.created = false;
	return 0;
}

int cp_real_session_open(struct cp_real_session *s, const struct cp_real_opts *o,
			 const struct cp_real_plan *p, struct cp_diag *diag)
{
	uint64_t avail, need;
	struct utsname u;
	struct stat st;
	int rc;

	memset(s, 0, sizeof(*s));
	s->opts = *o;
	rc = cp_lab_admit(o->guest_disk,
			  "it makes a filesystem on a loop device, mounts it and confines memory",
			  diag);
	if (rc)
		return rc;
	if (o->guest_disk) {
		rc = guest_open(s, o, diag);
		if (rc)
			return rc;
		goto checks;
	}
	rc = cp_real_find_tools(o->fs, &s->tools, diag);
	if (rc)
		return rc;
	if (stat("/dev/loop-control", &st))
		return cp_diag_set(diag, -CP_ENOENT,
				   "no /dev/loop-control: loop devices are not available");
checks:
	if (uname(&u) == 0)
		snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	if (o->confine == CP_CONFINE_MEMCG) {
		rc = cp_cgroup_detect("/proc/self/mountinfo", &s->cgsys, diag);
		if (rc)
			return rc;
	}
	rc = cp_meminfo_available("/proc/meminfo", &avail, diag);
	if (rc)
		return rc;
	if (o->confine == CP_CONFINE_GLOBAL) {
		/* Page cache is dropped before the balloon inflates; judge by
		 * what is available now plus what dropping may free later. */
		rc = cp_balloon_size_headroom(avail, o->mem_bytes,
					      o->guest_disk ? CP_LAB_GUEST_HEADROOM_BYTES
							    : CP_BALLOON_HEADROOM_BYTES,
					      &need, diag);
		if (rc)
			return rc;
	} else if (avail < o->mem_bytes) {
		return cp_diag_set(diag, -CP_ENOSPC,
				   "--mem %" PRIu64 " MiB is more than MemAvailable (%" PRIu64
				   " MiB): the limit would never be reached",
				   o->mem_bytes >> 20, avail >> 20);
	}
	if (o->guest_disk)
		return 0;
	return cp_real_workdir_open(o->workdir, cp_real_plan_disk_bytes(p), &s->wd, diag);
}

int cp_real_workdir_open(const char *dir, uint64_t disk_bytes, struct cp_workdir *wd,
			 struct cp_diag *diag)
{
	uint64_t free_bytes;
	int rc = cp_workdir_prepare(dir, wd, diag);

	if (rc)
		return rc;
	rc = cp_workdir_free_bytes(wd, &free_bytes, diag);
	if (!rc && free_bytes < disk_bytes + 512 * MIB)
		rc = cp_diag_set(diag, -CP_ENOSPC,
				 "%s has %" PRIu64 " MiB free; the run needs about %" PRIu64
				 " MiB + 512 MiB",
				 wd->path, free_bytes >> 20, disk_bytes >> 20);
	if (rc)
		cp_workdir_release(wd);
	return rc;
}

void cp_real_session_close(struct cp_real_session *s)
{
	cp_workdir_release(&s->wd);
}

