/*
 * test_lab_calibrate.c - `calibrate --kernel` (harness/lib/labcal.c,
 * calib_profile.c, opts.c): its options, the guest's arguments, the note
 * each measured key gets, the profile payload between the result markers,
 * and how the host takes over the keys the guest measured.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cachepressure/error.h>

#include "calib_profile.h"
#include "calibrate.h"
#include "labcal.h"
#include "opts.h"
#include "qemu.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MIB (1024ULL * 1024ULL)

/* ---- options -------------------------------------------------------- */

/* Without --kernel: the host's calibration with a 1 GiB file and 100000
 * fs_mark files; no lab options. */
static void calibrate_defaults_are_1g_file_and_100000_files(void **state)
{
	char *argv[] = { "calibrate" };
	struct cp_calibrate_opts o;

	(void)state;
	assert_int_equal(cp_calibrate_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_int_equal(o.file_bytes, 1024 * MIB);
	assert_int_equal(o.nr_files, 100000);
	assert_null(o.lab.kernel);
	assert_null(o.guest_disk);
}

/* --kernel alone: the guest gets 1G + 256M = 1280 MiB (what `real --mem 1G
 * --kernel` gives) and 2 CPUs. */
static void kernel_default_guest_is_1280m_2_cpus(void **state)
{
	char *argv[] = { "calibrate", "--kernel", "/k/bzImage", "--file-size", "128M", "--files",
			 "5000" };
	struct cp_calibrate_opts o;

	(void)state;
	assert_int_equal(cp_calibrate_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_string_equal(o.lab.kernel, "/k/bzImage");
	assert_int_equal(o.lab.vm_mem_bytes, 1280 * MIB);
	assert_int_equal(o.lab.vm_cpus, 2);
	assert_int_equal(o.file_bytes, 128 * MIB);
	assert_int_equal(o.nr_files, 5000);
}

/* The data file must stay cached in the guest: --vm-mem >= --file-size +
 * 192 MiB. 1G + 192M = 1216M > 1G: refused, naming both; 512M for a 256M
 * file (448M needed) is fine. */
static void kernel_vm_mem_must_hold_the_file(void **state)
{
	char *small[] = { "calibrate", "--kernel", "/k", "--vm-mem", "1G" };
	char *fits[] = { "calibrate", "--kernel", "/k", "--vm-mem", "512M", "--file-size", "256M" };
	struct cp_calibrate_opts o;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_calibrate_opts_parse(ARGC(small), small, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--vm-mem 1024 MiB is too small for --file-size 1024 MiB"));
	assert_int_equal(cp_calibrate_opts_parse(ARGC(fits), fits, &o, NULL), 0);
	assert_int_equal(o.lab.vm_mem_bytes, 512 * MIB);
}

static void bad_lab_options_are_named(void **state)
{
	char *nosize[] = { "calibrate", "--kernel", "/k", "--vm-mem", "12Q" };
	char *nokernel[] = { "calibrate", "--vm-cpus", "4" };
	char *tiny[] = { "calibrate", "--file-size", "8M" };
	char *frac[] = { "calibrate", "--file-size", "100.5M" };
	char *nofiles[] = { "calibrate", "--files", "0" };
	char *both[] = { "calibrate", "--kernel", "/k", "--guest-disk", "/dev/vda" };
	struct cp_calibrate_opts o;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_calibrate_opts_parse(ARGC(nosize), nosize, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--vm-mem '12Q'"));
	assert_int_equal(cp_calibrate_opts_parse(ARGC(nokernel), nokernel, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--vm-cpus needs --kernel"));
	assert_int_equal(cp_calibrate_opts_parse(ARGC(tiny), tiny, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--file-size '8M'"));
	assert_int_equal(cp_calibrate_opts_parse(ARGC(frac), frac, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--file-size '100.5M'"));
	assert_int_equal(cp_calibrate_opts_parse(ARGC(nofiles), nofiles, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--files '0'"));
	assert_int_equal(cp_calibrate_opts_parse(ARGC(both), both, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--kernel inside a lab guest"));
}

/* ---- what the guest runs ---------------------------------------------- */

/* 128 MiB = 134217728 bytes, passed as a plain byte count. */
static void guest_args_are_calibrate_with_sizes_and_result_file(void **state)
{
	char *argv[] = { "calibrate", "--kernel", "/k", "--name", "lab-tcg", "--file-size",
			 "128M", "--files", "5000", "-o", "/home/me/out.ini" };
	static const char *const want[] = { "calibrate", "--name", "lab-tcg", "--file-size",
					    "134217728", "--files", "5000", "-o",
					    "/tmp/result.ini" };
	struct cp_calibrate_opts o;
	struct cp_labcal_args a;
	size_t i;

	(void)state;
	assert_int_equal(cp_calibrate_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	cp_labcal_guest_args(&o, &a);
	assert_int_equal(a.argc, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < a.argc; i++)
		assert_string_equal(a.argv[i], want[i]);
	/* the round trip: the guest parses them back to the same sizes */
	{
		char *back[sizeof(want) / sizeof(want[0])];
		struct cp_calibrate_opts g;

		for (i = 0; i < a.argc; i++)
			back[i] = (char *)a.argv[i];
		assert_int_equal(cp_calibrate_opts_parse((int)a.argc, back, &g, NULL), 0);
		assert_int_equal(g.file_bytes, 128 * MIB);
		assert_int_equal(g.nr_files, 5000);
		assert_string_equal(g.output, CP_LABCAL_RESULT);
	}
}

/* 300 s + 1 GiB x 300 s + 100000 / 200 s = 1100 s; 128 MiB and 5000
 * files: 300 + 37 (300/8, rounded down) + 25 = 362 s. */
static void default_timeout_grows_with_file_and_files(void **state)
{
	struct cp_calibrate_opts o;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.file_bytes = 1024 * MIB;
	o.nr_files = 100000;
	assert_int_equal(cp_labcal_default_timeout_ns(&o), 1100ULL * 1000000000ULL);
	o.file_bytes = 128 * MIB;
	o.nr_files = 5000;
	assert_int_equal(cp_labcal_default_timeout_ns(&o), 362ULL * 1000000000ULL);
}

static void note_names_guest_kernel_memory_cpus_disk_and_host(void **state)
{
	char note[512];

	(void)state;
	cp_labcal_note(note, sizeof(note), false, "/k/bzImage", "6.1.192", 1280 * MIB, 2, "box");
	assert_string_equal(note, "measured inside a qemu TCG guest of /k/bzImage (kernel 6.1.192) "
				  "with 1280 MiB, 2 CPUs, virtio disk (cache=none) on an image "
				  "file on box");
	cp_labcal_note(note, sizeof(note), true, "/k", "", 512 * MIB, 1, "h");
	assert_non_null(strstr(note, "qemu KVM guest of /k (kernel ?) with 512 MiB, 1 CPU,"));
}

static void guest_kernel_from_the_init_line(void **state)
{
	char k[64];

	(void)state;
	cp_labcal_guest_kernel("cachepressure guest: kernel 6.1.192, MemTotal: 1234 kB,", k,
			       sizeof(k));
	assert_string_equal(k, "6.1.192");
	cp_labcal_guest_kernel("[    0.1] Linux version 6.1.192", k, sizeof(k));
	assert_string_equal(k, "");
}

/* ---- the payload: a profile between the result markers ---------------- */

static const char guest_ini[] =
	"; Machine profile of (none), written by `cachepressure calibrate` on\n"
	"; 2026-11-30T09:00:00Z, kernel 6.1.192.\n"
	"\n"
	"[machine]\n"
	"; given with --name\n"
	"name = lab\n"
	"; measured: sysconf(_SC_NPROCESSORS_ONLN) (as `nproc`); `cachepressure\n"
	"; calibrate`, 2026-11-30T09:00:00Z, kernel 6.1.192\n"
	"cpus = 2\n"
	"; ram: not measured, and no source profile has it (give --from FILE)\n"
	"; ram =\n"
	"; measured: ram - MemTotal\n"
	"reserve = 25M\n"
	"\n"
	"[cpu]\n"
	"; measured: mean of 5 passes over a cached 128 MiB file\n"
	"; range: 900M..1100M\n"
	"copy_bandwidth = 1000M\n"
	"\n"
	"; fs_mark create rate for empty files on xfs, one worker: 1800 files/s,\n"
	"; measured with `fs_mark -d fsm -n\n"
	"; 5000 -s 0` on a fresh xfs on /dev/vda; 2026-11-30T09:00:00Z, kernel 6.1.192.\n";

/* The INI's own '[' and ';' lines are payload, not markers: the payload is
 * exactly the text between the begin line and the end line. */
static void ini_payload_between_markers(void **state)
{
	char text[4096];
	struct cp_lab_output out;
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "noise\r\n" CP_LAB_BEGIN "\r\n%s" CP_LAB_END " exit=0@@\n",
		     guest_ini);
	cp_lab_output_parse(text, (size_t)n, &out);
	assert_int_equal(out.status, CP_LAB_OUTPUT_OK);
	assert_int_equal(out.guest_exit, 0);
	assert_int_equal(out.json_len, strlen(guest_ini));
	assert_memory_equal(out.json, guest_ini, strlen(guest_ini));
	/* cut off before the end marker */
	n = snprintf(text, sizeof(text), CP_LAB_BEGIN "\n[machine]\ncpus = 2\n");
	cp_lab_output_parse(text, (size_t)n, &out);
	assert_int_equal(out.status, CP_LAB_OUTPUT_TRUNCATED);
	/* the guest died before printing anything */
	cp_lab_output_parse("[machine]\ncpus = 2\n", 19, &out);
	assert_int_equal(out.status, CP_LAB_OUTPUT_NONE);
}

/* A key with a value in the guest's profile becomes measured: its value,
 * its comment from the "measured: " line on, without that prefix (the
 * wrapped lines kept), the range line moved into range, the note last. A
 * key the guest left empty (ram) stays unmeasured, and the host's --name
 * wins. */
static void guest_keys_taken_with_comment_range_and_note(void **state)
{
	struct cp_calibration *c = calloc(1, sizeof(*c));
	struct cp_calib_value *v;

	(void)state;
	assert_non_null(c);
	cp_calibration_init(c, "host-name");
	assert_int_equal(cp_calib_take_guest(c, guest_ini, strlen(guest_ini), "NOTE", NULL), 0);
	v = cp_calibration_get(c, "machine", "cpus");
	assert_true(v->measured);
	assert_string_equal(v->value, "2");
	assert_string_equal(v->how, "sysconf(_SC_NPROCESSORS_ONLN) (as `nproc`); `cachepressure\n"
				    "calibrate`, 2026-11-30T09:00:00Z, kernel 6.1.192\nNOTE");
	v = cp_calibration_get(c, "cpu", "copy_bandwidth");
	assert_true(v->measured);
	assert_string_equal(v->value, "1000M");
	assert_string_equal(v->range, "900M..1100M");
	assert_string_equal(v->how, "mean of 5 passes over a cached 128 MiB file\nNOTE");
	assert_false(cp_calibration_get(c, "machine", "ram")->measured);
	/* right below the unmeasured ram: only its own comment lines */
	v = cp_calibration_get(c, "machine", "reserve");
	assert_true(v->measured);
	assert_string_equal(v->how, "ram - MemTotal\nNOTE");
	assert_false(cp_calibration_get(c, "cpu", "lru_evict_ns")->measured);
	assert_string_equal(cp_calibration_get(c, "machine", "name")->value, "host-name");
	/* the closing fs_mark paragraph, its command joined over the wrap */
	assert_int_equal(c->fs_mark_files_per_sec, 1800);
	assert_non_null(strstr(c->fs_mark_how, "`fs_mark -d fsm -n 5000 -s 0`"));
	free(c);
}

static void guest_profile_without_values_is_refused(void **state)
{
	static const char empty[] = "; nothing measured\n[machine]\nname = x\n; cpus =\n";
	static const char broken[] = "[machine\ncpus = 2\n";
	struct cp_calibration *c = calloc(1, sizeof(*c));
	struct cp_diag d = { "" };

	(void)state;
	assert_non_null(c);
	cp_calibration_init(c, "h");
	assert_int_equal(cp_calib_take_guest(c, empty, strlen(empty), "N", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "no measured value"));
	assert_int_equal(cp_calib_take_guest(c, broken, strlen(broken), "N", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "line 1"));
	free(c);
}

/* What the host writes loads back: the guest's values, the copied ones
 * from the source, the note above each measured key. */
static void written_profile_loads_back(void **state)
{
	static const char src_text[] = "[cpu]\n; per page, from a source\nlru_evict_ns = 720\n";
	struct cp_calibration *c = calloc(1, sizeof(*c));
	struct cp_calib_source *src = calloc(1, sizeof(*src));
	struct cp_calib_source *back = calloc(1, sizeof(*back));
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(c);
	assert_non_null(src);
	assert_non_null(back);
	cp_calibration_init(c, "lab");
	assert_int_equal(cp_calib_take_guest(c, guest_ini, strlen(guest_ini), "NOTE N", NULL), 0);
	assert_int_equal(cp_calib_source_parse(src, "src.ini", src_text, strlen(src_text), NULL),
			 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	cp_calib_profile_write(f, c, src);
	fclose(f);
	assert_int_equal(cp_calib_source_parse(back, "out", buf, len, NULL), 0);
	assert_string_equal(cp_calib_source_find(back, "machine", "cpus")->value, "2");
	assert_string_equal(cp_calib_source_find(back, "cpu", "copy_bandwidth")->value, "1000M");
	assert_string_equal(cp_calib_source_find(back, "cpu", "lru_evict_ns")->value, "720");
	assert_null(cp_calib_source_find(back, "machine", "ram"));
	assert_non_null(strstr(cp_calib_source_find(back, "cpu", "copy_bandwidth")->comment,
			       "NOTE N\nrange: 900M..1100M\n"));
	assert_non_null(strstr(cp_calib_source_find(back, "cpu", "lru_evict_ns")->comment,
			       "per page, from a source"));
	assert_non_null(strstr(buf, "one worker: 1800 files/s"));
	free(buf);
	free(back);
	free(src);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(calibrate_defaults_are_1g_file_and_100000_files),
		cmocka_unit_test(kernel_default_guest_is_1280m_2_cpus),
		cmocka_unit_test(kernel_vm_mem_must_hold_the_file),
		cmocka_unit_test(bad_lab_options_are_named),
		cmocka_unit_test(guest_args_are_calibrate_with_sizes_and_result_file),
		cmocka_unit_test(default_timeout_grows_with_file_and_files),
		cmocka_unit_test(note_names_guest_kernel_memory_cpus_disk_and_host),
		cmocka_unit_test(guest_kernel_from_the_init_line),
		cmocka_unit_test(ini_payload_between_markers),
		cmocka_unit_test(guest_keys_taken_with_comment_range_and_note),
		cmocka_unit_test(guest_profile_without_values_is_refused),
		cmocka_unit_test(written_profile_loads_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
