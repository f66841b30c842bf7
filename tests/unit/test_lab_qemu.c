/*
 * test_lab_qemu.c - the kernel lab's qemu command line (KVM vs TCG,
 * memory, CPUs, the disk, the kernel command line), the parse of the
 * guest's result port (markers, a truncated output, a guest that never
 * printed its end marker), and the guard of the guest mode
 * (harness/lib/qemu.c, guest.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "guest.h"
#include "lab.h"
#include "qemu.h"

static void config(struct cp_qemu_config *c)
{
	memset(c, 0, sizeof(*c));
	c->qemu = "/usr/bin/qemu-system-x86_64";
	c->kernel = "/k/bzImage";
	c->initrd = "/w/cachepressure-1.initrd";
	c->disk = "/w/cachepressure-1-1.img";
	c->console_path = "/w/cachepressure-1-1.console";
	c->result_path = "/w/cachepressure-1-1.result";
	c->mem_bytes = 1342177280ULL; /* 1.25 GiB */
	c->cpus = 2;
	c->accel = CP_LAB_ACCEL_TCG;
	c->append_extra = "cachepressure.rep=1";
}

/* The value following option opt in argv, or NULL (the n-th occurrence). */
static const char *after(const struct cp_qemu_argv *a, const char *opt, int nth)
{
	size_t i;

	for (i = 0; i + 1 < a->argc; i++)
		if (strcmp(a->argv[i], opt) == 0 && nth-- == 0)
			return a->argv[i + 1];
	return NULL;
}

static bool has(const struct cp_qemu_argv *a, const char *word)
{
	size_t i;

	for (i = 0; i < a->argc; i++)
		if (strcmp(a->argv[i], word) == 0)
			return true;
	return false;
}

/* TCG: -accel tcg,thread=multi (a host thread per guest CPU) and no -cpu;
 * 1.25 GiB = 1280 MiB; two serial files. */
static void tcg_command_line(void **state)
{
	struct cp_qemu_config c;
	struct cp_qemu_argv a;

	(void)state;
	config(&c);
	assert_int_equal(cp_qemu_argv_build(&c, &a, NULL), 0);
	assert_string_equal(a.argv[0], "/usr/bin/qemu-system-x86_64");
	assert_null(a.argv[a.argc]);
	assert_string_equal(after(&a, "-accel", 0), "tcg,thread=multi");
	assert_null(after(&a, "-cpu", 0));
	assert_string_equal(after(&a, "-m", 0), "1280M");
	assert_string_equal(after(&a, "-smp", 0), "2");
	assert_string_equal(after(&a, "-kernel", 0), "/k/bzImage");
	assert_string_equal(after(&a, "-initrd", 0), "/w/cachepressure-1.initrd");
	assert_string_equal(after(&a, "-drive", 0),
			    "file=/w/cachepressure-1-1.img,format=raw,if=virtio,cache=none");
	assert_string_equal(after(&a, "-append", 0),
			    "console=ttyS0 panic=-1 quiet cachepressure.guest=1 cachepressure.rep=1");
	assert_string_equal(after(&a, "-serial", 0), "file:/w/cachepressure-1-1.console");
	assert_string_equal(after(&a, "-serial", 1), "file:/w/cachepressure-1-1.result");
	assert_true(has(&a, "-no-reboot"));
	assert_true(has(&a, "-nographic"));
	assert_string_equal(after(&a, "-monitor", 0), "none");
}

/* KVM: -accel kvm -cpu host; 4 CPUs, 512 MiB; no disk for a probe. */
static void kvm_command_line(void **state)
{
	struct cp_qemu_config c;
	struct cp_qemu_argv a;

	(void)state;
	config(&c);
	c.accel = CP_LAB_ACCEL_KVM;
	c.cpus = 4;
	c.mem_bytes = 512ULL << 20;
	c.disk = NULL;
	c.append_extra = NULL;
	assert_int_equal(cp_qemu_argv_build(&c, &a, NULL), 0);
	assert_string_equal(after(&a, "-accel", 0), "kvm");
	assert_string_equal(after(&a, "-cpu", 0), "host");
	assert_string_equal(after(&a, "-smp", 0), "4");
	assert_string_equal(after(&a, "-m", 0), "512M");
	assert_null(after(&a, "-drive", 0));
	assert_string_equal(after(&a, "-append", 0), CP_LAB_APPEND_BASE);
}

static void bad_configs_are_refused(void **state)
{
	struct cp_qemu_config c;
	struct cp_qemu_argv a;
	struct cp_diag d = { "" };

	(void)state;
	config(&c);
	c.accel = CP_LAB_ACCEL_AUTO; /* must be decided before */
	assert_int_equal(cp_qemu_argv_build(&c, &a, &d), -CP_EINVAL);
	config(&c);
	c.disk = "/w/a,b.img"; /* a comma would split qemu's -drive options */
	assert_int_equal(cp_qemu_argv_build(&c, &a, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "/w/a,b.img"));
	config(&c);
	c.cpus = 0;
	assert_int_equal(cp_qemu_argv_build(&c, &a, &d), -CP_EINVAL);
}

static const char port_ok[] = "@@cachepressure-result-begin@@\r\n"
			      "{\"runs\": []}\r\n"
			      "@@cachepressure-result-end exit=0@@\r\n";

static void result_between_markers(void **state)
{
	struct cp_lab_output o;

	(void)state;
	cp_lab_output_parse(port_ok, strlen(port_ok), &o);
	assert_int_equal(o.status, CP_LAB_OUTPUT_OK);
	assert_int_equal(o.guest_exit, 0);
	/* the JSON line with its "\r\n": cJSON skips the whitespace */
	assert_int_equal(o.json_len, strlen("{\"runs\": []}\r\n"));
	assert_memory_equal(o.json, "{\"runs\": []}", 12);
}

static void exit_status_of_the_guest_run(void **state)
{
	static const char text[] = "noise\n@@cachepressure-result-begin@@\n{}\n"
				   "@@cachepressure-result-end exit=1@@\n";
	struct cp_lab_output o;

	(void)state;
	cp_lab_output_parse(text, strlen(text), &o);
	assert_int_equal(o.status, CP_LAB_OUTPUT_OK);
	assert_int_equal(o.guest_exit, 1);
	assert_int_equal(o.json_len, 3);
}

/* The port stops in the middle of the JSON (qemu killed, guest crashed). */
static void truncated_output(void **state)
{
	static const char text[] = "@@cachepressure-result-begin@@\n{\"runs\": [{\"sour";
	struct cp_lab_output o;

	(void)state;
	cp_lab_output_parse(text, strlen(text), &o);
	assert_int_equal(o.status, CP_LAB_OUTPUT_TRUNCATED);
	assert_int_equal(o.guest_exit, -1);
	assert_int_equal(o.json_len, strlen("{\"runs\": [{\"sour"));
}

/* A guest that hung before reporting: nothing, or only other text; the
 * begin marker must be a line of its own. */
static void no_begin_marker(void **state)
{
	static const char text[] = "x @@cachepressure-result-begin@@\n"
				   "@@cachepressure-result-end exit=0@@\n";
	struct cp_lab_output o;

	(void)state;
	cp_lab_output_parse("", 0, &o);
	assert_int_equal(o.status, CP_LAB_OUTPUT_NONE);
	cp_lab_output_parse(text, strlen(text), &o);
	assert_int_equal(o.status, CP_LAB_OUTPUT_NONE);
	/* the parse honours len: the end marker beyond it does not count */
	cp_lab_output_parse(port_ok, strlen("@@cachepressure-result-begin@@\r\n{"), &o);
	assert_int_equal(o.status, CP_LAB_OUTPUT_TRUNCATED);
}

/* --guest-disk only in a lab guest: the flag as a whole word, pid 1
 * running /init (busybox sh /init), and the initramfs marker. */
static void guest_mode_guard(void **state)
{
	static const char pid1[] = "/bin/sh\0/init\0";
	static const char host_pid1[] = "/sbin/init\0splash\0";
	const char *cmd = "console=ttyS0 panic=-1 quiet cachepressure.guest=1 cachepressure.rep=1";

	(void)state;
	assert_true(cp_lab_guest_check(cmd, pid1, sizeof(pid1) - 1, true));
	assert_false(cp_lab_guest_check(cmd, pid1, sizeof(pid1) - 1, false));
	assert_false(cp_lab_guest_check(cmd, host_pid1, sizeof(host_pid1) - 1, true));
	assert_false(cp_lab_guest_check("BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro\n", pid1,
					sizeof(pid1) - 1, true));
	assert_false(cp_lab_guest_check("x cachepressure.guest=10", pid1, sizeof(pid1) - 1,
					true));
	assert_false(cp_lab_guest_check("xcachepressure.guest=1", pid1, sizeof(pid1) - 1, true));
	assert_true(cp_lab_guest_check("cachepressure.guest=1\n", pid1, sizeof(pid1) - 1, true));
}

/* Default boot timeout: 120 s + 600 s per GiB of --mem + time limit:
 * 1 GiB -> 720 s; 256 MiB -> 120 + 150 = 270 s; a 30 s time limit adds 30 s. */
static void default_timeout_follows_the_plan(void **state)
{
	struct cp_real_plan p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.mem_bytes = 1ULL << 30;
	assert_int_equal(cp_lab_default_timeout_ns(&p), 720000000000ULL);
	p.mem_bytes = 256ULL << 20;
	assert_int_equal(cp_lab_default_timeout_ns(&p), 270000000000ULL);
	p.time_limit_ns = 30000000000ULL;
	assert_int_equal(cp_lab_default_timeout_ns(&p), 300000000000ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tcg_command_line),
		cmocka_unit_test(kvm_command_line),
		cmocka_unit_test(bad_configs_are_refused),
		cmocka_unit_test(result_between_markers),
		cmocka_unit_test(exit_status_of_the_guest_run),
		cmocka_unit_test(truncated_output),
		cmocka_unit_test(no_begin_marker),
		cmocka_unit_test(guest_mode_guard),
		cmocka_unit_test(default_timeout_follows_the_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
