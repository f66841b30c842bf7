/*
 * test_fs_profile_file.c - filesystem profiles read from INI files:
 * profiles/xfs.ini and profiles/ext4.ini of the source tree (CP_SOURCE_DIR,
 * set by CMake) against the numbers in docs/profiles.md, bad input with
 * file/line/key/value in the message, --set overrides, name resolution.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cachepressure/error.h>

#include "model/fs_profile.h"
#include "model/fs_profile_file.h"
#include "model/memory.h"
#include "model/namei.h"
#include "model/profile.h"
#include "model/vmstat.h"

#ifndef CP_SOURCE_DIR
#error "CP_SOURCE_DIR must name the source tree (set in CMakeLists.txt)"
#endif

static void source_profile(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/profiles/%s.ini", CP_SOURCE_DIR, name);
}

static void load_source_profile(const char *name, struct cp_fs_profile *p,
				struct cp_fs_costs *c)
{
	char path[1024];
	struct cp_diag d = { "" };
	int rc;

	source_profile(path, sizeof(path), name);
	rc = cp_fs_profile_load(path, p, c, &d);
	if (rc)
		fail_msg("%s", d.msg);
}

/* docs/profiles.md §3, xfs column: inode 960 B, 17 per order-2 slab
 * (17 x 960 = 16320 <= 16384 = 4096 << 2); cluster 16384 / 512 = 32
 * inodes; xfs_ili 168 B, 24 per order-0 slab (24 x 168 = 4032 <= 4096). */
static void xfs_ini_gives_the_documented_xfs_geometry(void **state)
{
	struct cp_fs_profile p;
	struct cp_fs_costs c;

	(void)state;
	load_source_profile("xfs", &p, &c);
	assert_string_equal(p.name, "xfs");
	assert_int_equal(p.kind, CP_FS_XFS); /* second_stage = yes */
	assert_string_equal(p.dentry.name, "dentry");
	assert_int_equal(p.dentry.object_size, 192);
	assert_int_equal(p.dentry.objects_per_slab, 21);
	assert_int_equal(p.dentry.order, 0);
	assert_int_equal(p.dname_inline_len, 32);
	assert_string_equal(p.external_name.name, "kmalloc-64");
	assert_int_equal(p.external_name.object_size, 64);
	assert_int_equal(p.external_name.objects_per_slab, 64);
	assert_string_equal(p.inode.name, "xfs_inode");
	assert_int_equal(p.inode.object_size, 960);
	assert_int_equal(p.inode.objects_per_slab, 17);
	assert_int_equal(p.inode.order, 2);
	assert_string_equal(p.inode_log_item.name, "xfs_ili");
	assert_int_equal(p.inode_log_item.object_size, 168);
	assert_int_equal(p.inode_log_item.objects_per_slab, 24);
	assert_int_equal(p.inode_log_item.order, 0);
	assert_int_equal(p.disk_inode_bytes, 512);
	assert_int_equal(p.inode_cluster_bytes, 16384);
	assert_int_equal(p.dir_block_bytes, 4096); /* mkfs.xfs -n size default */
	assert_int_equal(p.inodes_per_cluster, 32);
	/* memcg accounting as ref §9.5: all but xfs_ili */
	assert_true(p.dentry.accounted);
	assert_true(p.external_name.accounted);
	assert_true(p.inode.accounted);
	assert_false(p.inode_log_item.accounted);
	assert_true(cp_fs_profile_check(&p));
}

/* docs/profiles.md §3, create_cpu_ns .. inode_read_ns of xfs. */
static void xfs_ini_gives_the_measured_xfs_costs(void **state)
{
	struct cp_fs_profile p;
	struct cp_fs_costs c;

	(void)state;
	load_source_profile("xfs", &p, &c);
	assert_int_equal(c.create_cpu_ns, 24960);
	assert_int_equal(c.mkdir_lookup_ns, 1140);
	assert_int_equal(c.stat_cpu_ns, 1840);
	assert_int_equal(c.inode_read_ns, 9050);
}

/* docs/profiles.md §3, ext4 column: ext4_inode_cache 1088 B, 30 per
 * order-3 slab (30 x 1088 = 32640 <= 32768); no log item; 4096 / 256 =
 * 16 inodes per inode table block; no second stage. */
static void ext4_ini_gives_the_documented_ext4_geometry(void **state)
{
	struct cp_fs_profile p;
	struct cp_fs_costs c;

	(void)state;
	load_source_profile("ext4", &p, &c);
	assert_string_equal(p.name, "ext4");
	assert_int_equal(p.kind, CP_FS_EXT4);
	assert_string_equal(p.inode.name, "ext4_inode_cache");
	assert_int_equal(p.inode.object_size, 1088);
	assert_int_equal(p.inode.objects_per_slab, 30);
	assert_int_equal(p.inode.order, 3);
	assert_int_equal(p.inode_log_item.object_size, 0);
	assert_int_equal(p.inode_log_item.objects_per_slab, 0); /* namei: no ili cache */
	assert_int_equal(p.inodes_per_cluster, 16);
	assert_int_equal(p.dir_block_bytes, 0); /* no XFS buffer cache */
	assert_int_equal(c.create_cpu_ns, 20160);
	assert_int_equal(c.stat_cpu_ns, 1990);
	assert_int_equal(c.inode_read_ns, 5480);
	assert_true(cp_fs_profile_check(&p));
}

/* The keys no file gives keep the built-in profile's kernel constants:
 * offsetof(struct external_name, name[1]) = 17, XFS_LOOKUP_BATCH = 32,
 * XFS allocates a created inode inside the transaction (NOFS) but a
 * looked-up one with GFP_KERNEL; ext4_alloc_inode() is always NOFS. */
static void constants_not_in_the_file_come_from_the_builtin_profile(void **state)
{
	struct cp_fs_profile x, e;
	struct cp_fs_costs c;

	(void)state;
	load_source_profile("xfs", &x, &c);
	load_source_profile("ext4", &e, &c);
	assert_int_equal(x.external_name_overhead, 17);
	assert_int_equal(x.reclaim_batch, 32);
	assert_true(x.create_inode_nofs);
	assert_false(x.iget_inode_nofs);
	assert_int_equal(e.external_name_overhead, 17);
	assert_true(e.create_inode_nofs);
	assert_true(e.iget_inode_nofs);
}

static void builtin_profiles_pass_the_check(void **state)
{
	(void)state;
	assert_true(cp_fs_profile_check(cp_fs_profile_find("xfs")));
	assert_true(cp_fs_profile_check(cp_fs_profile_find("ext4")));
}

/* The model mounts a file profile: the slab caches get the file's
 * geometry (xfs_inode 17 per slab, xfs_ili present). The profile is a
 * copy on the stack: it owns its strings. */
static void loaded_xfs_profile_mounts_the_model_fs(void **state)
{
	struct cp_mem_params mp = {
		.total_pages = 4096,
		.min_free_kbytes = 128,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.max_reclaim_retries = 16,
	};
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_fs fs;
	struct cp_fs_params fp;
	struct cp_diag d = { "" };

	(void)state;
	load_source_profile("xfs", &p, &c);
	memset(&vs, 0, sizeof(vs));
	assert_int_equal(cp_mem_init(&mem, &mp, &vs, NULL), 0);
	fp = (struct cp_fs_params){
		.fs = &p,
		.kernel = cp_kernel_profile_find("linux-4.11"),
		.policy = CP_POLICY_LEGACY,
		.mem = &mem,
		.vmstat = &vs,
	};
	assert_non_null(fp.kernel);
	assert_int_equal(cp_fs_init(&fs, &fp, &d), 0);
	assert_string_equal(fs.inode_cache.name, "xfs_inode");
	assert_int_equal(fs.inode_cache.objects_per_slab, 17);
	assert_true(fs.has_ili);
	assert_int_equal(fs.ili_cache.object_size, 168);
	cp_fs_release(&fs);
	cp_mem_release(&mem);
}

/* ---- bad input ------------------------------------------------------- */

/* A valid profile, one key per line; line numbers in the comments. */
static const char *const good_lines[] = {
	"; unit-test filesystem profile: round numbers", /* 1 */
	"[fs]",                                          /* 2 */
	"name = xfs",                                    /* 3 */
	"description = unit xfs",                        /* 4 */
	"[objects]",                                     /* 5 */
	"dentry_size = 192",                             /* 6 */
	"dentry_per_slab = 21",                          /* 7 */
	"dentry_slab_order = 0",                         /* 8 */
	"dname_inline_len = 32",                         /* 9 */
	"external_name_size = 64",                       /* 10 */
	"external_name_per_slab = 64",                   /* 11 */
	"external_name_slab_order = 0",                  /* 12 */
	"inode_size = 1K",                               /* 13 */
	"inode_per_slab = 16",                           /* 14 */
	"inode_slab_order = 2",                          /* 15 */
	"log_item_size = 200",                           /* 16 */
	"log_item_per_slab = 20",                        /* 17 */
	"log_item_slab_order = 0",                       /* 18 */
	"second_stage = yes",                            /* 19 */
	"disk_inode_size = 512",                         /* 20 */
	"inode_cluster_size = 8K",                       /* 21 */
	"dir_block_size = 4K",                           /* 22 */
	"[create]",                                      /* 23 */
	"create_cpu_ns = 20us",                          /* 24 */
	"mkdir_lookup_ns = 1000",                        /* 25 */
	"stat_cpu_ns = 2us",                             /* 26 */
	"inode_read_ns = 10000",                         /* 27 */
};
#define NR_GOOD_LINES (sizeof(good_lines) / sizeof(good_lines[0]))

/* Writes good_lines to a temp file with line `line` (1-based) replaced
 * by `repl` (NULL: the line is left out; line 0: nothing replaced) and
 * `extra` appended. */
static void write_profile(char *path, size_t len, unsigned line, const char *repl,
			  const char *extra)
{
	size_t i;
	int fd;
	FILE *f;

	snprintf(path, len, "/tmp/cp-test-fsprof-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < NR_GOOD_LINES; i++) {
		if (i + 1 == line) {
			if (repl)
				fprintf(f, "%s\n", repl);
		} else {
			fprintf(f, "%s\n", good_lines[i]);
		}
	}
	if (extra)
		fputs(extra, f);
	fclose(f);
}

/* Loads the variant; on failure checks that the output was not touched
 * and returns the message after the path in msg. */
static int load_variant(unsigned line, const char *repl, const char *extra, char *msg,
			size_t len, struct cp_fs_profile *p, struct cp_fs_costs *c)
{
	char path[64];
	struct cp_fs_profile sp;
	struct cp_fs_costs sc;
	struct cp_diag d = { "" };
	int rc;

	memset(p, 0x5a, sizeof(*p));
	memset(c, 0x5a, sizeof(*c));
	sp = *p;
	sc = *c;
	write_profile(path, sizeof(path), line, repl, extra);
	rc = cp_fs_profile_load(path, p, c, &d);
	unlink(path);
	if (rc) {
		assert_memory_equal(d.msg, path, strlen(path));
		snprintf(msg, len, "%s", d.msg + strlen(path));
		assert_memory_equal(p, &sp, sizeof(sp));
		assert_memory_equal(c, &sc, sizeof(sc));
	}
	return rc;
}

static int load_bad(unsigned line, const char *repl, const char *extra, char *msg, size_t len)
{
	struct cp_fs_profile p;
	struct cp_fs_costs c;

	return load_variant(line, repl, extra, msg, len, &p, &c);
}

/* The template itself loads, sizes and durations in integer units:
 * 1K = 1024 B, 8K / 512 = 16 inodes per cluster, 20us = 20000 ns. */
static void template_profile_loads_in_integer_units(void **state)
{
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	char msg[600] = "";

	(void)state;
	assert_int_equal(load_variant(0, NULL, NULL, msg, sizeof(msg), &p, &c), 0);
	assert_string_equal(p.description, "unit xfs");
	assert_int_equal(p.inode.object_size, 1024);
	assert_int_equal(p.inode_cluster_bytes, 8192);
	assert_int_equal(p.inodes_per_cluster, 16);
	assert_int_equal(p.dir_block_bytes, 4096);
	assert_int_equal(c.create_cpu_ns, 20000);
	assert_int_equal(c.mkdir_lookup_ns, 1000);
	assert_int_equal(c.stat_cpu_ns, 2000);
	assert_true(cp_fs_profile_check(&p));
}

static void unknown_key_names_file_line_section_and_key(void **state)
{
	char msg[600];

	(void)state;
	assert_int_equal(load_bad(14, "inodes_per_slab = 16", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":14: unknown key 'inodes_per_slab' in [objects]");
}

static void unknown_section_is_refused(void **state)
{
	char msg[600];

	(void)state;
	assert_int_equal(load_bad(0, NULL, "[mount]\nnoatime = yes\n", msg, sizeof(msg)),
			 -CP_EINVAL);
	/* lines 28 and 29 */
	assert_string_equal(msg, ":29: unknown section [mount] (expected [fs], [objects], [log] or [create])");
}

static void bad_size_names_file_line_key_and_value(void **state)
{
	char msg[600];

	(void)state;
	assert_int_equal(load_bad(13, "inode_size = 960Q", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":13: key 'inode_size' in [objects]: bad value '960Q' "
				 "(expected a number of bytes like 192 or 16K)");
}

static void missing_key_is_named(void **state)
{
	char msg[600];

	(void)state;
	assert_int_equal(load_bad(27, NULL, NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ": required key 'inode_read_ns' in [create] is missing");
}

static void missing_file_is_enoent_and_names_the_path(void **state)
{
	struct cp_fs_profile p, sp;
	struct cp_fs_costs c, sc;
	struct cp_diag d = { "" };

	(void)state;
	memset(&p, 0x5a, sizeof(p));
	memset(&c, 0x5a, sizeof(c));
	sp = p;
	sc = c;
	assert_int_equal(cp_fs_profile_load("/nonexistent/cp-fs.ini", &p, &c, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "/nonexistent/cp-fs.ini: cannot open filesystem profile"));
	assert_memory_equal(&p, &sp, sizeof(p));
	assert_memory_equal(&c, &sc, sizeof(c));
}

/* Values each key refuses on its own: the message quotes the value. */
static void bad_values_each_name_line_key_and_value(void **state)
{
	char msg[600];

	(void)state;
	/* the name picks the model (CP_FS_XFS / CP_FS_EXT4) */
	assert_int_equal(load_bad(3, "name = btrfs", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":3: key 'name' in [fs]: bad value 'btrfs' (expected xfs or ext4)");
	/* __d_alloc() kmallocs the name: 60 is no kmalloc cache */
	assert_int_equal(load_bad(10, "external_name_size = 60", NULL, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_non_null(strstr(msg, ":10: key 'external_name_size' in [objects]: bad value '60' "
				    "(expected a kmalloc size: 8, 16, 32, 64, 96"));
	assert_int_equal(load_bad(20, "disk_inode_size = 300", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":20: key 'disk_inode_size' in [objects]: bad value '300' "
				 "(expected a power of two number of bytes like 512)");
	/* MAX_ORDER 11: orders 0..10 */
	assert_int_equal(load_bad(15, "inode_slab_order = 11", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":15: key 'inode_slab_order' in [objects]: value '11' out of "
				 "range (0..10)");
	assert_int_equal(load_bad(19, "second_stage = later", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":19: key 'second_stage' in [objects]: bad value 'later' "
				 "(expected yes or no)");
	assert_int_equal(load_bad(25, "mkdir_lookup_ns = fast", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":25: key 'mkdir_lookup_ns' in [create]: bad value 'fast' "
				 "(expected nanoseconds like 1000, or a duration like 1us)");
	assert_int_equal(load_bad(0, NULL, "stat_cpu_ns = 3us\n", msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":28: key 'stat_cpu_ns' in [create] given twice (first on line 26)");
}

/* Keys that contradict each other: the message names the line of the
 * key it blames, and the values. */
static void contradicting_keys_name_the_line_and_values(void **state)
{
	char msg[600];

	(void)state;
	/* 17 x 1024 = 17408 > 4096 << 2 = 16384 */
	assert_int_equal(load_bad(14, "inode_per_slab = 17", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":14: key 'inode_per_slab' in [objects]: 17 objects of 1024 "
				 "bytes (inode_size) do not fit an order-2 slab of 16384 bytes "
				 "(inode_slab_order)");
	/* the name says XFS: evicted inodes always go to XFS inode reclaim */
	assert_int_equal(load_bad(19, "second_stage = no", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_non_null(strstr(msg, ":19: key 'second_stage' in [objects]: value 'no' "
				    "contradicts name 'xfs'"));
	/* 1000 / 512 is not whole */
	assert_int_equal(load_bad(21, "inode_cluster_size = 1000", NULL, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ":21: key 'inode_cluster_size' in [objects]: 1000 bytes is not a "
				 "whole number of 512-byte disk inodes (disk_inode_size)");
	/* log_item_size 0 = no log item, yet 20 per slab */
	assert_int_equal(load_bad(16, "log_item_size = 0", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_non_null(strstr(msg, ":17: key 'log_item_per_slab' in [objects]: log_item_size 0 "
				    "means no log item"));
	/* 17 + 32 = 49 bytes do not fit kmalloc-32 */
	assert_int_equal(load_bad(10, "external_name_size = 32", NULL, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_non_null(strstr(msg, ":10: key 'external_name_size' in [objects]: 32 bytes cannot "
				    "hold the shortest external name (17 + dname_inline_len 32"));
	/* mkfs.xfs -n size: a power of two, at least 1024 with crc=1 */
	assert_int_equal(load_bad(22, "dir_block_size = 3000", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":22: key 'dir_block_size' in [objects]: value 3000 is not an "
				 "XFS directory block size (mkfs.xfs -n size: a power of two from "
				 "1024 to 65536)");
	assert_int_equal(load_bad(22, "dir_block_size = 0", NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_non_null(strstr(msg, ":22: key 'dir_block_size' in [objects]: value 0 is not an "
				    "XFS directory block size"));
}

/* ext4 has no inode log item: a template turned into ext4 must say 0. */
static void ext4_with_a_log_item_is_refused(void **state)
{
	char path[64];
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	struct cp_diag d = { "" };
	char want[600];
	FILE *f;
	size_t i;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/cp-test-fsprof-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < NR_GOOD_LINES; i++)
		fprintf(f, "%s\n",
			i + 1 == 3 ? "name = ext4" : i + 1 == 19 ? "second_stage = no" : good_lines[i]);
	fclose(f);
	assert_int_equal(cp_fs_profile_load(path, &p, &c, &d), -CP_EINVAL);
	snprintf(want, sizeof(want),
		 "%s:16: key 'log_item_size' in [objects]: value 200, but ext4 has no per-inode "
		 "log item object (expected 0)",
		 path);
	unlink(path);
	assert_string_equal(d.msg, want);
}

/* ext4 has no XFS buffer cache: a template turned into ext4 (no log
 * item either) must give dir_block_size 0. */
static void ext4_with_a_dir_block_size_is_refused(void **state)
{
	char path[64];
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	struct cp_diag d = { "" };
	char want[600];
	FILE *f;
	size_t i;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/cp-test-fsprof-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < NR_GOOD_LINES; i++)
		fprintf(f, "%s\n",
			i + 1 == 3    ? "name = ext4"
			: i + 1 == 16 ? "log_item_size = 0"
			: i + 1 == 17 ? "log_item_per_slab = 0"
			: i + 1 == 19 ? "second_stage = no"
				      : good_lines[i]);
	fclose(f);
	assert_int_equal(cp_fs_profile_load(path, &p, &c, &d), -CP_EINVAL);
	snprintf(want, sizeof(want),
		 "%s:22: key 'dir_block_size' in [objects]: value 4096, but ext4 has no XFS "
		 "buffer cache (expected 0)",
		 path);
	unlink(path);
	assert_string_equal(d.msg, want);
}

/* inih reads lines into a fixed buffer: a longer line is refused. */
static void overlong_line_is_refused(void **state)
{
	char line[400], msg[600];

	(void)state;
	snprintf(line, sizeof(line), "description = %0300d", 7);
	assert_int_equal(load_bad(4, line, NULL, msg, sizeof(msg)), -CP_EINVAL);
	assert_non_null(strstr(msg, ":4: line longer than "));
}

/* ---- --set ------------------------------------------------------------ */

static void set_overrides_one_key_and_recomputes_what_follows(void **state)
{
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	struct cp_diag d = { "" };

	(void)state;
	load_source_profile("xfs", &p, &c);
	/* the 6.18 layout, 1024 B x 16 per order-2 slab; per_slab first, as
	 * 17 x 1024 = 17408 would not fit 16384 */
	assert_int_equal(cp_fs_profile_set(&p, &c, "objects.inode_per_slab", "16", &d), 0);
	assert_int_equal(cp_fs_profile_set(&p, &c, "objects.inode_size", "1024", &d), 0);
	assert_int_equal(p.inode.object_size, 1024);
	assert_int_equal(p.inode.objects_per_slab, 16);
	/* 16384 / 256 = 64 inodes per cluster */
	assert_int_equal(cp_fs_profile_set(&p, &c, "objects.disk_inode_size", "256", &d), 0);
	assert_int_equal(p.inodes_per_cluster, 64);
	/* kmalloc-128: 32 x 128 = 4096 per order-0 slab (64 would not fit) */
	assert_int_equal(cp_fs_profile_set(&p, &c, "objects.external_name_per_slab", "32", &d), 0);
	assert_int_equal(cp_fs_profile_set(&p, &c, "objects.external_name_size", "128", &d), 0);
	assert_string_equal(p.external_name.name, "kmalloc-128");
	assert_int_equal(cp_fs_profile_set(&p, &c, "create.create_cpu_ns", "75us", &d), 0);
	assert_int_equal(c.create_cpu_ns, 75000);
	assert_int_equal(cp_fs_profile_set(&p, &c, "fs.description", "changed", &d), 0);
	assert_string_equal(p.description, "changed");
	assert_true(cp_fs_profile_check(&p));
}

static void bad_set_names_key_and_value_and_changes_nothing(void **state)
{
	struct cp_fs_profile p, before;
	struct cp_fs_costs c, cbefore;
	struct cp_diag d = { "" };

	(void)state;
	load_source_profile("xfs", &p, &c);
	before = p;
	cbefore = c;
	assert_int_equal(cp_fs_profile_set(&p, &c, "objects.inode_size", "big", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "key 'inode_size' in [objects]: bad value 'big' "
				   "(expected a number of bytes like 192 or 16K)");
	assert_int_equal(cp_fs_profile_set(&p, &c, "objects.inode_bytes", "1K", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "unknown key 'inode_bytes' in [objects]");
	assert_int_equal(cp_fs_profile_set(&p, &c, "mount.noatime", "yes", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "unknown section [mount] in 'mount.noatime'"));
	assert_int_equal(cp_fs_profile_set(&p, &c, "inode_size", "1K", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "bad key 'inode_size' (expected section.key"));
	/* 17 x 1024 = 17408 > 16384 */
	assert_int_equal(cp_fs_profile_set(&p, &c, "objects.inode_size", "1024", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'inode_per_slab' in [objects]: 17 objects of 1024 bytes"));
	/* ext4 frees at eviction, but second_stage still says yes */
	assert_int_equal(cp_fs_profile_set(&p, &c, "fs.name", "ext4", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'second_stage' in [objects]: value 'yes' "
				    "contradicts name 'ext4'"));
	assert_int_equal(cp_fs_profile_set(&p, &c, "create.stat_cpu_ns", "-1", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'stat_cpu_ns' in [create]: bad value '-1'"));
	assert_memory_equal(&p, &before, sizeof(p));
	assert_memory_equal(&c, &cbefore, sizeof(c));
}

/* [log]: the log's geometry is checked against the kernel's limits
 * (XLOG_MAX_ICLOGS iclogs of a power of two from 16k to 256k) and the
 * vectors must be kmalloc caches that fit their slabs */
static void bad_log_keys_name_the_key_and_change_nothing(void **state)
{
	struct cp_fs_profile p, before;
	struct cp_fs_costs c, cbefore;
	struct cp_diag d = { "" };

	(void)state;
	load_source_profile("xfs", &p, &c);
	assert_int_equal(p.log.log_bytes, 64ULL << 20);
	assert_string_equal(p.log.inode_lv.name, "kmalloc-512");
	assert_string_equal(p.log.dir_lv.name, "kmalloc-8192");
	before = p;
	cbefore = c;
	assert_int_equal(cp_fs_profile_set(&p, &c, "log.iclog_size", "24k", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'iclog_size' in [log]: value 24576 is not an iclog size"));
	assert_int_equal(cp_fs_profile_set(&p, &c, "log.log_size", "128k", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'log_size' in [log]: 131072 bytes is less than 8 iclogs"));
	assert_int_equal(cp_fs_profile_set(&p, &c, "log.inode_lv_size", "500", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'inode_lv_size' in [log]: bad value '500'"));
	/* 16 x 1024 B do not fit an order-1 slab of 8192 B */
	assert_int_equal(cp_fs_profile_set(&p, &c, "log.inode_lv_size", "1024", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'inode_lv_per_slab' in [log]: 16 objects of 1024 bytes"));
	assert_int_equal(cp_fs_profile_set(&p, &c, "log.inode_space", "-1", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'inode_space' in [log]: bad value '-1'"));
	assert_memory_equal(&p, &before, sizeof(p));
	assert_memory_equal(&c, &cbefore, sizeof(c));
	/* log_size 0: no log model, whatever the other keys say */
	assert_int_equal(cp_fs_profile_set(&p, &c, "log.log_size", "0", &d), 0);
	assert_int_equal(p.log.log_bytes, 0);
}

static void ext4_with_a_log_is_refused(void **state)
{
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	struct cp_diag d = { "" };

	(void)state;
	load_source_profile("ext4", &p, &c);
	assert_int_equal(cp_fs_profile_set(&p, &c, "log.log_size", "64M", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'log_size' in [log]: ext4 has no XFS log to model"));
}

/* ---- name resolution --------------------------------------------------- */

/* /proc/slabinfo of 6.18 (measured here): "xfs_inode ... 1024 16 4".
 * From the file's 960 B x 17 in an order-2 slab, setting the size first
 * would give 17 x 1024 = 17408 > 16384 bytes; set together, the three
 * fit (16 x 1024 = 16384) and the slab order is log2(4 pages) = 2. */
static void set_slab_takes_a_slabinfo_line_whole(void **state)
{
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	struct cp_diag d = { "" };

	(void)state;
	load_source_profile("xfs", &p, &c);
	assert_int_equal(cp_fs_profile_set_slab(&p, CP_FS_SLAB_INODE, 1024, 16, 4, &d), 0);
	assert_int_equal(p.inode.object_size, 1024);
	assert_int_equal(p.inode.objects_per_slab, 16);
	assert_int_equal(p.inode.order, 2);
	assert_string_equal(p.inode.name, "xfs_inode");
	assert_true(p.inode.accounted); /* what follows from the name stays */
	assert_int_equal(cp_fs_profile_set_slab(&p, CP_FS_SLAB_LOG_ITEM, 208, 19, 1, &d), 0);
	assert_int_equal(p.inode_log_item.object_size, 208);
	assert_int_equal(p.inode_log_item.order, 0);
	assert_string_equal(cp_fs_profile_slab(&p, CP_FS_SLAB_DENTRY)->name, "dentry");
	assert_string_equal(cp_fs_slab_role_name(CP_FS_SLAB_LOG_ITEM), "log_item");
}

/* A slab is 2^order pages (mm/slub.c oo_make()): 3 pages is no slab;
 * 17 x 1024 B do not fit 4 pages; ext4 has no log item. Each refusal
 * names the key and leaves the profile as it was. */
static void set_slab_refuses_what_no_kernel_gives(void **state)
{
	struct cp_fs_profile p, before, e;
	struct cp_fs_costs c;
	struct cp_diag d = { "" };

	(void)state;
	load_source_profile("xfs", &p, &c);
	before = p;
	assert_int_equal(cp_fs_profile_set_slab(&p, CP_FS_SLAB_INODE, 1024, 16, 3, &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "inode_slab_order"));
	assert_int_equal(cp_fs_profile_set_slab(&p, CP_FS_SLAB_INODE, 1024, 17, 4, &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "inode_per_slab"));
	assert_memory_equal(&p, &before, sizeof(p));
	load_source_profile("ext4", &e, &c);
	assert_int_equal(cp_fs_profile_set_slab(&e, CP_FS_SLAB_LOG_ITEM, 208, 19, 1, &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "log_item_size"));
}

static void resolve_turns_bare_name_into_profile_dir_path(void **state)
{
	char dir[1024], want[1200], out[1200];
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	struct cp_diag d = { "" };

	(void)state;
	snprintf(dir, sizeof(dir), "%s/profiles", CP_SOURCE_DIR);
	assert_int_equal(cp_fs_profile_resolve("ext4", dir, out, sizeof(out), &d), 0);
	snprintf(want, sizeof(want), "%s/ext4.ini", dir);
	assert_string_equal(out, want);
	/* a path is used as is */
	assert_int_equal(cp_fs_profile_resolve(want, "/elsewhere", out, sizeof(out), &d), 0);
	assert_string_equal(out, want);
	assert_int_equal(cp_fs_profile_load_named("ext4", dir, &p, &c, &d), 0);
	assert_string_equal(p.name, "ext4");
}

static void resolve_reports_missing_and_bad_names(void **state)
{
	char dir[1024], out[1200] = "untouched";
	struct cp_diag d = { "" };

	(void)state;
	snprintf(dir, sizeof(dir), "%s/profiles", CP_SOURCE_DIR);
	assert_int_equal(cp_fs_profile_resolve("btrfs", dir, out, sizeof(out), &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "filesystem profile 'btrfs' not found (no file "));
	assert_non_null(strstr(d.msg, "/btrfs.ini)"));
	assert_int_equal(cp_fs_profile_resolve("a b", dir, out, sizeof(out), &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "'a b'"));
	assert_int_equal(cp_fs_profile_resolve("", dir, out, sizeof(out), &d), -CP_EINVAL);
	assert_int_equal(cp_fs_profile_resolve("xfs", NULL, out, sizeof(out), &d), -CP_EINVAL);
	assert_string_equal(out, "untouched");
}

/* A calibrated machine's xfs_create_ns is the whole create, its mkdir()
 * lookup included: on xfs the run charges it less the lookup it charges
 * apart (29 500 - 1 140 = 28 360 ns); 0 keeps the profile's create_cpu_ns;
 * a lookup dearer than the whole leaves 0, not a wrap. */
static void calibrated_xfs_create_replaces_the_profiles_less_the_lookup(void **state)
{
	const struct cp_fs_costs c = { .create_cpu_ns = 24960, .mkdir_lookup_ns = 1140 };
	const struct cp_fs_profile *xfs = cp_fs_profile_find("xfs");

	(void)state;
	assert_int_equal(cp_fs_create_cpu_ns(xfs, &c, 29500), 28360);
	assert_int_equal(cp_fs_create_cpu_ns(xfs, &c, 0), 24960);
	assert_int_equal(cp_fs_create_cpu_ns(xfs, &c, 1000), 0);
}

/* The calibration measures creates on xfs: ext4 keeps its own cost. */
static void calibrated_xfs_create_leaves_ext4_alone(void **state)
{
	const struct cp_fs_costs c = { .create_cpu_ns = 18000, .mkdir_lookup_ns = 1000 };

	(void)state;
	assert_int_equal(cp_fs_create_cpu_ns(cp_fs_profile_find("ext4"), &c, 29500), 18000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xfs_ini_gives_the_documented_xfs_geometry),
		cmocka_unit_test(xfs_ini_gives_the_measured_xfs_costs),
		cmocka_unit_test(calibrated_xfs_create_replaces_the_profiles_less_the_lookup),
		cmocka_unit_test(calibrated_xfs_create_leaves_ext4_alone),
		cmocka_unit_test(ext4_ini_gives_the_documented_ext4_geometry),
		cmocka_unit_test(constants_not_in_the_file_come_from_the_builtin_profile),
		cmocka_unit_test(builtin_profiles_pass_the_check),
		cmocka_unit_test(loaded_xfs_profile_mounts_the_model_fs),
		cmocka_unit_test(template_profile_loads_in_integer_units),
		cmocka_unit_test(unknown_key_names_file_line_section_and_key),
		cmocka_unit_test(unknown_section_is_refused),
		cmocka_unit_test(bad_size_names_file_line_key_and_value),
		cmocka_unit_test(missing_key_is_named),
		cmocka_unit_test(missing_file_is_enoent_and_names_the_path),
		cmocka_unit_test(bad_values_each_name_line_key_and_value),
		cmocka_unit_test(contradicting_keys_name_the_line_and_values),
		cmocka_unit_test(ext4_with_a_log_item_is_refused),
		cmocka_unit_test(ext4_with_a_dir_block_size_is_refused),
		cmocka_unit_test(overlong_line_is_refused),
		cmocka_unit_test(set_overrides_one_key_and_recomputes_what_follows),
		cmocka_unit_test(bad_log_keys_name_the_key_and_change_nothing),
		cmocka_unit_test(ext4_with_a_log_is_refused),
		cmocka_unit_test(bad_set_names_key_and_value_and_changes_nothing),
		cmocka_unit_test(set_slab_takes_a_slabinfo_line_whole),
		cmocka_unit_test(set_slab_refuses_what_no_kernel_gives),
		cmocka_unit_test(resolve_turns_bare_name_into_profile_dir_path),
		cmocka_unit_test(resolve_reports_missing_and_bad_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
