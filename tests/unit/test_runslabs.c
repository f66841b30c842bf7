/*
 * test_runslabs.c - the slab geometry the real runs recorded (counters
 * cp_slab_<role>_*) into the model's filesystem profile: a cache counts
 * when every run that recorded it agrees; runs that disagree leave the
 * profile's; a run without the counters changes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "model/fs_profile.h"
#include "report/runslabs.h"

/* the counters harness/lib/sample.c records for one cache */
static void record(struct cp_run_result *r, const char *role, int64_t size, int64_t per,
		   int64_t pages)
{
	char name[64];

	snprintf(name, sizeof(name), "cp_slab_%s_object_size", role);
	assert_int_equal(cp_run_result_set_counter(r, name, size), 0);
	snprintf(name, sizeof(name), "cp_slab_%s_objects_per_slab", role);
	assert_int_equal(cp_run_result_set_counter(r, name, per), 0);
	snprintf(name, sizeof(name), "cp_slab_%s_pages_per_slab", role);
	assert_int_equal(cp_run_result_set_counter(r, name, pages), 0);
}

/* 6.18's /proc/slabinfo (measured here): dentry 192 21 1, xfs_inode
 * 1024 16 4, xfs_ili 208 19 1. */
static void record_6_18(struct cp_run_result *r)
{
	record(r, "dentry", 192, 21, 1);
	record(r, "inode", 1024, 16, 4);
	record(r, "log_item", 208, 19, 1);
}

/* Two runs that agree and one that recorded nothing (an older JSON):
 * the geometry of the two, from 2 runs. */
static void agreeing_runs_give_their_geometry(void **state)
{
	struct cp_run_result runs[3];
	struct cp_run_slabs s;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		cp_run_result_init(&runs[i]);
	record_6_18(&runs[0]);
	record_6_18(&runs[2]);
	cp_run_slabs_from_runs(runs, 3, &s);
	assert_int_equal(s.nr_runs, 2);
	assert_false(s.disagree);
	assert_true(s.role[CP_FS_SLAB_INODE].present);
	assert_int_equal(s.role[CP_FS_SLAB_INODE].object_size, 1024);
	assert_int_equal(s.role[CP_FS_SLAB_INODE].objects_per_slab, 16);
	assert_int_equal(s.role[CP_FS_SLAB_INODE].pages_per_slab, 4);
	assert_int_equal(s.role[CP_FS_SLAB_LOG_ITEM].object_size, 208);
	for (i = 0; i < 3; i++)
		cp_run_result_release(&runs[i]);
}

/* Runs on different kernels: the inode cache they disagree on is not
 * taken (the profile keeps its own), the dentry they agree on is. */
static void disagreeing_runs_leave_that_cache(void **state)
{
	struct cp_run_result runs[2];
	struct cp_run_slabs s;

	(void)state;
	cp_run_result_init(&runs[0]);
	cp_run_result_init(&runs[1]);
	record_6_18(&runs[0]);
	record(&runs[1], "dentry", 192, 21, 1);
	record(&runs[1], "inode", 960, 17, 4);
	cp_run_slabs_from_runs(runs, 2, &s);
	assert_true(s.disagree);
	assert_false(s.role[CP_FS_SLAB_INODE].present);
	assert_true(s.role[CP_FS_SLAB_DENTRY].present);
	assert_true(s.role[CP_FS_SLAB_LOG_ITEM].present); /* only run 0 has it */
	cp_run_result_release(&runs[0]);
	cp_run_result_release(&runs[1]);
}

/* Applied to the built-in xfs profile (xfs_inode 960 B x 16, xfs_ili
 * 176 B x 23): the runs' objects; a run with none applies nothing. */
static void apply_gives_the_profile_the_runs_objects(void **state)
{
	struct cp_fs_profile p = *cp_fs_profile_find("xfs"), before = p;
	struct cp_run_result r;
	struct cp_run_slabs s;
	struct cp_diag d = { "" };

	(void)state;
	cp_run_result_init(&r);
	cp_run_slabs_from_runs(&r, 1, &s);
	assert_int_equal(s.nr_runs, 0);
	assert_int_equal(cp_run_slabs_apply(&s, &p, &d), 0);
	assert_memory_equal(&p, &before, sizeof(p));
	record_6_18(&r);
	cp_run_slabs_from_runs(&r, 1, &s);
	assert_int_equal(cp_run_slabs_apply(&s, &p, &d), 0);
	assert_int_equal(p.inode.object_size, 1024);
	assert_int_equal(p.inode.objects_per_slab, 16);
	assert_int_equal(p.inode.order, 2);
	assert_int_equal(p.inode_log_item.object_size, 208);
	assert_int_equal(p.inode_log_item.objects_per_slab, 19);
	cp_run_result_release(&r);
}

/* Geometry no slab can have (3 pages) is refused whole: the profile
 * keeps every cache as it was, the message names the key. */
static void apply_refuses_impossible_geometry_whole(void **state)
{
	struct cp_fs_profile p = *cp_fs_profile_find("xfs"), before = p;
	struct cp_run_result r;
	struct cp_run_slabs s;
	struct cp_diag d = { "" };

	(void)state;
	cp_run_result_init(&r);
	record(&r, "dentry", 200, 20, 1);
	record(&r, "inode", 1024, 16, 3);
	cp_run_slabs_from_runs(&r, 1, &s);
	assert_int_equal(cp_run_slabs_apply(&s, &p, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "inode_slab_order"));
	assert_memory_equal(&p, &before, sizeof(p));
	cp_run_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(agreeing_runs_give_their_geometry),
		cmocka_unit_test(disagreeing_runs_leave_that_cache),
		cmocka_unit_test(apply_gives_the_profile_the_runs_objects),
		cmocka_unit_test(apply_refuses_impossible_geometry_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
