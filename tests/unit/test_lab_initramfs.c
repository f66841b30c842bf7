/*
 * test_lab_initramfs.c - the kernel lab's initramfs manifest and the ldd
 * parse behind it (harness/lib/initramfs.c): which files go in, where,
 * and which shared libraries (the dynamic loader included).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include <cachepressure/error.h>

#include "initramfs.h"

/* What Debian 12's ldd prints for the cachepressure program. */
static const char ldd_cp[] =
	"\tlinux-vdso.so.1 (0x00007ffd4b5f2000)\n"
	"\tlibinih.so.1 => /lib/x86_64-linux-gnu/libinih.so.1 (0x00007f18b70fd000)\n"
	"\tlibcjson.so.1 => /lib/x86_64-linux-gnu/libcjson.so.1 (0x00007f18b70f3000)\n"
	"\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x00007f18b7013000)\n"
	"\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f18b6e31000)\n"
	"\t/lib64/ld-linux-x86-64.so.2 (0x00007f18b7268000)\n";
/* ... and for fs_mark. */
static const char ldd_fsmark[] =
	"\tlinux-vdso.so.1 (0x00007fe448b09000)\n"
	"\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007fe4487ca000)\n"
	"\t/lib64/ld-linux-x86-64.so.2 (0x00007fe448b0b000)\n";

struct paths {
	char p[8][128];
	size_t n;
};

static int collect(void *arg, const char *path)
{
	struct paths *ps = arg;

	if (ps->n == 8)
		return -CP_ENOMEM;
	snprintf(ps->p[ps->n++], sizeof(ps->p[0]), "%s", path);
	return 0;
}

/* Every "=> /path" and the loader's bare "/path" line; the vdso has no file. */
static void ldd_parse_names_libraries_and_the_loader(void **state)
{
	struct paths ps = { .n = 0 };

	(void)state;
	assert_int_equal(cp_ir_ldd_parse(ldd_cp, collect, &ps, NULL), 0);
	assert_int_equal(ps.n, 5);
	assert_string_equal(ps.p[0], "/lib/x86_64-linux-gnu/libinih.so.1");
	assert_string_equal(ps.p[3], "/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(ps.p[4], "/lib64/ld-linux-x86-64.so.2");
}

static void ldd_parse_static_and_missing(void **state)
{
	struct paths ps = { .n = 0 };
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_ir_ldd_parse("\tnot a dynamic executable\n", collect, &ps, NULL), 0);
	assert_int_equal(cp_ir_ldd_parse("\tstatically linked\n", collect, &ps, NULL), 0);
	assert_int_equal(ps.n, 0);
	assert_int_equal(cp_ir_ldd_parse("\tlibfoo.so.3 => not found\n", collect, &ps, &d),
			 -CP_ENOENT);
	assert_non_null(strstr(d.msg, "libfoo.so.3"));
}

static void inputs(struct cp_ir_inputs *in)
{
	memset(in, 0, sizeof(*in));
	in->busybox = "/usr/bin/busybox";
	in->busybox_ldd = NULL; /* busybox-static */
	in->bins[0] = (struct cp_ir_binary){ "/build/cachepressure", "/bin/cachepressure", ldd_cp };
	in->bins[1] = (struct cp_ir_binary){ "/usr/bin/fs_mark", "/usr/bin/fs_mark", ldd_fsmark };
	in->nr_bins = 2;
	in->init_text = "#!/bin/sh\n";
	in->init_len = 10;
}

static void expect(const struct cp_ir_manifest *m, const char *dest, enum cp_ir_kind kind,
		   const char *src, unsigned mode)
{
	const struct cp_ir_entry *e = cp_ir_manifest_find(m, dest);

	if (!e)
		fail_msg("%s is not in the manifest", dest);
	assert_int_equal(e->kind, kind);
	if (src)
		assert_string_equal(e->src, src);
	assert_int_equal(e->mode, mode);
}

/* busybox + its applet links, /init, the guest marker, each program at
 * its place and each library at its own path, libc and the loader once
 * although both programs need them. */
static void manifest_holds_programs_and_their_libraries(void **state)
{
	struct cp_ir_inputs in;
	struct cp_ir_manifest m;
	size_t i, nr_libc = 0;

	(void)state;
	inputs(&in);
	assert_int_equal(cp_ir_manifest_build(&in, &m, NULL), 0);
	expect(&m, "/bin/busybox", CP_IR_FILE, "/usr/bin/busybox", 0755);
	expect(&m, "/bin/sh", CP_IR_SYMLINK, "busybox", 0777);
	expect(&m, "/bin/mount", CP_IR_SYMLINK, "busybox", 0777);
	expect(&m, "/bin/reboot", CP_IR_SYMLINK, "busybox", 0777);
	expect(&m, "/init", CP_IR_DATA, NULL, 0755);
	expect(&m, "/cachepressure/guest", CP_IR_DATA, NULL, 0644);
	expect(&m, "/bin/cachepressure", CP_IR_FILE, "/build/cachepressure", 0755);
	expect(&m, "/usr/bin/fs_mark", CP_IR_FILE, "/usr/bin/fs_mark", 0755);
	expect(&m, "/lib/x86_64-linux-gnu/libcjson.so.1", CP_IR_FILE,
	       "/lib/x86_64-linux-gnu/libcjson.so.1", 0755);
	expect(&m, "/lib64/ld-linux-x86-64.so.2", CP_IR_FILE, "/lib64/ld-linux-x86-64.so.2", 0755);
	expect(&m, "/lib", CP_IR_DIR, NULL, 0755);
	expect(&m, "/lib/x86_64-linux-gnu", CP_IR_DIR, NULL, 0755);
	expect(&m, "/lib64", CP_IR_DIR, NULL, 0755);
	expect(&m, "/proc", CP_IR_DIR, NULL, 0755);
	expect(&m, "/dev", CP_IR_DIR, NULL, 0755);
	assert_null(cp_ir_manifest_find(&m, "linux-vdso.so.1"));
	for (i = 0; i < m.n; i++)
		if (strcmp(m.e[i].dest, "/lib/x86_64-linux-gnu/libc.so.6") == 0)
			nr_libc++;
	assert_int_equal(nr_libc, 1);
	/* 8 fixed dirs + /lib /lib/x86_64-linux-gnu /lib64; busybox and its
	 * 13 applets; /init and the marker; 2 programs; 5 distinct libraries */
	assert_int_equal(m.n, 8 + 3 + 1 + cp_ir_nr_applets + 2 + 2 + 5);
	cp_ir_manifest_release(&m);
}

/* cpio needs parents before children: the list is sorted by path. */
static void manifest_lists_parents_first(void **state)
{
	struct cp_ir_inputs in;
	struct cp_ir_manifest m;
	size_t i, j;

	(void)state;
	inputs(&in);
	assert_int_equal(cp_ir_manifest_build(&in, &m, NULL), 0);
	for (i = 0; i < m.n; i++)
		for (j = i + 1; j < m.n; j++) {
			size_t n = strlen(m.e[j].dest);

			if (strncmp(m.e[i].dest, m.e[j].dest, n) == 0 && m.e[i].dest[n] == '/')
				fail_msg("%s comes before its parent %s", m.e[i].dest, m.e[j].dest);
		}
	cp_ir_manifest_release(&m);
}

static void manifest_refuses_missing_library_and_relative_path(void **state)
{
	struct cp_ir_inputs in;
	struct cp_ir_manifest m;
	struct cp_diag d = { "" };

	(void)state;
	inputs(&in);
	in.bins[1].ldd_out = "\tlibaio.so.1 => not found\n";
	assert_int_equal(cp_ir_manifest_build(&in, &m, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "libaio.so.1"));
	inputs(&in);
	in.bins[0].src = "build/cachepressure";
	assert_int_equal(cp_ir_manifest_build(&in, &m, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "build/cachepressure"));
}

/* The key changes with the content of /init (DATA) and not otherwise. */
static void key_follows_content(void **state)
{
	struct cp_ir_manifest m = { NULL, 0, 0 };
	uint64_t k1, k2, k3;

	(void)state;
	assert_int_equal(cp_ir_manifest_add(&m, CP_IR_DATA, "/a/init", NULL, 0755, "x", 1, NULL),
			 0);
	assert_non_null(cp_ir_manifest_find(&m, "/a"));
	assert_int_equal(cp_ir_manifest_key(&m, &k1, NULL), 0);
	assert_int_equal(cp_ir_manifest_key(&m, &k2, NULL), 0);
	assert_true(k1 == k2);
	m.e[1].data = "y";
	assert_int_equal(cp_ir_manifest_key(&m, &k3, NULL), 0);
	assert_true(k1 != k3);
	m.e[1].data = "x";
	m.e[1].mode = 0700;
	assert_int_equal(cp_ir_manifest_key(&m, &k3, NULL), 0);
	assert_true(k1 != k3);
	cp_ir_manifest_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ldd_parse_names_libraries_and_the_loader),
		cmocka_unit_test(ldd_parse_static_and_missing),
		cmocka_unit_test(manifest_holds_programs_and_their_libraries),
		cmocka_unit_test(manifest_lists_parents_first),
		cmocka_unit_test(manifest_refuses_missing_library_and_relative_path),
		cmocka_unit_test(key_follows_content),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
