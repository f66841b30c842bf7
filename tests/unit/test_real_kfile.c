/*
 * test_real_kfile.c - reading kernel tables (/proc/meminfo, /proc/vmstat,
 * memory.stat, XFS stats) and the balloon's arithmetic, from fake files
 * (harness/lib/kfile.c, balloon.c, sample.c).
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

#include "balloon.h"
#include "kfile.h"
#include "sample.h"
#include "sbtrace.h"

/* /proc/meminfo: "Name:   N kB" -> bytes; names keep their parentheses. */
static void meminfo_lines_become_bytes(void **state)
{
	struct cp_kv kv = { 0 };
	int64_t v;

	(void)state;
	assert_int_equal(cp_kv_parse("MemTotal:       24684084 kB\n"
				     "Active(file):     110548 kB\n"
				     "HugePages_Total:       0\n",
				     &kv),
			 0);
	assert_int_equal(kv.nr, 3);
	assert_int_equal(cp_kv_get(&kv, "MemTotal", &v), 0);
	assert_int_equal(v, 24684084LL * 1024);
	assert_int_equal(cp_kv_get(&kv, "Active(file)", &v), 0);
	assert_int_equal(v, 110548LL * 1024);
	assert_int_equal(cp_kv_get(&kv, "HugePages_Total", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(cp_kv_get(&kv, "MemFree", &v), -CP_ENOENT);
	cp_kv_release(&kv);
}

/* /proc/vmstat and memory.stat: "name value"; malformed lines skipped. */
static void vmstat_lines_are_name_value(void **state)
{
	struct cp_kv kv = { 0 };
	int64_t v;

	(void)state;
	assert_int_equal(cp_kv_parse("slabs_scanned 291\n"
				     "garbage\n"
				     "pgscan_kswapd 0\n"
				     "nr_foo -5\n"
				     "kswapd_inodesteal 12",
				     &kv),
			 0);
	assert_int_equal(kv.nr, 4);
	assert_int_equal(cp_kv_get(&kv, "slabs_scanned", &v), 0);
	assert_int_equal(v, 291);
	assert_int_equal(cp_kv_get(&kv, "nr_foo", &v), 0);
	assert_int_equal(v, -5);
	assert_int_equal(cp_kv_get(&kv, "kswapd_inodesteal", &v), 0); /* no final newline */
	assert_int_equal(v, 12);
	cp_kv_release(&kv);
}

/* fs/xfs/xfs_stats.c: "ig" = attempts found frecycle missed dup reclaims
 * attrchg. */
static void xfs_ig_line_is_found_among_others(void **state)
{
	uint64_t ig[7];

	(void)state;
	assert_int_equal(cp_xfs_ig_parse("extent_alloc 0 0 0 0\n"
					 "dir 5 6 7 8\n"
					 "ig 250071 38 0 250033 0 0 0\n"
					 "log 1 2 3 4 5\n",
					 ig),
			 0);
	assert_int_equal(ig[0], 250071);
	assert_int_equal(ig[1], 38);
	assert_int_equal(ig[3], 250033);
	assert_int_equal(cp_xfs_ig_parse("dir 1 2 3 4\nigx 1\n", ig), -CP_ENOENT);
}

/* Documentation/block/stat.rst: fields 1, 3, 5, 7 and 10 are read I/Os,
 * read sectors, write I/Os, write sectors and io_ticks; the rest (merges,
 * ticks, in_flight, time_in_queue, discards, flushes) are skipped. */
static void block_stat_takes_ios_sectors_and_io_ticks(void **state)
{
	struct cp_block_stat st;

	(void)state;
	assert_int_equal(cp_block_stat_parse("   41833        2  8562048    19320     2361"
					     "      107   149870     5710        3    14080"
					     "    25030        0        0        0        0"
					     "      12        4\n",
					     &st),
			 0);
	assert_int_equal(st.read_ios, 41833);
	assert_int_equal(st.read_sectors, 8562048);
	assert_int_equal(st.write_ios, 2361);
	assert_int_equal(st.write_sectors, 149870);
	assert_int_equal(st.io_ticks_ms, 14080);
}

/* A short or garbled stat file is an error, not zeros. */
static void block_stat_refuses_a_short_line(void **state)
{
	struct cp_block_stat st;

	(void)state;
	assert_int_equal(cp_block_stat_parse("1 2 3 4 5 6 7 8 9\n", &st), -CP_EINVAL);
	assert_int_equal(cp_block_stat_parse("", &st), -CP_EINVAL);
	assert_int_equal(cp_block_stat_parse("1 2 x 4 5 6 7 8 9 10\n", &st), -CP_EINVAL);
}

/* mm/vmstat.c frag_show(): "Node N, zone NAME" then 11 counts; the
 * counts of every zone are summed by order; a short line is no zone. */
static void buddyinfo_sums_the_zones_by_order(void **state)
{
	uint64_t b[11];

	(void)state;
	assert_int_equal(cp_buddyinfo_parse("Node 0, zone      DMA      0      0      0      0"
					    "      0      0      0      0      1      1      3 \n"
					    "Node 0, zone    DMA32     25     36     44     57     46"
					    "     49     47     47     43     42    711 \n"
					    "Node 0, zone   Normal   7418   1162   2706   1468   1010"
					    "    720    374    185     93    235   4825 \n",
					    b),
			 0);
	assert_int_equal(b[0], 7443);
	assert_int_equal(b[8], 137);
	assert_int_equal(b[10], 5539);
	assert_int_equal(cp_buddyinfo_parse("Node 0, zone DMA 1 2 3\n", b), -CP_ENOENT);
	assert_int_equal(cp_buddyinfo_parse("", b), -CP_ENOENT);
}

/* mm/vmstat.c pagetypeinfo_showfree(): one line per zone and type; the
 * three ordinary types are summed over the zones, HighAtomic and the
 * header and pageblock-count lines are not free blocks. */
static void pagetypeinfo_sums_free_blocks_by_type(void **state)
{
	uint64_t b[3][11];

	(void)state;
	assert_int_equal(
		cp_pagetypeinfo_parse(
			"Page block order: 9\n"
			"Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 \n"
			"Node    0, zone    DMA32, type    Unmovable     10     14     15     13     12     13     11      8      8      0      0 \n"
			"Node    0, zone    DMA32, type      Movable     14     17     20     23     26     25     24     25     26     40    713 \n"
			"Node    0, zone    DMA32, type  Reclaimable     12     22     19     20     19     15     14     11      5      0      0 \n"
			"Node    0, zone   Normal, type    Unmovable   1048   2157   1479   1246    753    299    116     24     10      0      0 \n"
			"Node    0, zone   Normal, type      Movable      1   1911   2101   1730   1242    663    318    117     41    230   4833 \n"
			"Node    0, zone   Normal, type  Reclaimable   3272   2400   1680   1107    717    438    281    117     37      0      0 \n"
			"Node    0, zone   Normal, type   HighAtomic     84     62     47     17     16     11      5      2      3      1      0 \n"
			"\n"
			"Number of blocks type     Unmovable      Movable  Reclaimable   HighAtomic      Isolate \n"
			"Node 0, zone   Normal          193        10356          196            7            0 \n",
			b),
		0);
	assert_int_equal(b[0][0], 1058);
	assert_int_equal(b[1][10], 5546);
	assert_int_equal(b[2][8], 42);
	assert_int_equal(b[1][0], 15); /* HighAtomic's 84 not added */
	assert_int_equal(cp_pagetypeinfo_parse("Node 0, zone DMA, type Movable 1 2\n", b),
			 -CP_ENOENT);
}

/* The same file read per zone: a zone's lines only; "DMA" must not take
 * DMA32's lines (the name ends at the comma). */
static const char pagetypeinfo_two_zones[] =
	"Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 \n"
	"Node    0, zone      DMA, type      Movable      0      0      0      0      0      0      0      0      0      1      3 \n"
	"Node    0, zone    DMA32, type      Movable     14     17     20     23     26     25     24     25     26     40    713 \n"
	"Node    0, zone    DMA32, type  Reclaimable     12     22     19     20     19     15     14     11      5      0      0 \n"
	"Node    0, zone   Normal, type      Movable      1   1911   2101   1730   1242    663    318    117     41    230   4833 \n";

static void pagetypeinfo_zone_takes_only_that_zones_lines(void **state)
{
	uint64_t b[3][11];

	(void)state;
	assert_int_equal(cp_pagetypeinfo_parse_zone(pagetypeinfo_two_zones, "DMA32", b), 0);
	assert_int_equal(b[1][10], 713);
	assert_int_equal(b[2][1], 22);
	assert_int_equal(b[0][0], 0);
	assert_int_equal(cp_pagetypeinfo_parse_zone(pagetypeinfo_two_zones, "DMA", b), 0);
	assert_int_equal(b[1][10], 3); /* not 3 + 713 + 4833 */
	assert_int_equal(cp_pagetypeinfo_parse_zone(pagetypeinfo_two_zones, "Normal", b), 0);
	assert_int_equal(b[1][1], 1911);
	assert_int_equal(cp_pagetypeinfo_parse_zone(pagetypeinfo_two_zones, "Movable", b),
			 -CP_ENOENT);
	assert_int_equal(cp_pagetypeinfo_parse_zone(pagetypeinfo_two_zones, NULL, b), 0);
	assert_int_equal(b[1][10], 3 + 713 + 4833);
}

/* mm/vmstat.c pagetypeinfo_showblockitems(): after the free-page tables,
 * "Number of blocks type" heads one row per zone, the pageblock counts in
 * migratetype order (Unmovable, Movable, Reclaimable, HighAtomic, ...);
 * the free-page rows above it (which also name the zone) are not it. */
static void pagetypeinfo_pageblocks_of_the_named_zone(void **state)
{
	static const char text[] =
		"Free pages count per migrate type at order       0      1      2 \n"
		"Node    0, zone   Normal, type      Movable      1   1911   2101 \n"
		"\n"
		"Number of blocks type     Unmovable      Movable  Reclaimable   HighAtomic      Isolate \n"
		"Node 0, zone      DMA            1            7            0            0            0 \n"
		"Node 0, zone    DMA32           11         1509            8            0            0 \n"
		"Node 0, zone   Normal          115        10604           29            4            0 \n";
	uint64_t nr[3];

	(void)state;
	assert_int_equal(cp_pagetypeinfo_parse_pageblocks(text, "Normal", nr), 0);
	assert_int_equal(nr[0], 115);
	assert_int_equal(nr[1], 10604);
	assert_int_equal(nr[2], 29);
	assert_int_equal(cp_pagetypeinfo_parse_pageblocks(text, "DMA32", nr), 0);
	assert_int_equal(nr[1], 1509);
	assert_int_equal(cp_pagetypeinfo_parse_pageblocks(text, "DMA", nr), 0);
	assert_int_equal(nr[1], 7);
	assert_int_equal(cp_pagetypeinfo_parse_pageblocks(text, "Movable", nr), -CP_ENOENT);
	assert_int_equal(cp_pagetypeinfo_parse_pageblocks(pagetypeinfo_two_zones, "Normal", nr),
			 -CP_ENOENT);
}

/* mm/vmstat.c zoneinfo_show_print(): "managed" belongs to the zone whose
 * "Node N, zone NAME" header comes before it; a zone with no managed
 * line before the next header is missing. */
static void zoneinfo_managed_of_the_named_zone(void **state)
{
	static const char zi[] = "Node 0, zone      DMA\n"
				 "  per-node stats\n"
				 "      nr_inactive_anon 1\n"
				 "  pages free     3840\n"
				 "        present  3998\n"
				 "        managed  3840\n"
				 "Node 0, zone    DMA32\n"
				 "  pages free     772507\n"
				 "        managed  772915\n"
				 "Node 0, zone   Normal\n"
				 "  pages free     5218730\n"
				 "        managed  5394266\n"
				 "Node 0, zone  Movable\n"
				 "  pages free     0\n";
	uint64_t v = 0;

	(void)state;
	assert_int_equal(cp_zoneinfo_managed(zi, "DMA32", &v), 0);
	assert_int_equal(v, 772915);
	assert_int_equal(cp_zoneinfo_managed(zi, "DMA", &v), 0);
	assert_int_equal(v, 3840);
	assert_int_equal(cp_zoneinfo_managed(zi, "Normal", &v), 0);
	assert_int_equal(v, 5394266);
	assert_int_equal(cp_zoneinfo_managed(zi, "Movable", &v), -CP_ENOENT);
	assert_int_equal(cp_zoneinfo_managed(zi, "HighMem", &v), -CP_ENOENT);
}

/* zoneinfo_show_print() (5.0+): "pages free", "boost" and "min" follow
 * the zone's Node line; min is min_wmark_pages(), the boost included
 * (14769 + 19456 here). A kernel that prints no boost line (4.x) gives
 * -CP_ENOENT: the harness then keeps no zone watch. */
static void zoneinfo_watermarks_of_the_named_zone(void **state)
{
	static const char zi[] = "Node 0, zone    DMA32\n"
				 "  pages free     23114\n"
				 "        boost    0\n"
				 "        min      2115\n"
				 "        low      2887\n"
				 "Node 0, zone   Normal\n"
				 "  pages free     30274\n"
				 "        boost    19456\n"
				 "        min      34225\n"
				 "        low      39619\n";
	static const char old[] = "Node 0, zone   Normal\n"
				  "  pages free     30274\n"
				  "        min      14769\n";
	uint64_t free_pages = 0, boost = 0, min = 0;

	(void)state;
	assert_int_equal(cp_zoneinfo_watermarks(zi, "Normal", &free_pages, &boost, &min), 0);
	assert_int_equal(free_pages, 30274);
	assert_int_equal(boost, 19456);
	assert_int_equal(min, 34225);
	assert_int_equal(cp_zoneinfo_watermarks(zi, "DMA32", &free_pages, &boost, &min), 0);
	assert_int_equal(free_pages, 23114);
	assert_int_equal(boost, 0);
	assert_int_equal(min, 2115);
	assert_int_equal(cp_zoneinfo_watermarks(old, "Normal", &free_pages, &boost, &min),
			 -CP_ENOENT);
}

/* zoneinfo_show_print(): a zone's per-zone counters ("nr_zone_active_file
 * N") are words at the start of lines of its block; a field is matched
 * whole (nr_zone_active_file is not nr_zone_active_file_x) and only in the
 * named zone's block; per-node stats of the first zone are not Normal's. */
static void zoneinfo_field_of_the_named_zone(void **state)
{
	static const char zi[] = "Node 0, zone    DMA32\n"
				 "  per-node stats\n"
				 "      nr_inactive_file 900\n"
				 "  pages free     25000\n"
				 "        managed  772915\n"
				 "      nr_zone_inactive_file 120\n"
				 "      nr_zone_active_file 178000\n"
				 "Node 0, zone   Normal\n"
				 "  pages free     24000\n"
				 "        managed  5394266\n"
				 "      nr_zone_active_file_x 7\n"
				 "      nr_zone_inactive_file 300\n"
				 "      nr_zone_active_file 31000\n";
	uint64_t v = 0;

	(void)state;
	assert_int_equal(cp_zoneinfo_field(zi, "DMA32", "nr_zone_active_file", &v), 0);
	assert_int_equal(v, 178000);
	assert_int_equal(cp_zoneinfo_field(zi, "Normal", "nr_zone_active_file", &v), 0);
	assert_int_equal(v, 31000);
	assert_int_equal(cp_zoneinfo_field(zi, "Normal", "nr_zone_inactive_file", &v), 0);
	assert_int_equal(v, 300);
	assert_int_equal(cp_zoneinfo_field(zi, "Normal", "nr_inactive_file", &v), -CP_ENOENT);
	assert_int_equal(cp_zoneinfo_field(zi, "Movable", "nr_zone_active_file", &v), -CP_ENOENT);
}

/* zoneinfo_show_print(): each zone's "pagesets" list one block per CPU
 * with its "count:" (pages on that CPU's lists); the zone's pcp pages
 * are their sum, 8042 + 6835 in Normal here; DMA32's one CPU 43; a zone
 * without pagesets has none. */
static void zoneinfo_pcp_pages_sum_the_cpus(void **state)
{
	static const char zi[] = "Node 0, zone    DMA32\n"
				 "        managed  772915\n"
				 "  pagesets\n"
				 "    cpu: 0\n"
				 "              count:    43\n"
				 "              high:     1200\n"
				 "Node 0, zone   Normal\n"
				 "        managed  5394266\n"
				 "  pagesets\n"
				 "    cpu: 0\n"
				 "              count:    8042\n"
				 "              high:     10081\n"
				 "    cpu: 1\n"
				 "              count:    6835\n"
				 "              high:     11309\n"
				 "Node 0, zone  Movable\n"
				 "  pages free     0\n";
	uint64_t v = 0;

	(void)state;
	assert_int_equal(cp_zoneinfo_pcp_pages(zi, "Normal", &v), 0);
	assert_int_equal(v, 8042 + 6835);
	assert_int_equal(cp_zoneinfo_pcp_pages(zi, "DMA32", &v), 0);
	assert_int_equal(v, 43);
	assert_int_equal(cp_zoneinfo_pcp_pages(zi, "Movable", &v), -CP_ENOENT);
	assert_int_equal(cp_zoneinfo_pcp_pages(zi, "DMA", &v), -CP_ENOENT);
	/* every zone together: the lists' pages MemFree does not count */
	assert_int_equal(cp_zoneinfo_pcp_pages_all(zi), 43 + 8042 + 6835);
}

/* mm/slab_common.c cache_show(): "<name> <active_objs> <num_objs>
 * <objsize> <objperslab> <pagesperslab> : tunables ..."; the name must
 * match whole (xfs_inode is not xfs_inode_log), the header is skipped. */
static void slabinfo_gives_a_caches_geometry(void **state)
{
	static const char si[] =
		"slabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs> <objsize> <objperslab> "
		"<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata "
		"<active_slabs> <num_slabs> <sharedavail>\n"
		"xfs_inode_log        10     20    300   13    1 : tunables    0    0    0 : slabdata 1 1 0\n"
		"xfs_ili              323    418    208   19    1 : tunables    0    0    0 : slabdata     22     22      0\n"
		"xfs_inode             64    144   1024   16    4 : tunables    0    0    0 : slabdata      9      9      0\n"
		"dentry              7872   8022    192   21    1 : tunables    0    0    0 : slabdata    382    382      0\n"
		"broken               1 2 x\n"
		"zero                 0 0 0 16 1 : tunables 0 0 0 : slabdata 0 0 0\n";
	struct cp_slabinfo s = { 0 };

	(void)state;
	assert_int_equal(cp_slabinfo_parse(si, "xfs_inode", &s), 0);
	assert_int_equal(s.object_size, 1024);
	assert_int_equal(s.objects_per_slab, 16);
	assert_int_equal(s.pages_per_slab, 4);
	assert_int_equal(cp_slabinfo_parse(si, "dentry", &s), 0);
	assert_int_equal(s.object_size, 192);
	assert_int_equal(s.objects_per_slab, 21);
	assert_int_equal(s.pages_per_slab, 1);
	assert_int_equal(cp_slabinfo_parse(si, "ext4_inode_cache", &s), -CP_ENOENT);
	assert_int_equal(cp_slabinfo_parse(si, "xfs", &s), -CP_ENOENT);
	assert_int_equal(cp_slabinfo_parse(si, "broken", &s), -CP_EINVAL);
	assert_int_equal(cp_slabinfo_parse(si, "zero", &s), -CP_EINVAL);
}

/* fs/proc/array.c do_task_stat(): utime and stime are fields 14 and 15,
 * counted after the comm's closing parenthesis (a comm may hold spaces
 * and parentheses itself). kswapd0 as this machine shows it: utime 0,
 * stime 15481. */
static void proc_stat_cpu_ticks_are_utime_plus_stime(void **state)
{
	uint64_t t = 0;

	(void)state;
	assert_int_equal(cp_proc_stat_cpu_ticks("45 (kswapd0) S 2 0 0 0 -1 2129984 0 0 0 0 0 "
						"15481 0 0 20 0 1 0 37 0 0\n", &t), 0);
	assert_int_equal(t, 15481);
	assert_int_equal(cp_proc_stat_cpu_ticks("7 (a) (b c)) R 1 7 7 0 -1 4194560 10 0 2 0 "
						"300 25 0 0 20 0 1 0\n", &t), 0);
	assert_int_equal(t, 325);
	assert_int_equal(cp_proc_stat_cpu_ticks("7 (cut) R 1 7\n", &t), -CP_EINVAL);
	assert_int_equal(cp_proc_stat_cpu_ticks("no parenthesis", &t), -CP_EINVAL);
	assert_int_equal(t, 325);
}

/* /proc/PID/schedstat: on-CPU ns, run_delay ns, timeslices
 * (kernel/sched/stats.c show_schedstat); the run_delay is the time the
 * task waited on a runqueue. kswapd0 on this machine: 109744807137
 * 111947645862 72700 -> 111947645862; a short line is refused. */
static void proc_schedstat_run_delay_is_the_second_number(void **state)
{
	uint64_t ns = 9;

	(void)state;
	assert_int_equal(cp_proc_schedstat_run_delay("109744807137 111947645862 72700\n", &ns), 0);
	assert_int_equal(ns, 111947645862ULL);
	assert_int_equal(cp_proc_schedstat_run_delay("12 34\n", &ns), -CP_EINVAL);
	assert_int_equal(cp_proc_schedstat_run_delay("", &ns), -CP_EINVAL);
	assert_int_equal(ns, 111947645862ULL);
}

/* /proc/stat's "cpu " line: user nice system idle iowait irq softirq
 * steal guest guest_nice; busy = user + nice + system + irq + softirq
 * (this machine's line: 18418 0 88408 105847 6688 0 1165 0 0 0 ->
 * 107991); idle, iowait and steal are not work; a per-CPU line or a
 * short one is refused. */
static void proc_stat_busy_ticks_leave_out_idle_iowait_steal(void **state)
{
	uint64_t t = 7;

	(void)state;
	assert_int_equal(cp_proc_stat_busy_ticks("cpu  18418 0 88408 105847 6688 0 1165 0 0 0\n"
						 "cpu0 1 2 3 4 5 6 7 8 9 10\n", &t), 0);
	assert_int_equal(t, 107991);
	assert_int_equal(cp_proc_stat_busy_ticks("cpu  1 2 3 1000 1000 4 5 1000 0 0\n", &t), 0);
	assert_int_equal(t, 15);
	assert_int_equal(cp_proc_stat_busy_ticks("cpu0 1 2 3 4 5 6 7 8 9 10\n", &t), -CP_EINVAL);
	assert_int_equal(cp_proc_stat_busy_ticks("cpu  1 2 3 4\n", &t), -CP_EINVAL);
	assert_int_equal(t, 15);
}

static void meminfo_available_from_a_file(void **state)
{
	char path[] = "/tmp/cp-test-meminfo-XXXXXX";
	struct cp_diag d = { "" };
	uint64_t v = 0;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("MemTotal:       24684084 kB\nMemFree: 1 kB\nMemAvailable:   24356592 kB\n", f);
	fclose(f);
	assert_int_equal(cp_meminfo_available(path, &v, NULL), 0);
	assert_int_equal(v, 24356592ULL * 1024);
	f = fopen(path, "w");
	fputs("MemTotal: 1 kB\n", f);
	fclose(f);
	assert_int_equal(cp_meminfo_available(path, &v, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "MemAvailable"));
	unlink(path);
}

/* The balloon takes available - SIZE less its own page tables, and the
 * run refuses unless available >= SIZE + 1.5 GiB: 24 GiB available,
 * --mem 1G -> a span of 23 GiB, of which the tables of 23 GiB (11776 PTE
 * pages + 23 PMD pages + 1 PUD page = 11800 pages) are not locked;
 * 2.4 GiB available, --mem 1G -> 2.4 < 2.5: refused. */
static void balloon_leaves_size_and_keeps_headroom(void **state)
{
	const uint64_t gib = 1ULL << 30;
	struct cp_diag d = { "" };
	uint64_t b = 0;

	(void)state;
	assert_int_equal(cp_balloon_size(24 * gib, gib, &b, NULL), 0);
	assert_int_equal(b, 23 * gib - 11800ULL * 4096);
	assert_int_equal(cp_balloon_size(5 * gib / 2, gib, &b, NULL), 0); /* exactly 2.5 */
	/* 1.5 GiB: 768 PTE + 2 PMD + 1 PUD pages */
	assert_int_equal(b, 3 * gib / 2 - 771ULL * 4096);
	b = 7;
	assert_int_equal(cp_balloon_size(24 * gib / 10, gib, &b, &d), -CP_ENOSPC);
	assert_int_equal(b, 7);
	assert_non_null(strstr(d.msg, "SIZE + 1536 MiB"));
}

/* x86-64 4-level paging with 4 KiB pages: a PTE page maps 2 MiB, a PMD
 * page 1 GiB, a PUD page 512 GiB. The measured case: a 21713 MiB balloon
 * raised PageTables by 42 MiB. */
/* The balloon's top-up: MemAvailable 1536 MiB after the balloon with
 * SIZE 1024 MiB leaves 512 MiB to lock, less its page tables (256 PTE
 * pages + 1 PMD page + 1 PUD page for 512 MiB: 258 pages = 1056768
 * bytes); an excess under CP_BALLOON_TOPUP_MIN_BYTES (32 MiB) is left. */
static void balloon_topup_locks_the_excess_over_size(void **state)
{
	(void)state;
	assert_int_equal(cp_balloon_topup_bytes(1536ULL << 20, 1024ULL << 20),
			 (512ULL << 20) - 258 * 4096);
	assert_int_equal(cp_balloon_topup_bytes((1024ULL + 31) << 20, 1024ULL << 20), 0);
	assert_int_equal(cp_balloon_topup_bytes(1000ULL << 20, 1024ULL << 20), 0);
	assert_true(cp_balloon_topup_bytes((1024ULL + 32) << 20, 1024ULL << 20) > 0);
}

static void balloon_page_tables_one_pte_page_per_2mib(void **state)
{
	const uint64_t mib = 1ULL << 20;

	(void)state;
	assert_int_equal(cp_balloon_page_table_bytes(0), 0);
	assert_int_equal(cp_balloon_page_table_bytes(4096), 3 * 4096);    /* one of each */
	assert_int_equal(cp_balloon_page_table_bytes(2 * mib), 3 * 4096);
	assert_int_equal(cp_balloon_page_table_bytes(2 * mib + 1), 4 * 4096); /* second PTE */
	/* 21713 MiB: 10857 PTE + 22 PMD + 1 PUD pages = 42.5 MiB */
	assert_int_equal(cp_balloon_page_table_bytes(21713 * mib), 10880ULL * 4096);
	/* what the balloon locks plus its tables fits the span */
	assert_true(cp_balloon_lockable(21713 * mib) +
			    cp_balloon_page_table_bytes(cp_balloon_lockable(21713 * mib)) <=
		    21713 * mib);
	assert_int_equal(cp_balloon_lockable(21713 * mib) % 4096, 0);
}

static void kfile_write_never_creates_files(void **state)
{
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_kfile_write("/tmp/cp-test-does-not-exist-42/x", "1", &d), -CP_ENOENT);
	assert_int_equal(access("/tmp/cp-test-does-not-exist-42", F_OK), -1);
}

static void sampler_columns_start_with_time(void **state)
{
	size_t n;
	const char *const *g = cp_sampler_columns(CP_CONFINE_GLOBAL, 0, &n);
	const char *const *v1 = cp_sampler_columns(CP_CONFINE_MEMCG, 1, &n);
	const char *const *v2 = cp_sampler_columns(CP_CONFINE_MEMCG, 2, &n);

	(void)state;
	assert_string_equal(g[0], "t_ns");
	assert_string_equal(g[1], "mem_free_bytes");
	assert_string_equal(v1[2], "kmem_bytes");
	assert_string_equal(v2[2], "slab_reclaimable_bytes");
	assert_int_equal(n, 12);
	/* every layout ends with the vmstat and the CPU columns the model's
	 * series has too */
	assert_string_equal(v2[8], "pgdeactivate");
	assert_string_equal(v2[9], "workingset_refault_file");
	assert_string_equal(v2[10], "cpu_busy_ns");
	assert_string_equal(v2[11], "readers_cpu_ns");
	cp_sampler_columns(CP_CONFINE_GLOBAL, 0, &n);
	assert_int_equal(n, 16);
	assert_string_equal(g[12], "pgdeactivate");
	assert_string_equal(g[13], "workingset_refault_file");
	assert_string_equal(g[14], "cpu_busy_ns");
	assert_string_equal(g[15], "readers_cpu_ns");
	assert_string_equal(v1[8], "pgdeactivate");
	assert_string_equal(v1[11], "readers_cpu_ns");
}

/* The lines of a trace instance's file, summed as cp_sbtrace_end() does. */
static struct cp_sbtrace_sum sum_lines(const char *const *lines, size_t n)
{
	struct cp_sbtrace_sum sum = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		cp_sbtrace_add_line(lines[i], &sum);
	return sum;
}

/* An instance's trace file (6.18 mm_shrink_slab_end format): each
 * super_cache_scan line is one do_shrink_slab() call whose "last shrinker
 * return val" is what it freed; the header, other shrinkers' lines and a
 * call that freed nothing add no objects: 2 calls + 1 empty = 3 calls,
 * 7 + 1024 = 1031 objects. */
static void sbtrace_sums_the_superblock_shrinkers_frees(void **state)
{
	static const char *const lines[] = {
		"# tracer: nop\n",
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n",
		"            bash-30776   [000] ..... 38536.743766: mm_shrink_slab_end: "
		"super_cache_scan+0x0/0x210 000000003b1bf30f: nid: 0 unused scan count 2 new scan "
		"count 2 total_scan 0 last shrinker return val 7\n",
		"         kswapd0-94      [001] ..... 38537.000001: mm_shrink_slab_end: "
		"xfs_buftarg_shrink_scan+0x0/0x90 00000000aa: nid: 0 unused scan count 0 new scan "
		"count 0 total_scan 0 last shrinker return val 500\n",
		"         fs_mark-26053   [000] ..... 38538.1: mm_shrink_slab_end: "
		"super_cache_scan+0x0/0x210 0000000062565106: nid: 0 unused scan count 0 new scan "
		"count 0 total_scan 0 last shrinker return val 1024\n",
		"         fs_mark-26053   [000] ..... 38538.2: mm_shrink_slab_end: "
		"super_cache_scan+0x0/0x210 0000000062565106: nid: 0 unused scan count 0 new scan "
		"count 0 total_scan 0 last shrinker return val 0\n",
	};
	struct cp_sbtrace_sum sum = sum_lines(lines, sizeof(lines) / sizeof(lines[0]));

	(void)state;
	assert_int_equal(sum.calls, 3);
	assert_int_equal(sum.freed, 1031);
}

/* The readahead events of the watched files (6.18 formats): a sync and
 * an async call count one each; an added folio adds 2^order pages, to
 * order 2-5 (4 + 32) or 6-9 (256 + 512); the superblock line still
 * counts as before. */
static void sbtrace_counts_the_readers_readahead(void **state)
{
	static const char *const lines[] = {
		"    cp-read-file-1234    [000] ..... 54143.1: page_cache_sync_ra: dev=254:0 "
		"ino=84 index=20953 req_count=256 order=0 size=0 async_size=0 ra_pages=640 "
		"mmap_miss=0 prev_pos=85819391\n",
		"    cp-read-file-1234    [000] ..... 54143.2: page_cache_async_ra: dev=254:0 "
		"ino=84 index=21209 req_count=256 order=0 size=640 async_size=384 ra_pages=640 "
		"mmap_miss=0 prev_pos=86867967\n",
		"    cp-read-file-1234    [000] ..... 54143.3: mm_filemap_add_to_page_cache: dev "
		"254:0 ino 84 pfn=0x1a2b00 ofs=89128960 order=2\n",
		"    cp-read-file-1235    [001] ..... 54143.4: mm_filemap_add_to_page_cache: dev "
		"254:0 ino 85 pfn=0x1a2c00 ofs=89128960 order=5\n",
		"    cp-read-file-1235    [001] ..... 54143.5: mm_filemap_add_to_page_cache: dev "
		"254:0 ino 85 pfn=0x1a3000 ofs=90177536 order=8\n",
		"    cp-read-file-1235    [001] ..... 54143.6: mm_filemap_add_to_page_cache: dev "
		"254:0 ino 85 pfn=0x1a4000 ofs=91226112 order=9\n",
		"         kswapd0-94      [001] ..... 54143.7: mm_shrink_slab_end: "
		"super_cache_scan+0x0/0x210 000000003b1bf30f: nid: 0 unused scan count 2 new scan "
		"count 2 total_scan 0 last shrinker return val 7\n",
	};
	struct cp_sbtrace_sum sum = sum_lines(lines, sizeof(lines) / sizeof(lines[0]));

	(void)state;
	assert_int_equal(sum.ra_sync, 1);
	assert_int_equal(sum.ra_async, 1);
	assert_int_equal(sum.ra_pages_2to5, 36);
	assert_int_equal(sum.ra_pages_6to9, 768);
	assert_int_equal(sum.calls, 1);
	assert_int_equal(sum.freed, 7);
}

/* vmscan:mm_shrink_slab_start (6.18 format: "... total_scan %ld priority
 * %d"): a super_cache_scan call at priority 3 or below counts a deep call
 * and adds its total_scan (2 x freeable at priority 0: 3 316 070); one at
 * priority 4 (the filter lets none through, but a line is judged by its
 * own priority) and another shrinker's do not; none adds to the frees.
 * Of the deep ones, GFP_KERNEL_ACCOUNT carries __GFP_FS (show_gfp_flags
 * prints the composite whose bits are all set), GFP_NOFS|__GFP_NORETRY
 * does not: one. */
static void sbtrace_counts_the_deep_superblock_calls(void **state)
{
	static const char *const lines[] = {
		"         fs_mark-2290    [001] ..... 45.1: mm_shrink_slab_start: "
		"super_cache_scan+0x0/0x210 000000003b1bf30f: nid: 0 objects to shrink 22340 "
		"gfp_flags GFP_KERNEL_ACCOUNT cache items 1658035 delta 3316070 total_scan 3316070 "
		"priority 0\n",
		"         fs_mark-2290    [001] ..... 45.0: mm_shrink_slab_start: "
		"super_cache_scan+0x0/0x210 000000003b1bf30f: nid: 0 objects to shrink 29626 "
		"gfp_flags GFP_NOFS|__GFP_NORETRY|__GFP_NOWARN cache items 1627925 delta 406981 "
		"total_scan 414387 priority 3\n",
		"         fs_mark-2290    [001] ..... 44.9: mm_shrink_slab_start: "
		"super_cache_scan+0x0/0x210 000000003b1bf30f: nid: 0 objects to shrink 33598 "
		"gfp_flags GFP_KERNEL_ACCOUNT cache items 1671667 delta 208958 total_scan 211057 "
		"priority 4\n",
		"         kswapd0-94      [000] ..... 44.8: mm_shrink_slab_start: "
		"xfs_buftarg_shrink_scan+0x0/0x90 00000000aa: nid: 0 objects to shrink 0 "
		"gfp_flags GFP_KERNEL cache items 71549 delta 143098 total_scan 143098 priority 0\n",
	};
	struct cp_sbtrace_sum sum = sum_lines(lines, sizeof(lines) / sizeof(lines[0]));

	(void)state;
	assert_int_equal(sum.deep_calls, 2);
	assert_int_equal(sum.deep_scan, 3316070 + 414387);
	assert_int_equal(sum.deep_fs_calls, 1);
	assert_int_equal(sum.calls, 0);
	assert_int_equal(sum.freed, 0);
}

/* vmscan:mm_vmscan_memcg_reclaim_begin (6.18: "order=%d gfp_flags=%s",
 * the scan_control's gfp: the charge's reclaim bits with
 * GFP_HIGHUSER_MOVABLE's others): every line one reclaim; a GFP_KERNEL
 * charge shows as GFP_HIGHUSER_MOVABLE (__GFP_FS), a GFP_NOFS one as
 * GFP_NOFS|__GFP_HARDWALL|__GFP_HIGHMEM|__GFP_MOVABLE (none): 2, 1. */
static void sbtrace_counts_memcg_reclaims_and_their_gfp(void **state)
{
	static const char *const lines[] = {
		"         fs_mark-2290    [001] ..... 45.1: mm_vmscan_memcg_reclaim_begin: "
		"order=0 gfp_flags=GFP_HIGHUSER_MOVABLE\n",
		"    cp-read-file-2288    [000] ..... 45.2: mm_vmscan_memcg_reclaim_begin: "
		"order=0 gfp_flags=GFP_NOFS|__GFP_HARDWALL|__GFP_HIGHMEM|__GFP_MOVABLE\n",
	};
	struct cp_sbtrace_sum sum = sum_lines(lines, sizeof(lines) / sizeof(lines[0]));

	(void)state;
	assert_int_equal(sum.memcg_reclaims, 2);
	assert_int_equal(sum.memcg_reclaims_fs, 1);
	assert_int_equal(sum.deep_calls, 0);
}

/* One memcg reclaim a task, begin to end (6.18 mm_vmscan_memcg_reclaim_end:
 * "nr_reclaimed=%lu"), the superblock calls between them its walk
 * (do_try_to_free_pages() calls shrink_slab() at each priority), lines of
 * two tasks interleaved. fs_mark's is done at priority 12 with 32 pages;
 * the reader's walks 12, 6, 3, 0, finds nothing, begins again at 12
 * (force_deactivate) and ends at 11 with 512: deep, one restart. An end
 * whose begin came before the trace was cleared pairs with nothing. By
 * hand: 544 pages, 1 done at 12, 1 deep, 1 restart, 1 unpaired; the
 * deep calls (priority 3 and 0) count as before: 2. */
static void sbtrace_follows_each_memcg_reclaims_walk(void **state)
{
#define SB(task, prio)                                                                        \
	task " [000] ..... 45.1: mm_shrink_slab_start: super_cache_scan+0x0/0x210 00000000b: " \
	     "nid: 0 objects to shrink 0 gfp_flags GFP_NOFS cache items 1000 delta 2 "         \
	     "total_scan 2 priority " prio "\n"
	static const char *const lines[] = {
		"       kworker/1:2-77      [001] ..... 44.9: mm_vmscan_memcg_reclaim_end: "
		"nr_reclaimed=9\n",
		"         fs_mark-2290    [001] ..... 45.0: mm_vmscan_memcg_reclaim_begin: "
		"order=0 gfp_flags=GFP_HIGHUSER_MOVABLE\n",
		"    cp-read-file-2288    [000] ..... 45.0: mm_vmscan_memcg_reclaim_begin: "
		"order=0 gfp_flags=GFP_NOFS|__GFP_HARDWALL|__GFP_HIGHMEM|__GFP_MOVABLE\n",
		SB("    cp-read-file-2288   ", "12"),
		SB("         fs_mark-2290   ", "12"),
		SB("    cp-read-file-2288   ", "6"),
		"         fs_mark-2290    [001] ..... 45.1: mm_vmscan_memcg_reclaim_end: "
		"nr_reclaimed=32\n",
		SB("    cp-read-file-2288   ", "3"),
		SB("    cp-read-file-2288   ", "0"),
		SB("    cp-read-file-2288   ", "12"),
		SB("    cp-read-file-2288   ", "11"),
		"    cp-read-file-2288    [000] ..... 45.2: mm_vmscan_memcg_reclaim_end: "
		"nr_reclaimed=512\n",
	};
#undef SB
	struct cp_sbtrace_sum sum = sum_lines(lines, sizeof(lines) / sizeof(lines[0]));

	(void)state;
	assert_int_equal(sum.memcg_reclaims, 2);
	assert_int_equal(sum.memcg_reclaimed, 544);
	assert_int_equal(sum.memcg_reclaims_prio12, 1);
	assert_int_equal(sum.memcg_reclaims_deep, 1);
	assert_int_equal(sum.memcg_reclaim_restarts, 1);
	assert_int_equal(sum.memcg_unpaired, 1);
	/* fs_mark's, GFP_HIGHUSER_MOVABLE, is the one with __GFP_FS */
	assert_int_equal(sum.memcg_reclaimed_fs, 32);
	assert_int_equal(sum.memcg_reclaims_fs_prio12, 1);
	assert_int_equal(sum.memcg_reclaims_fs_deep, 0);
	assert_int_equal(sum.nr_open, 0);
	assert_int_equal(sum.deep_calls, 2);
}

/* The fallbacks (6.18 kmem:mm_page_alloc_extfrag format): every line is
 * a fallback; change_ownership=1 a claim; alloc_migratetype=1
 * (MIGRATE_MOVABLE) with it a movable claim: a RECLAIMABLE (2) claim, a
 * MOVABLE claim and a MOVABLE steal (change_ownership=0) are 3
 * fallbacks, 2 claims, 1 movable claim. */
static void sbtrace_counts_fallbacks_and_claims(void **state)
{
	static const char *const lines[] = {
		"         fs_mark-2290    [001] d..2.   415.1: mm_page_alloc_extfrag: "
		"page=0000000021b4b5a3 pfn=0x1e4600 alloc_order=0 fallback_order=8 "
		"pageblock_order=9 alloc_migratetype=2 fallback_migratetype=1 fragmenting=1 "
		"change_ownership=1\n",
		"    cp-read-file-2288    [000] d..2.   415.2: mm_page_alloc_extfrag: "
		"page=00000000c1a8e3a2 pfn=0x1e4700 alloc_order=2 fallback_order=8 "
		"pageblock_order=9 alloc_migratetype=1 fallback_migratetype=2 fragmenting=1 "
		"change_ownership=1\n",
		"    cp-read-file-2288    [000] d..2.   415.3: mm_page_alloc_extfrag: "
		"page=00000000c1a8e3a2 pfn=0x1e4801 alloc_order=0 fallback_order=0 "
		"pageblock_order=9 alloc_migratetype=1 fallback_migratetype=0 fragmenting=1 "
		"change_ownership=0\n",
	};
	struct cp_sbtrace_sum sum = sum_lines(lines, sizeof(lines) / sizeof(lines[0]));

	(void)state;
	assert_int_equal(sum.extfrag, 3);
	assert_int_equal(sum.extfrag_claim, 2);
	assert_int_equal(sum.extfrag_claim_movable, 1);
	assert_int_equal(sum.calls, 0);
}

/* Watching needs 1 to CP_SBTRACE_MAX_FILES files. */
static void sbtrace_watch_refuses_no_or_too_many_files(void **state)
{
	struct cp_sbtrace t = { .created = true };
	uint64_t inos[CP_SBTRACE_MAX_FILES + 1] = { 0 };
	struct cp_diag d = { { 0 } };

	(void)state;
	assert_int_equal(cp_sbtrace_watch_files(&t, inos, 0, &d), -CP_EINVAL);
	assert_int_equal(cp_sbtrace_watch_files(&t, inos, CP_SBTRACE_MAX_FILES + 1, &d),
			 -CP_EINVAL);
	assert_false(t.watching);
}

/* The instance is named like the harness's other resources, never
 * anything else. */
static void sbtrace_refuses_a_name_not_ours(void **state)
{
	struct cp_sbtrace t;
	struct cp_diag d = { { 0 } };

	(void)state;
	assert_int_equal(cp_sbtrace_create(&t, "foo", 64, false, NULL, &d), -CP_EINVAL);
	assert_int_equal(cp_sbtrace_create(&t, "cachepressure/../x", 64, false, NULL, &d),
			 -CP_EINVAL);
	assert_false(t.created);
}

/* The tracefs the run may mount for itself goes on a directory named
 * like its other resources, by an absolute path, or nowhere: refused
 * before anything is looked up, made or mounted. */
static void sbtrace_refuses_a_mount_point_not_ours(void **state)
{
	struct cp_sbtrace t;
	struct cp_diag d = { { 0 } };

	(void)state;
	assert_int_equal(cp_sbtrace_create(&t, "cachepressure-1-1", 64, false, "/var/tmp/tracefs",
					   &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "/var/tmp/tracefs"));
	assert_int_equal(cp_sbtrace_create(&t, "cachepressure-1-1", 64, false,
					   "work/cachepressure-1-1.tracefs", &d),
			 -CP_EINVAL);
	assert_int_equal(cp_sbtrace_create(&t, "cachepressure-1-1", 64, false, "/", &d),
			 -CP_EINVAL);
	assert_false(t.created);
	assert_false(t.mounted);
	assert_false(t.mnt_made);
	assert_int_equal(cp_sbtrace_remove(&t, &d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sbtrace_sums_the_superblock_shrinkers_frees),
		cmocka_unit_test(sbtrace_refuses_a_name_not_ours),
		cmocka_unit_test(sbtrace_refuses_a_mount_point_not_ours),
		cmocka_unit_test(sbtrace_counts_the_readers_readahead),
		cmocka_unit_test(sbtrace_counts_fallbacks_and_claims),
		cmocka_unit_test(sbtrace_watch_refuses_no_or_too_many_files),
		cmocka_unit_test(meminfo_lines_become_bytes),
		cmocka_unit_test(vmstat_lines_are_name_value),
		cmocka_unit_test(xfs_ig_line_is_found_among_others),
		cmocka_unit_test(buddyinfo_sums_the_zones_by_order),
		cmocka_unit_test(pagetypeinfo_sums_free_blocks_by_type),
		cmocka_unit_test(pagetypeinfo_zone_takes_only_that_zones_lines),
		cmocka_unit_test(pagetypeinfo_pageblocks_of_the_named_zone),
		cmocka_unit_test(zoneinfo_managed_of_the_named_zone),
		cmocka_unit_test(zoneinfo_field_of_the_named_zone),
		cmocka_unit_test(zoneinfo_pcp_pages_sum_the_cpus),
		cmocka_unit_test(slabinfo_gives_a_caches_geometry),
		cmocka_unit_test(proc_stat_cpu_ticks_are_utime_plus_stime),
		cmocka_unit_test(proc_stat_busy_ticks_leave_out_idle_iowait_steal),
		cmocka_unit_test(proc_schedstat_run_delay_is_the_second_number),
		cmocka_unit_test(meminfo_available_from_a_file),
		cmocka_unit_test(balloon_leaves_size_and_keeps_headroom),
		cmocka_unit_test(balloon_page_tables_one_pte_page_per_2mib),
		cmocka_unit_test(balloon_topup_locks_the_excess_over_size),
		cmocka_unit_test(kfile_write_never_creates_files),
		cmocka_unit_test(sampler_columns_start_with_time),
		cmocka_unit_test(block_stat_takes_ios_sectors_and_io_ticks),
		cmocka_unit_test(block_stat_refuses_a_short_line),
		cmocka_unit_test(zoneinfo_watermarks_of_the_named_zone),
		cmocka_unit_test(sbtrace_counts_the_deep_superblock_calls),
		cmocka_unit_test(sbtrace_counts_memcg_reclaims_and_their_gfp),
		cmocka_unit_test(sbtrace_follows_each_memcg_reclaims_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
