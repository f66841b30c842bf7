/*
 * test_real_cgroup.c - finding the memory controller and handling the one
 * cgroup the harness creates, on a fake sysfs root in a temporary
 * directory (harness/lib/cgroup.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cachepressure/error.h>

#include "cgroup.h"
#include "core/alloc.h"
#include "kfile.h"

struct fake {
	char root[256];
	char mountinfo[320];
	char v1[320];
	char v2[320];
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void join(char *out, size_t len, const char *a, const char *b)
{
	if ((size_t)snprintf(out, len, "%s/%s", a, b) >= len)
		fail_msg("path too long: %s/%s", a, b);
}

/* A fake root with a v1 memory hierarchy at ROOT/memory and a cgroup2
 * mount at ROOT/unified (controllers given per test). */
static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	char buf[2048];

	assert_non_null(f);
	strcpy(f->root, "/tmp/cp-test-cgroup-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	join(f->mountinfo, sizeof(f->mountinfo), f->root, "mountinfo");
	join(f->v1, sizeof(f->v1), f->root, "memory");
	join(f->v2, sizeof(f->v2), f->root, "unified");
	assert_int_equal(mkdir(f->v1, 0755), 0);
	assert_int_equal(mkdir(f->v2, 0755), 0);
	snprintf(buf, sizeof(buf),
		 "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		 "30 25 0:26 / %s rw,nosuid shared:10 - cgroup cgroup rw,cpu\n"
		 "31 25 0:27 / %s rw,nosuid shared:11 - cgroup cgroup rw,memory\n"
		 "32 25 0:28 / %s rw,nosuid shared:12 - cgroup2 cgroup2 rw\n",
		 f->root, f->v1, f->v2);
	put(f->mountinfo, buf);
	*state = f;
	return 0;
}

static void rm_file(const char *dir, const char *name)
{
	char p[512];

	join(p, sizeof(p), dir, name);
	unlink(p);
}

static int teardown(void **state)
{
	struct fake *f = *state;
	char p[512];

	rm_file(f->v2, "cgroup.controllers");
	rm_file(f->v2, "cgroup.subtree_control");
	join(p, sizeof(p), f->root, "with space");
	rmdir(p);
	rmdir(f->v1);
	rmdir(f->v2);
	unlink(f->mountinfo);
	rmdir(f->root);
	free(f);
	return 0;
}

static void controllers(struct fake *f, const char *ctl, const char *subtree)
{
	char p[512];

	join(p, sizeof(p), f->v2, "cgroup.controllers");
	put(p, ctl);
	join(p, sizeof(p), f->v2, "cgroup.subtree_control");
	put(p, subtree);
}

static void v1_is_used_when_cgroup2_lacks_memory(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys;

	controllers(f, "cpuset cpu io pids\n", "cpu\n");
	assert_int_equal(cp_cgroup_detect(f->mountinfo, &sys, NULL), 0);
	assert_int_equal(sys.version, 1);
	assert_string_equal(sys.mount, f->v1);
}

static void v2_is_preferred_when_it_offers_memory(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys;

	controllers(f, "cpuset cpu io memory pids\n", "cpu memory\n");
	assert_int_equal(cp_cgroup_detect(f->mountinfo, &sys, NULL), 0);
	assert_int_equal(sys.version, 2);
	assert_string_equal(sys.mount, f->v2);
}

/* memory in cgroup.controllers but not enabled for children: the harness
 * would have to write subtree_control, which it never does -> v1. */
static void v2_without_subtree_memory_falls_back_to_v1(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys;

	controllers(f, "cpu memory\n", "cpu\n");
	assert_int_equal(cp_cgroup_detect(f->mountinfo, &sys, NULL), 0);
	assert_int_equal(sys.version, 1);
}

static void no_memory_controller_is_reported(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys = { 7, "untouched" };
	struct cp_diag d = { "" };
	char buf[1024];

	controllers(f, "cpu memory\n", "cpu\n");
	snprintf(buf, sizeof(buf), "32 25 0:28 / %s rw - cgroup2 cgroup2 rw\n", f->v2);
	put(f->mountinfo, buf);
	assert_int_equal(cp_cgroup_detect(f->mountinfo, &sys, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "subtree_control"));
	assert_int_equal(sys.version, 7);
	put(f->mountinfo, "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
	assert_int_equal(cp_cgroup_detect(f->mountinfo, &sys, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "no memory cgroup controller"));
}

/* proc(5): a space in a mount point appears as \040 in mountinfo. */
static void mount_points_are_unescaped(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys;
	char dir[512], buf[1024];

	join(dir, sizeof(dir), f->root, "with space");
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(buf, sizeof(buf), "31 25 0:26 / %s/with\\040space rw - cgroup cgroup rw,memory\n",
		 f->root);
	put(f->mountinfo, buf);
	assert_int_equal(cp_cgroup_detect(f->mountinfo, &sys, NULL), 0);
	assert_int_equal(sys.version, 1);
	assert_string_equal(sys.mount, dir);
}

/* /proc/self/cgroup: the v1 line listing "memory" wins over the v2
 * "0::" line (cgroup v1 with a unified line, as on these VMs); v2 only:
 * its path; neither: -CP_ENOENT; a path that does not fit: -CP_ERANGE. */
static void memory_path_comes_from_proc_cgroup(void **state)
{
	char path[32];

	(void)state;
	assert_int_equal(cp_cgroup_memory_path("5:devices:/\n4:memory,hugetlb:/process_api/ab\n"
					       "0::/\n",
					       path, sizeof(path)),
			 0);
	assert_string_equal(path, "/process_api/ab");
	assert_int_equal(cp_cgroup_memory_path("0::/user.slice/session-1.scope\n", path,
					       sizeof(path)),
			 0);
	assert_string_equal(path, "/user.slice/session-1.scope");
	assert_int_equal(cp_cgroup_memory_path("0::/\n4:memory:/\n", path, sizeof(path)), 0);
	assert_string_equal(path, "/");
	assert_int_equal(cp_cgroup_memory_path("5:devices:/x\n", path, sizeof(path)), -CP_ENOENT);
	assert_int_equal(cp_cgroup_memory_path("", path, sizeof(path)), -CP_ENOENT);
	assert_int_equal(cp_cgroup_memory_path("4:memory:/a-path-longer-than-32-bytes-here\n", path,
					       sizeof(path)),
			 -CP_ERANGE);
}

static void create_makes_a_cachepressure_dir_under_the_mount(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys = { 1, "" };
	struct cp_cgroup cg;
	char want[512];
	struct stat st;

	strcpy(sys.mount, f->v1);
	assert_int_equal(cp_cgroup_create(&sys, "cachepressure-42-1", &cg, NULL), 0);
	join(want, sizeof(want), f->v1, "cachepressure-42-1");
	assert_string_equal(cg.path, want);
	strcat(want, "/cgroup.procs");
	assert_string_equal(cg.procs, want);
	assert_true(cg.created);
	assert_int_equal(stat(cg.path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* a second create of the same name: busy, not adopted */
	{
		struct cp_cgroup again;

		assert_int_equal(cp_cgroup_create(&sys, "cachepressure-42-1", &again, NULL),
				 -CP_EBUSY);
	}
	assert_int_equal(cp_cgroup_remove(&cg, NULL), 0);
	assert_false(cg.created);
	assert_int_not_equal(stat(want, &st), 0);
}

static void names_without_the_prefix_are_refused(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys = { 1, "" };
	struct cp_cgroup cg;
	struct cp_diag d = { "" };

	strcpy(sys.mount, f->v1);
	assert_int_equal(cp_cgroup_create(&sys, "system.slice", &cg, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "system.slice"));
	assert_int_equal(cp_cgroup_create(&sys, "cachepressure/../x", &cg, &d), -CP_EINVAL);
}

/* v1 memory.limit_in_bytes, v2 memory.max; the file must already exist
 * (the kernel makes it): the harness never creates control files. */
static void limit_goes_to_the_version_s_file(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys = { 1, "" };
	struct cp_cgroup cg;
	char p[1024], *text;

	strcpy(sys.mount, f->v1);
	assert_int_equal(cp_cgroup_create(&sys, "cachepressure-1", &cg, NULL), 0);
	assert_int_equal(cp_cgroup_set_limit(&cg, 268435456, NULL), -CP_ENOENT);
	join(p, sizeof(p), cg.path, "memory.limit_in_bytes");
	put(p, "9223372036854771712\n");
	assert_int_equal(cp_cgroup_set_limit(&cg, 268435456, NULL), 0);
	assert_int_equal(cp_kfile_read(p, &text, NULL), 0);
	assert_string_equal(text, "268435456");
	cp_free(text);
	unlink(p);
	cg.version = 2;
	assert_int_equal(cp_cgroup_file(&cg, "limit", p, sizeof(p)), 0);
	assert_non_null(strstr(p, "/memory.max"));
	assert_int_equal(cp_cgroup_file(&cg, "failcnt", p, sizeof(p)), -CP_ENOENT);
	assert_int_equal(cp_cgroup_remove(&cg, NULL), 0);
}

static void usage_and_stat_are_read(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup_sys sys = { 2, "" };
	struct cp_cgroup cg;
	struct cp_kv kv = { 0 };
	char p[1024];
	uint64_t v;
	int64_t x;

	strcpy(sys.mount, f->v2);
	assert_int_equal(cp_cgroup_create(&sys, "cachepressure-2", &cg, NULL), 0);
	join(p, sizeof(p), cg.path, "memory.current");
	put(p, "123456\n");
	assert_int_equal(cp_cgroup_read_u64(&cg, "usage", &v, NULL), 0);
	assert_int_equal(v, 123456);
	put(p, "max\n");
	assert_int_equal(cp_cgroup_read_u64(&cg, "usage", &v, NULL), 0);
	assert_true(v == UINT64_MAX);
	unlink(p);
	join(p, sizeof(p), cg.path, "memory.stat");
	put(p, "anon 4096\nfile 8192\nslab_reclaimable 640\npgscan 17\n");
	assert_int_equal(cp_cgroup_read_stat(&cg, &kv, NULL), 0);
	assert_int_equal(cp_kv_get(&kv, "file", &x), 0);
	assert_int_equal(x, 8192);
	assert_int_equal(cp_kv_get(&kv, "pgscan", &x), 0);
	assert_int_equal(x, 17);
	cp_kv_release(&kv);
	unlink(p);
	assert_int_equal(cp_cgroup_remove(&cg, NULL), 0);
}

/* Only a cgroup we created, named cachepressure*, is ever removed. */
static void remove_touches_only_our_own_cgroup(void **state)
{
	struct fake *f = *state;
	struct cp_cgroup cg;
	char other[512];
	struct stat st;

	join(other, sizeof(other), f->v1, "someone-else");
	assert_int_equal(mkdir(other, 0755), 0);
	memset(&cg, 0, sizeof(cg));
	strcpy(cg.path, other);
	cg.version = 1;
	assert_int_equal(cp_cgroup_remove(&cg, NULL), 0); /* not created: no-op */
	assert_int_equal(stat(other, &st), 0);
	cg.created = true;                                /* tampered: still refused */
	assert_int_equal(cp_cgroup_remove(&cg, NULL), -CP_EINVAL);
	assert_int_equal(stat(other, &st), 0);
	rmdir(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(v1_is_used_when_cgroup2_lacks_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(v2_is_preferred_when_it_offers_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(v2_without_subtree_memory_falls_back_to_v1, setup,
						teardown),
		cmocka_unit_test_setup_teardown(no_memory_controller_is_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(mount_points_are_unescaped, setup, teardown),
		cmocka_unit_test(memory_path_comes_from_proc_cgroup),
		cmocka_unit_test_setup_teardown(create_makes_a_cachepressure_dir_under_the_mount, setup,
						teardown),
		cmocka_unit_test_setup_teardown(names_without_the_prefix_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(limit_goes_to_the_version_s_file, setup, teardown),
		cmocka_unit_test_setup_teardown(usage_and_stat_are_read, setup, teardown),
		cmocka_unit_test_setup_teardown(remove_touches_only_our_own_cgroup, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
