/*
 * session.c - what `cachepressure real` checks before it touches
 * anything: root, the programs it runs, loop devices, the memory cgroup
 * controller, available memory, the work directory and its free space.
 */
#include "run.h"

#include <cachepressure/error.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "balloon.h"
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

int cp_real_session_open(struct cp_real_session *s, const struct cp_real_opts *o,
			 const struct cp_real_plan *p, struct cp_diag *diag)
{
	uint64_t avail, need, free_bytes;
	struct utsname u;
	struct stat st;
	int rc;

	memset(s, 0, sizeof(*s));
	s->opts = *o;
	if (geteuid() != 0)
		return cp_diag_set(diag, -CP_EPERM,
				   "needs root (it makes a filesystem on a loop device, mounts it "
				   "and confines memory); nothing was touched");
	rc = cp_real_find_tools(o->fs, &s->tools, diag);
	if (rc)
		return rc;
	if (stat("/dev/loop-control", &st))
		return cp_diag_set(diag, -CP_ENOENT,
				   "no /dev/loop-control: loop devices are not available");
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
		rc = cp_balloon_size(avail, o->mem_bytes, &need, diag);
		if (rc)
			return rc;
	} else if (avail < o->mem_bytes) {
		return cp_diag_set(diag, -CP_ENOSPC,
				   "--mem %" PRIu64 " MiB is more than MemAvailable (%" PRIu64
				   " MiB): the limit would never be reached",
				   o->mem_bytes >> 20, avail >> 20);
	}
	rc = cp_workdir_prepare(o->workdir, &s->wd, diag);
	if (rc)
		return rc;
	rc = cp_workdir_free_bytes(&s->wd, &free_bytes, diag);
	if (!rc && free_bytes < cp_real_plan_disk_bytes(p) + 512 * MIB)
		rc = cp_diag_set(diag, -CP_ENOSPC,
				 "%s has %" PRIu64 " MiB free; the run needs about %" PRIu64
				 " MiB + 512 MiB",
				 s->wd.path, free_bytes >> 20, cp_real_plan_disk_bytes(p) >> 20);
	if (rc) {
		cp_workdir_release(&s->wd);
		return rc;
	}
	return 0;
}

void cp_real_session_close(struct cp_real_session *s)
{
	cp_workdir_release(&s->wd);
}

