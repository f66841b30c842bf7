/*
 * test_real_compare_opts.c - the options of `cachepressure real compare`
 * (harness/lib/opts.c): two --kernel NAME=BZIMAGE with distinct names,
 * --repeat of at least 2, the shared options, and every bad value named
 * in the message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "opts.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void two_kernels_repeat_and_defaults(void **state)
{
	char *argv[] = { "compare", "seed", "--kernel", "stock=/k/stock/bzImage",
			 "--kernel=legacy=/k/legacy/bzImage", "--repeat", "5" };
	struct cp_real_compare_opts o;

	(void)state;
	assert_int_equal(cp_real_compare_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_string_equal(o.real.scenario, "seed");
	assert_string_equal(o.kernels[0].name, "stock");
	assert_string_equal(o.kernels[0].image, "/k/stock/bzImage");
	/* "--kernel=legacy=/..." : the first '=' ends the option name, the
	 * second separates NAME and BZIMAGE */
	assert_string_equal(o.kernels[1].name, "legacy");
	assert_string_equal(o.kernels[1].image, "/k/legacy/bzImage");
	assert_int_equal(o.real.repeat, 5);
	assert_int_equal(o.real.mem_bytes, 0);
	assert_null(o.real.mem_arg);
	assert_int_equal(o.real.confine, CP_CONFINE_GLOBAL);
	assert_null(o.real.json);
	assert_int_equal(o.real.nr_sets, 0);
	assert_int_equal(o.vm_mem_bytes, 0);
	assert_int_equal(o.vm_cpus, 0);
}

static void every_option(void **state)
{
	char *argv[] = { "compare",   "--mem",	       "1G",	     "--confine=memcg",
			 "--vm-mem",  "1280M",	       "--vm-cpus",  "2",
			 "--json",    "ab.json",       "--set",	     "fs_mark.threads=2",
			 "--kernel",  "a.1_x-y=img-a", "--kernel",   "b=img-b",
			 "--repeat=3", "files-in-cache" };
	struct cp_real_compare_opts o;

	(void)state;
	assert_int_equal(cp_real_compare_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_int_equal(o.real.mem_bytes, 1073741824ULL); /* 2^30 */
	assert_string_equal(o.real.mem_arg, "1G");
	assert_int_equal(o.real.confine, CP_CONFINE_MEMCG);
	assert_int_equal(o.vm_mem_bytes, 1342177280ULL); /* 1280 * 2^20 */
	assert_int_equal(o.vm_cpus, 2);
	assert_string_equal(o.real.json, "ab.json");
	assert_int_equal(o.real.nr_sets, 1);
	assert_string_equal(o.real.sets[0], "fs_mark.threads=2");
	assert_string_equal(o.kernels[0].name, "a.1_x-y");
	assert_string_equal(o.kernels[1].image, "img-b");
	assert_int_equal(o.real.repeat, 3);
	assert_string_equal(o.real.scenario, "files-in-cache");
}

/* The same image twice under two names is an A/A run (a check of the
 * noise), not an error. */
static void same_image_under_two_names_is_allowed(void **state)
{
	char *argv[] = { "compare", "seed", "--kernel", "a=/k/bzImage", "--kernel", "b=/k/bzImage",
			 "--repeat", "2" };
	struct cp_real_compare_opts o;

	(void)state;
	assert_int_equal(cp_real_compare_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_string_equal(o.kernels[0].image, o.kernels[1].image);
}

static void help_wins(void **state)
{
	char *argv[] = { "compare", "--kernel", "nonsense", "-h" };
	struct cp_real_compare_opts o;

	(void)state;
	assert_int_equal(cp_real_compare_opts_parse(ARGC(argv), argv, &o, NULL), 1);
}

/* Each bad command line gives -CP_EINVAL, *o unchanged, and a message
 * naming the option and the value. */
static void bad_input_is_named(void **state)
{
	static const struct {
		const char *args[10];
		const char *want[2];
	} cases[] = {
		{ { "seed", "--kernel", "stock", "--kernel", "b=y", "--repeat", "2" },
		  { "--kernel 'stock'", "NAME=BZIMAGE" } },
		{ { "seed", "--kernel", "=/k/bz", "--kernel", "b=y", "--repeat", "2" },
		  { "--kernel '=/k/bz'", "empty NAME" } },
		{ { "seed", "--kernel", "stock=", "--kernel", "b=y", "--repeat", "2" },
		  { "--kernel 'stock='", "empty BZIMAGE" } },
		{ { "seed", "--kernel", "my kernel=/k", "--kernel", "b=y", "--repeat", "2" },
		  { "--kernel 'my kernel=/k'", "letters, digits" } },
		{ { "seed", "--kernel", "abcdefghijklmnopqrstuvwxyz0123456=/k", "--kernel", "b=y",
		    "--repeat", "2" },
		  { "abcdefghijklmnopqrstuvwxyz0123456=/k", "longer than 31" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "x=/b", "--repeat", "2" },
		  { "--kernel 'x=/b'", "already A's" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--kernel", "z=/c", "--repeat",
		    "2" },
		  { "--kernel 'z=/c'", "exactly two" } },
		{ { "seed", "--kernel", "x=/a", "--repeat", "2" }, { "--kernel", "(got 1)" } },
		{ { "seed", "--repeat", "2" }, { "--kernel", "(got 0)" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "1" },
		  { "--repeat '1'", "at least 2" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "101" },
		  { "--repeat '101'", "from 2 to 100" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "many" },
		  { "--repeat 'many'", "count" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b" }, { "missing --repeat", "2" } },
		{ { "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "2" },
		  { "missing SCENARIO", "seed" } },
		{ { "seed", "more", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "2" },
		  { "'seed' and 'more'", "one SCENARIO" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "2", "--vm-mem",
		    "lots" },
		  { "--vm-mem 'lots'", "size" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "2", "--vm-cpus",
		    "0" },
		  { "--vm-cpus '0'", "1 to 64" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "2", "--mem", "1Q" },
		  { "--mem '1Q'", "size" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "2", "--confine",
		    "box" },
		  { "--confine 'box'", "global or memcg" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat", "2", "--keep" },
		  { "unknown option '--keep'", "" } },
		{ { "seed", "--kernel", "x=/a", "--kernel", "y=/b", "--repeat" },
		  { "'--repeat' needs a value", "" } },
	};
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char *argv[11] = { "compare" };
		struct cp_real_compare_opts o, before;
		struct cp_diag diag = { "" };
		int argc = 1;

		while (argc <= 10 && cases[c].args[argc - 1]) {
			argv[argc] = (char *)cases[c].args[argc - 1];
			argc++;
		}
		memset(&o, 0x5a, sizeof(o));
		before = o;
		assert_int_equal(cp_real_compare_opts_parse(argc, argv, &o, &diag), -CP_EINVAL);
		assert_memory_equal(&o, &before, sizeof(o));
		if (!strstr(diag.msg, cases[c].want[0]) || !strstr(diag.msg, cases[c].want[1]))
			fail_msg("case %zu: message '%s' lacks '%s' / '%s'", c, diag.msg,
				 cases[c].want[0], cases[c].want[1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_kernels_repeat_and_defaults),
		cmocka_unit_test(every_option),
		cmocka_unit_test(same_image_under_two_names_is_allowed),
		cmocka_unit_test(help_wins),
		cmocka_unit_test(bad_input_is_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
