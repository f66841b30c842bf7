/*
 * test_machine.c - machine profiles: loading, bad input, --set overrides,
 * name resolution. The profiles are in tests/data/.
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

#include "engine/machine.h"

/* tests/data/, found from this file's path (CMake compiles it by its
 * absolute path). */
static void data_path(char *buf, size_t len, const char *name)
{
	const char *file = __FILE__;
	const char *unit = strstr(file, "unit/test_machine.c");

	assert_non_null(unit);
	snprintf(buf, len, "%.*sdata/%s", (int)(unit - file), file, name);
}

static void data_dir(char *buf, size_t len)
{
	data_path(buf, len, "");
	buf[strlen(buf) - 1] = '\0'; /* no trailing slash */
}

/* Writes text to a fresh temporary file; the caller unlinks it. */
static void write_temp(char *path, size_t len, const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, len, "/tmp/cp-test-machine-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void load_good(struct cp_machine *m)
{
	char path[1024];
	struct cp_diag d = { "" };

	data_path(path, sizeof(path), "machine-test.ini");
	assert_int_equal(cp_machine_load(path, m, &d), 0);
}

/* Every key lands in its field, converted to bytes, bytes/s or ns. */
static void good_profile_sets_every_key_in_integer_units(void **state)
{
	struct cp_machine m;

	(void)state;
	load_good(&m);
	assert_string_equal(m.name, "unit-box");
	assert_string_equal(m.description, "round numbers for hand-checked tests");
	assert_int_equal(m.nr_cpus, 2);
	assert_int_equal(m.ram_bytes, 1ULL << 30);
	assert_int_equal(m.reserve_bytes, 64ULL << 20);
	assert_int_equal(m.process_bytes, 16ULL << 20);
	assert_false(m.thp);
	assert_int_equal(m.nr_zones, 2);
	assert_int_equal(m.min_free_kbytes, 0);
	assert_int_equal(m.watermark_scale_factor, 10);
	assert_int_equal(m.copy_bandwidth_bps, 1ULL << 30);
	assert_int_equal(m.read_syscall_ns, 1000);  /* bare number: ns */
	assert_int_equal(m.page_cached_ns, 50);
	assert_int_equal(m.page_insert_ns, 400);
	assert_int_equal(m.page_insert_page_ns, 7);
	assert_int_equal(m.lru_evict_ns, 100);
	assert_int_equal(m.lru_evict_page_ns, 10);
	assert_int_equal(m.lru_move_ns, 30);
	assert_int_equal(m.lru_move_page_ns, 3);
	assert_int_equal(m.slab_scan_ns, 1000);     /* "1us" */
	assert_int_equal(m.object_free_ns, 200);
	assert_string_equal(m.device_model, "unit-test device");
	assert_int_equal(m.read_bandwidth_bps, 1000ULL << 20);
	assert_int_equal(m.write_bandwidth_bps, 500ULL << 20);
	assert_int_equal(m.read_latency_ns, 20000);
	assert_int_equal(m.write_latency_ns, 1000000);
	assert_int_equal(m.max_request_bytes, 131072);
	assert_int_equal(m.queue_depth, 4);
	assert_int_equal(m.read_ahead_kb, 128);
	assert_true(cp_machine_check(&m));
}

/* A failed load leaves *m as it was. */
static void assert_untouched(const struct cp_machine *m)
{
	struct cp_machine sentinel;

	memset(&sentinel, 0x5a, sizeof(sentinel));
	assert_memory_equal(m, &sentinel, sizeof(sentinel));
}

static void unknown_key_names_file_line_section_and_key(void **state)
{
	char path[1024], want[1200];
	struct cp_machine m;
	struct cp_diag d = { "" };

	(void)state;
	memset(&m, 0x5a, sizeof(m));
	data_path(path, sizeof(path), "machine-unknown-key.ini");
	assert_int_equal(cp_machine_load(path, &m, &d), -CP_EINVAL);
	/* line 9 of the file is "cpu_count = 2" */
	snprintf(want, sizeof(want), "%s:9: unknown key 'cpu_count' in [machine]", path);
	assert_string_equal(d.msg, want);
	assert_untouched(&m);
}

static void bad_size_names_file_line_key_and_value(void **state)
{
	char path[1024], want[1200];
	struct cp_machine m;
	struct cp_diag d = { "" };

	(void)state;
	memset(&m, 0x5a, sizeof(m));
	data_path(path, sizeof(path), "machine-bad-size.ini");
	assert_int_equal(cp_machine_load(path, &m, &d), -CP_EINVAL);
	snprintf(want, sizeof(want),
		 "%s:10: key 'ram' in [machine]: bad value '16Q' (expected a size like 16G)", path);
	assert_string_equal(d.msg, want);
	assert_untouched(&m);
}

static void missing_required_key_is_named(void **state)
{
	char path[1024], want[1200];
	struct cp_machine m;
	struct cp_diag d = { "" };

	(void)state;
	memset(&m, 0x5a, sizeof(m));
	data_path(path, sizeof(path), "machine-missing-key.ini");
	assert_int_equal(cp_machine_load(path, &m, &d), -CP_EINVAL);
	snprintf(want, sizeof(want), "%s: required key 'read_latency' in [device] is missing",
		 path);
	assert_string_equal(d.msg, want);
	assert_untouched(&m);
}

static void missing_file_is_enoent_and_names_the_path(void **state)
{
	struct cp_machine m;
	struct cp_diag d = { "" };

	(void)state;
	memset(&m, 0x5a, sizeof(m));
	assert_int_equal(cp_machine_load("/nonexistent/cp-machine.ini", &m, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "/nonexistent/cp-machine.ini: cannot open machine profile"));
	assert_untouched(&m);
}

/* Loads text from a temp file; returns rc, diag message without the
 * "path" prefix in msg_after_path. */
static int load_text(const char *text, char *msg_after_path, size_t len)
{
	char path[64];
	struct cp_machine m;
	struct cp_diag d = { "" };
	int rc;

	write_temp(path, sizeof(path), text);
	rc = cp_machine_load(path, &m, &d);
	unlink(path);
	if (rc) {
		assert_memory_equal(d.msg, path, strlen(path));
		snprintf(msg_after_path, len, "%s", d.msg + strlen(path));
	}
	return rc;
}

/* Durations without a unit would mean seconds in cp_parse_duration():
 * "read_latency = 20" is refused rather than taken as 20 s. */
static void bad_inputs_each_name_line_key_and_value(void **state)
{
	char msg[600];

	(void)state;
	assert_int_equal(load_text("[device]\nread_latency = 20\n", msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":2: key 'read_latency' in [device]: bad value '20' "
				 "(expected a duration with a unit like 20us)");

	assert_int_equal(load_text("[machine]\ncpus = 2\ncpus = 4\n", msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":3: key 'cpus' in [machine] given twice (first on line 2)");

	assert_int_equal(load_text("[gpu]\ncores = 2\n", msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":2: unknown section [gpu] (expected [machine], [cpu], "
				 "[device] or [readahead])");

	assert_int_equal(load_text("cpus = 2\n", msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":1: key 'cpus' outside any section");

	assert_int_equal(load_text("[machine]\n\ncpus\n", msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":3: syntax error (expected [section], key = value or a ; comment)");

	assert_int_equal(load_text("[machine]\ncpus = 0\n", msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":2: key 'cpus' in [machine]: value '0' out of range (1..4096)");

	assert_int_equal(load_text("[machine]\nthp = maybe\n", msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":2: key 'thp' in [machine]: bad value 'maybe' (expected yes or no)");
}

/* inih reads lines into a fixed buffer (200 bytes in Debian's build): a
 * longer line is refused, not silently cut. */
static void overlong_line_is_refused(void **state)
{
	char text[600], msg[600];

	(void)state;
	snprintf(text, sizeof(text), "[machine]\ndescription = %0400d\ncpus = 2\n", 7);
	assert_int_equal(load_text(text, msg, sizeof(msg)), -CP_EINVAL);
	assert_non_null(strstr(msg, ":2: line longer than "));
}

/* The first error wins, even when later lines are also bad. */
static void first_error_is_reported(void **state)
{
	char msg[600];

	(void)state;
	assert_int_equal(load_text("[machine]\nram = 1X\nbogus = 1\n", msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ":2: key 'ram' in [machine]: bad value '1X' (expected a size like 16G)");
}

static void set_overrides_one_key(void **state)
{
	struct cp_machine m;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	assert_int_equal(cp_machine_set(&m, "device.read_latency", "50us", &d), 0);
	assert_int_equal(m.read_latency_ns, 50000);
	assert_int_equal(cp_machine_set(&m, "machine.cpus", "8", &d), 0);
	assert_int_equal(m.nr_cpus, 8);
	assert_int_equal(cp_machine_set(&m, "machine.thp", "yes", &d), 0);
	assert_true(m.thp);
	assert_int_equal(cp_machine_set(&m, "machine.name", "other", &d), 0);
	assert_string_equal(m.name, "other");
	assert_true(cp_machine_check(&m));
}

/* dma32 is optional (0: not known, one zone); it is ZONE_DMA32's managed
 * memory, so it cannot exceed 4 GiB (MAX_DMA32_PFN) nor the RAM (1 GiB
 * in the test profile). */
static void dma32_is_optional_and_at_most_ram_and_4g(void **state)
{
	struct cp_machine m, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	assert_int_equal(m.dma32_bytes, 0);
	assert_int_equal(cp_machine_set(&m, "machine.dma32", "768M", &d), 0);
	assert_int_equal(m.dma32_bytes, 768ULL << 20);
	before = m;
	assert_int_equal(cp_machine_set(&m, "machine.dma32", "2G", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "'dma32' and 'ram'"));
	assert_int_equal(cp_machine_set(&m, "machine.dma32", "5G", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "dma32"));
	assert_memory_equal(&m, &before, sizeof(m));
}

/* sched_autogroup is an optional yes/no (absent: no, init/Kconfig's
 * default for CONFIG_SCHED_AUTOGROUP); xfs_create_kworker_ns is part of
 * xfs_create_ns and never more than it. */
static void autogroup_and_the_creates_kworker_part(void **state)
{
	struct cp_machine m, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	assert_false(m.sched_autogroup);
	assert_int_equal(m.xfs_create_kworker_ns, 0);
	assert_int_equal(cp_machine_set(&m, "cpu.sched_autogroup", "yes", &d), 0);
	assert_true(m.sched_autogroup);
	assert_int_equal(cp_machine_set(&m, "cpu.xfs_create_ns", "30000", &d), 0);
	assert_int_equal(cp_machine_set(&m, "cpu.xfs_create_kworker_ns", "1500", &d), 0);
	assert_int_equal(m.xfs_create_kworker_ns, 1500);
	before = m;
	assert_int_equal(cp_machine_set(&m, "cpu.xfs_create_kworker_ns", "31000", &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "'xfs_create_kworker_ns' and 'xfs_create_ns'"));
	assert_int_equal(cp_machine_set(&m, "cpu.sched_autogroup", "often", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "sched_autogroup"));
	assert_memory_equal(&m, &before, sizeof(m));
}

/* fs_mark_cpus_beside_readers and readers_cpus_beside_fs_mark are
 * optional (0: not measured), per mille of a CPU up to two CPUs, and
 * come together: one alone is refused, naming both. */
static void fs_mark_and_readers_cpus_come_together(void **state)
{
	struct cp_machine m, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	assert_int_equal(m.fs_mark_cpus_pm, 0);
	assert_int_equal(m.readers_cpus_pm, 0);
	before = m;
	assert_int_equal(cp_machine_set(&m, "cpu.fs_mark_cpus_beside_readers", "864", &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "'fs_mark_cpus_beside_readers' and "
				      "'readers_cpus_beside_fs_mark'"));
	assert_memory_equal(&m, &before, sizeof(m));
	assert_int_equal(cp_machine_set(&m, "cpu.readers_cpus_beside_fs_mark", "2001", &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "readers_cpus_beside_fs_mark"));
	assert_memory_equal(&m, &before, sizeof(m));
}

/* share_beside_busy_cpus is optional (0: the device's work takes none of
 * the CPUs), per mille, below 1000 (a device as fast beside busy CPUs as
 * beside idle ones takes none of theirs either: leave the key out). */
static void device_share_beside_busy_cpus_is_below_one(void **state)
{
	struct cp_machine m, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	assert_int_equal(m.share_beside_busy_cpus_pm, 0);
	assert_int_equal(cp_machine_set(&m, "device.share_beside_busy_cpus", "258", &d), 0);
	assert_int_equal(m.share_beside_busy_cpus_pm, 258);
	before = m;
	assert_int_equal(cp_machine_set(&m, "device.share_beside_busy_cpus", "1000", &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "share_beside_busy_cpus"));
	assert_int_equal(cp_machine_set(&m, "device.share_beside_busy_cpus", "-3", &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "share_beside_busy_cpus"));
	assert_memory_equal(&m, &before, sizeof(m));
}

/* memory_bandwidth is optional (0: no limit shared by the copying CPUs,
 * engine/work.c cp_copy_bandwidth) and a rate like copy_bandwidth. */
static void memory_bandwidth_is_an_optional_rate(void **state)
{
	struct cp_machine m, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	assert_int_equal(m.memory_bandwidth_bps, 0);
	assert_int_equal(cp_machine_set(&m, "cpu.memory_bandwidth", "2G", &d), 0);
	assert_int_equal(m.memory_bandwidth_bps, 2ULL << 30);
	before = m;
	assert_int_equal(cp_machine_set(&m, "cpu.memory_bandwidth", "fast", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'memory_bandwidth' in [cpu]: bad value 'fast'"));
	assert_int_equal(cp_machine_set(&m, "cpu.memory_bandwidth", "-1G", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "memory_bandwidth"));
	assert_memory_equal(&m, &before, sizeof(m));
}

/* buffered_write_bandwidth is optional (0: a write() costs what a read()
 * of the same pages does, workloads/writer.c) and a rate. */
static void buffered_write_bandwidth_is_an_optional_rate(void **state)
{
	struct cp_machine m, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	assert_int_equal(m.buffered_write_bandwidth_bps, 0);
	assert_int_equal(cp_machine_set(&m, "cpu.buffered_write_bandwidth", "700M", &d), 0);
	assert_int_equal(m.buffered_write_bandwidth_bps, 700ULL << 20);
	before = m;
	assert_int_equal(cp_machine_set(&m, "cpu.buffered_write_bandwidth", "quick", &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'buffered_write_bandwidth' in [cpu]: bad value 'quick'"));
	assert_memory_equal(&m, &before, sizeof(m));
}

/* [cpu] xfs_create_ns is optional (calibrate measures it; absent = the
 * xfs profile's own costs), a duration in ns, never negative. */
static void xfs_create_ns_is_an_optional_duration(void **state)
{
	struct cp_machine m, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	assert_int_equal(m.xfs_create_ns, 0);
	assert_int_equal(cp_machine_set(&m, "cpu.xfs_create_ns", "29500", &d), 0);
	assert_int_equal(m.xfs_create_ns, 29500);
	before = m;
	assert_int_equal(cp_machine_set(&m, "cpu.xfs_create_ns", "-5", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'xfs_create_ns' in [cpu]"));
	assert_int_equal(cp_machine_set(&m, "cpu.xfs_create_ns", "quick", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "'quick'"));
	assert_memory_equal(&m, &before, sizeof(m));
}

static void set_rejects_bad_input_and_leaves_machine_unchanged(void **state)
{
	struct cp_machine m, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&m);
	before = m;
	assert_int_equal(cp_machine_set(&m, "device.read_latency", "soon", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "key 'read_latency' in [device]: bad value 'soon' "
				   "(expected a duration with a unit like 20us)");
	assert_int_equal(cp_machine_set(&m, "device.latency", "1us", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "unknown key 'latency' in [device]");
	assert_int_equal(cp_machine_set(&m, "disk.model", "x", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "unknown section [disk]"));
	assert_int_equal(cp_machine_set(&m, "cpus", "4", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "bad key 'cpus' (expected section.key"));
	/* 2 GiB of reserve leaves nothing of 1 GiB RAM */
	assert_int_equal(cp_machine_set(&m, "machine.reserve", "2G", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "'reserve' and 'process'"));
	/* 4100 bytes is not a whole number of 512-byte sectors */
	assert_int_equal(cp_machine_set(&m, "device.max_request", "4100", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'max_request' in [device]"));
	assert_memory_equal(&m, &before, sizeof(m));
}

static void resolve_turns_bare_name_into_search_dir_path(void **state)
{
	char dir[1024], want[1200], out[1200];
	struct cp_machine m;
	struct cp_diag d = { "" };

	(void)state;
	data_dir(dir, sizeof(dir));
	assert_int_equal(cp_machine_resolve("machine-test", dir, out, sizeof(out), &d), 0);
	snprintf(want, sizeof(want), "%s/machine-test.ini", dir);
	assert_string_equal(out, want);
	/* a path is used as is */
	assert_int_equal(cp_machine_resolve(want, "/elsewhere", out, sizeof(out), &d), 0);
	assert_string_equal(out, want);
	assert_int_equal(cp_machine_load_named("machine-test", dir, &m, &d), 0);
	assert_string_equal(m.name, "unit-box");
}

static void resolve_reports_missing_and_bad_names(void **state)
{
	char dir[1024], out[1200] = "untouched";
	struct cp_diag d = { "" };

	(void)state;
	data_dir(dir, sizeof(dir));
	assert_int_equal(cp_machine_resolve("no-such-box", dir, out, sizeof(out), &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "machine profile 'no-such-box' not found (no file "));
	assert_non_null(strstr(d.msg, "/no-such-box.ini)"));
	assert_int_equal(cp_machine_resolve("a b", dir, out, sizeof(out), &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "'a b'"));
	assert_int_equal(cp_machine_resolve("", dir, out, sizeof(out), &d), -CP_EINVAL);
	assert_int_equal(cp_machine_resolve("box", NULL, out, sizeof(out), &d), -CP_EINVAL);
	assert_string_equal(out, "untouched");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_profile_sets_every_key_in_integer_units),
		cmocka_unit_test(unknown_key_names_file_line_section_and_key),
		cmocka_unit_test(bad_size_names_file_line_key_and_value),
		cmocka_unit_test(missing_required_key_is_named),
		cmocka_unit_test(missing_file_is_enoent_and_names_the_path),
		cmocka_unit_test(bad_inputs_each_name_line_key_and_value),
		cmocka_unit_test(first_error_is_reported),
		cmocka_unit_test(overlong_line_is_refused),
		cmocka_unit_test(set_overrides_one_key),
		cmocka_unit_test(memory_bandwidth_is_an_optional_rate),
		cmocka_unit_test(buffered_write_bandwidth_is_an_optional_rate),
		cmocka_unit_test(xfs_create_ns_is_an_optional_duration),
		cmocka_unit_test(set_rejects_bad_input_and_leaves_machine_unchanged),
		cmocka_unit_test(dma32_is_optional_and_at_most_ram_and_4g),
		cmocka_unit_test(autogroup_and_the_creates_kworker_part),
		cmocka_unit_test(fs_mark_and_readers_cpus_come_together),
		cmocka_unit_test(device_share_beside_busy_cpus_is_below_one),
		cmocka_unit_test(resolve_turns_bare_name_into_search_dir_path),
		cmocka_unit_test(resolve_reports_missing_and_bad_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
