/*
 * test_keytab.c - INI files described by a key table: every kind of
 * value, required and optional keys, the messages with file, line,
 * section, key and value, --set overrides, the cross-key check and its
 * blamed line, name resolution and the table's own invariants. The
 * table describes a made-up "test box" file, so these tests do not
 * depend on the machine or filesystem profiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cachepressure/error.h>

#include "core/keytab.h"

struct box {
	char name[8];           /* [box] name: text, required */
	uint64_t mem_bytes;     /* [box] mem: size >= 1M, required */
	uint32_t nr_cpus;       /* [box] cpus: count 1..64, required */
	bool fast;              /* [box] fast: yes/no */
	uint64_t net_bps;       /* [box] net: rate >= 1 */
	uint64_t latency_ns;    /* [disk] latency: duration with a unit */
	uint64_t op_ns;         /* [disk] op_ns: bare ns or a duration */
	uint32_t block_bytes;   /* [disk] block: power of two, 512..64K */
	uint64_t reserve_bytes; /* [disk] reserve: less than mem (validate) */
	char colour[8];         /* [tag] colour: red or green */
};

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static bool is_colour(const char *s)
{
	return strcmp(s, "red") == 0 || strcmp(s, "green") == 0;
}

#define F(f) CP_KEY_FIELD(struct box, f)

enum { KEY_RESERVE = 8 };

static const struct cp_key box_keys[] = {
	{ "box", "name", CP_KEY_TEXT, F(name), true, 0, 0, NULL, NULL, NULL },
	{ "box", "mem", CP_KEY_SIZE, F(mem_bytes), true, 1 << 20, CP_KEY_NOLIMIT, NULL, NULL, NULL },
	{ "box", "cpus", CP_KEY_COUNT, F(nr_cpus), true, 1, 64, NULL, NULL, NULL },
	{ "box", "fast", CP_KEY_BOOL, F(fast), false, 0, 1, NULL, NULL, NULL },
	{ "box", "net", CP_KEY_RATE, F(net_bps), false, 1, CP_KEY_NOLIMIT, NULL, NULL, NULL },
	{ "disk", "latency", CP_KEY_DURATION, F(latency_ns), false, 0, CP_KEY_NOLIMIT, NULL, NULL,
	  NULL },
	{ "disk", "op_ns", CP_KEY_NS, F(op_ns), false, 0, CP_KEY_NOLIMIT, NULL, NULL, NULL },
	{ "disk", "block", CP_KEY_SIZE, F(block_bytes), false, 512, 65536, "a power of two like 4K",
	  NULL, is_pow2 },
	{ "disk", "reserve", CP_KEY_SIZE, F(reserve_bytes), false, 0, CP_KEY_NOLIMIT, NULL, NULL,
	  NULL },
	{ "tag", "colour", CP_KEY_TEXT, F(colour), false, 0, 0, "red or green", is_colour, NULL },
};

/* reserve must leave some of mem; blames the reserve key. */
static int box_validate(const void *obj, int *blame, struct cp_diag *diag)
{
	const struct box *b = obj;

	*blame = -1;
	if (b->reserve_bytes >= b->mem_bytes) {
		*blame = KEY_RESERVE;
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'reserve' in [disk]: %llu bytes leave nothing of mem %llu bytes",
				   (unsigned long long)b->reserve_bytes,
				   (unsigned long long)b->mem_bytes);
	}
	return 0;
}

static const struct cp_keytab box_tab = {
	.what = "test box file",
	.set_example = "disk.latency",
	.keys = box_keys,
	.nr_keys = sizeof(box_keys) / sizeof(box_keys[0]),
	.obj_size = sizeof(struct box),
	.validate = box_validate,
};

/* The defaults a caller sets before loading. */
static void box_init(struct box *b)
{
	memset(b, 0, sizeof(*b));
	b->fast = true;
	b->net_bps = 7;
	b->block_bytes = 4096;
	snprintf(b->colour, sizeof(b->colour), "green");
}

/* Writes text to a fresh temporary file; the caller unlinks it. */
static void write_temp(char *path, size_t len, const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, len, "/tmp/cp-test-keytab-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Loads text into *b (after box_init()); on failure msg gets the
 * message after the path, which the message must start with. */
static int load_text(const char *text, struct box *b, char *msg, size_t len)
{
	char path[64];
	struct cp_diag d = { "" };
	int rc;

	box_init(b);
	write_temp(path, sizeof(path), text);
	rc = cp_keytab_load(&box_tab, path, b, &d);
	unlink(path);
	if (rc) {
		assert_memory_equal(d.msg, path, strlen(path));
		snprintf(msg, len, "%s", d.msg + strlen(path));
	}
	return rc;
}

#define REQUIRED "[box]\nname = b1\nmem = 1G\ncpus = 8\n" /* lines 1-4 */

/* 1G = 2^30 = 1073741824 B; 2800M = 2800 x 2^20 = 2936012800 B/s;
 * 20us = 20000 ns; 4K = 4096 B; 64M = 67108864 B. */
static void load_stores_every_kind_in_integer_units(void **state)
{
	struct box b;
	char msg[600] = "";

	(void)state;
	assert_int_equal(load_text(REQUIRED "fast = no\nnet = 2800M\n"
					    "[disk]\nlatency = 20us\nop_ns = 1000\nblock = 4K\n"
					    "reserve = 64M\n[tag]\ncolour = red\n",
				   &b, msg, sizeof(msg)),
			 0);
	assert_string_equal(b.name, "b1");
	assert_int_equal(b.mem_bytes, 1073741824ULL);
	assert_int_equal(b.nr_cpus, 8);
	assert_false(b.fast);
	assert_int_equal(b.net_bps, 2936012800ULL);
	assert_int_equal(b.latency_ns, 20000);
	assert_int_equal(b.op_ns, 1000); /* bare number: ns */
	assert_int_equal(b.block_bytes, 4096);
	assert_int_equal(b.reserve_bytes, 67108864ULL);
	assert_string_equal(b.colour, "red");
}

/* CP_KEY_NS takes a duration too: 1us = 1000 ns. */
static void ns_key_takes_a_duration_with_a_unit(void **state)
{
	struct box b;
	char msg[600] = "";

	(void)state;
	assert_int_equal(load_text(REQUIRED "[disk]\nop_ns = 1us\n", &b, msg, sizeof(msg)), 0);
	assert_int_equal(b.op_ns, 1000);
}

/* A 4-byte field holds its whole range; an 8-byte field more than
 * 32 bits: 5G = 5 x 2^30 = 5368709120 > 2^32. */
static void fields_of_four_and_eight_bytes_hold_their_values(void **state)
{
	struct box b;
	char msg[600] = "";

	(void)state;
	assert_int_equal(load_text("[box]\nname = b1\nmem = 5G\ncpus = 64\n[disk]\nblock = 64K\n",
				   &b, msg, sizeof(msg)),
			 0);
	assert_int_equal(b.mem_bytes, 5368709120ULL);
	assert_int_equal(b.nr_cpus, 64);
	assert_int_equal(b.block_bytes, 65536);
}

static void optional_keys_keep_the_callers_defaults(void **state)
{
	struct box b;
	char msg[600] = "";

	(void)state;
	assert_int_equal(load_text(REQUIRED, &b, msg, sizeof(msg)), 0);
	assert_true(b.fast);
	assert_int_equal(b.net_bps, 7);
	assert_int_equal(b.block_bytes, 4096);
	assert_string_equal(b.colour, "green");
}

/* Required keys are checked in table order: mem before cpus. */
static void missing_required_key_is_named(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text("[box]\nname = b1\n", &b, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ": required key 'mem' in [box] is missing");
	assert_int_equal(load_text("[box]\nname = b1\nmem = 1G\n", &b, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ": required key 'cpus' in [box] is missing");
}

static void key_given_twice_names_both_lines(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text(REQUIRED "cpus = 4\n", &b, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":5: key 'cpus' in [box] given twice (first on line 4)");
}

/* The expected sections are the table's, in the order they first appear. */
static void unknown_section_lists_the_tables_sections(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text(REQUIRED "[gpu]\ncores = 2\n", &b, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ":6: unknown section [gpu] (expected [box], [disk] or [tag])");
}

static void unknown_key_and_key_outside_a_section_are_refused(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text(REQUIRED "colour = red\n", &b, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":5: unknown key 'colour' in [box]");
	assert_int_equal(load_text("cpus = 2\n", &b, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":1: key 'cpus' outside any section");
}

static void syntax_error_names_the_line(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text("[box]\n\ncpus\n", &b, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":3: syntax error (expected [section], key = value or a ; comment)");
}

static void first_error_is_reported(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text("[box]\nmem = 1X\nbogus = 1\n", &b, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ":2: key 'mem' in [box]: bad value '1X' (expected a size like 16G)");
}

/* cp_parse_duration() reads a bare number as seconds: a duration key
 * refuses "20" rather than take 20 s, but "0" needs no unit. */
static void duration_without_a_unit_is_refused_except_zero(void **state)
{
	struct box b;
	char msg[600] = "";

	(void)state;
	assert_int_equal(load_text(REQUIRED "[disk]\nlatency = 20\n", &b, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ":6: key 'latency' in [disk]: bad value '20' "
				 "(expected a duration with a unit like 20us)");
	assert_int_equal(load_text(REQUIRED "[disk]\nlatency = 0\n", &b, msg, sizeof(msg)), 0);
	assert_int_equal(b.latency_ns, 0);
}

/* A range with no upper bound says "at least"; 1K = 1024 < 2^20 = 1048576. */
static void out_of_range_values_name_the_range(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text("[box]\ncpus = 0\n", &b, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":2: key 'cpus' in [box]: value '0' out of range (1..64)");
	assert_int_equal(load_text("[box]\nmem = 1K\n", &b, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":2: key 'mem' in [box]: value '1K' out of range (at least "
				 "1048576)");
}

/* 3000 parses as a size but is no power of two: the key's own
 * "expected" text is shown, not the kind's. */
static void accept_functions_refuse_with_the_keys_expected_text(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text(REQUIRED "[disk]\nblock = 3000\n", &b, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ":6: key 'block' in [disk]: bad value '3000' "
				 "(expected a power of two like 4K)");
	assert_int_equal(load_text(REQUIRED "[tag]\ncolour = blue\n", &b, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ":6: key 'colour' in [tag]: bad value 'blue' (expected red or green)");
}

/* name is char[8]: at most 7 characters. */
static void text_longer_than_its_field_is_refused(void **state)
{
	struct box b;
	char msg[600];

	(void)state;
	assert_int_equal(load_text("[box]\nname = eightchr\n", &b, msg, sizeof(msg)), -CP_EINVAL);
	assert_string_equal(msg, ":2: key 'name' in [box]: value 'eightchr...' too long "
				 "(at most 7 characters)");
	assert_int_equal(load_text("[box]\nname = sevench\nmem = 1G\ncpus = 1\n", &b, msg,
				   sizeof(msg)),
			 0);
	assert_string_equal(b.name, "sevench");
}

/* The cross-key check blames reserve: its line when the file gives it,
 * no line when the value is the caller's default. 2G >= 1G. */
static void cross_key_error_names_the_blamed_keys_line(void **state)
{
	char path[64], want[700];
	struct box b;
	struct cp_diag d = { "" };
	char msg[600];

	(void)state;
	assert_int_equal(load_text(REQUIRED "[disk]\nreserve = 2G\n", &b, msg, sizeof(msg)),
			 -CP_EINVAL);
	assert_string_equal(msg, ":6: key 'reserve' in [disk]: 2147483648 bytes leave nothing of "
				 "mem 1073741824 bytes");

	box_init(&b);
	b.reserve_bytes = 2ULL << 30;
	write_temp(path, sizeof(path), REQUIRED);
	assert_int_equal(cp_keytab_load(&box_tab, path, &b, &d), -CP_EINVAL);
	snprintf(want, sizeof(want),
		 "%s: key 'reserve' in [disk]: 2147483648 bytes leave nothing of mem 1073741824 "
		 "bytes",
		 path);
	unlink(path);
	assert_string_equal(d.msg, want);
}

static void missing_file_is_enoent_and_uses_the_tables_name(void **state)
{
	struct box b;
	struct cp_diag d = { "" };

	(void)state;
	box_init(&b);
	assert_int_equal(cp_keytab_load(&box_tab, "/nonexistent/box.ini", &b, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "/nonexistent/box.ini: cannot open test box file: "));
}

/* ---- --set ------------------------------------------------------------ */

static void load_good(struct box *b)
{
	char msg[600] = "";

	assert_int_equal(load_text(REQUIRED "[disk]\nreserve = 64M\n", b, msg, sizeof(msg)), 0);
}

static void set_changes_one_key(void **state)
{
	struct box b;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&b);
	assert_int_equal(cp_keytab_set(&box_tab, &b, "disk.latency", "50us", &d), 0);
	assert_int_equal(b.latency_ns, 50000);
	assert_int_equal(cp_keytab_set(&box_tab, &b, "box.name", "b2", &d), 0);
	assert_string_equal(b.name, "b2");
	assert_int_equal(cp_keytab_set(&box_tab, &b, "box.fast", "no", &d), 0);
	assert_false(b.fast);
}

static void set_names_bad_keys_and_values(void **state)
{
	struct box b;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&b);
	assert_int_equal(cp_keytab_set(&box_tab, &b, "latency", "1us", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "bad key 'latency' (expected section.key, like disk.latency)");
	assert_int_equal(cp_keytab_set(&box_tab, &b, ".latency", "1us", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "bad key '.latency' (expected section.key, like disk.latency)");
	assert_int_equal(cp_keytab_set(&box_tab, &b, "gpu.cores", "2", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "unknown section [gpu] in 'gpu.cores' (expected box, disk or tag)");
	assert_int_equal(cp_keytab_set(&box_tab, &b, "disk.speed", "2", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "unknown key 'speed' in [disk]");
	assert_int_equal(cp_keytab_set(&box_tab, &b, "disk.latency", "soon", &d), -CP_EINVAL);
	assert_string_equal(d.msg, "key 'latency' in [disk]: bad value 'soon' "
				   "(expected a duration with a unit like 20us)");
}

/* A value the key accepts but the cross-key check refuses (reserve 2G
 * of mem 1G) leaves the struct as it was. */
static void set_refused_by_validate_changes_nothing(void **state)
{
	struct box b, before;
	struct cp_diag d = { "" };

	(void)state;
	load_good(&b);
	before = b;
	assert_int_equal(cp_keytab_set(&box_tab, &b, "disk.reserve", "2G", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "key 'reserve' in [disk]: 2147483648 bytes"));
	assert_memory_equal(&b, &before, sizeof(b));
	assert_int_equal(cp_keytab_set(&box_tab, &b, "box.name", "far-too-long", &d), -CP_EINVAL);
	assert_memory_equal(&b, &before, sizeof(b));
}

/* ---- values of a struct that did not come from a file ------------------- */

static void check_values_names_the_first_bad_key(void **state)
{
	struct box b;
	struct cp_diag d = { "" };
	int bad = 99;

	(void)state;
	load_good(&b);
	assert_int_equal(cp_keytab_check_values(&box_tab, &b, &bad, &d), 0);
	assert_int_equal(bad, -1);
	b.nr_cpus = 65;
	assert_int_equal(cp_keytab_check_values(&box_tab, &b, &bad, &d), -CP_EINVAL);
	assert_string_equal(d.msg, "key 'cpus' in [box]: value 65 out of range (1..64)");
	assert_int_equal(bad, 2);
	b.nr_cpus = 8;
	b.block_bytes = 3000; /* in 512..65536, but no power of two */
	assert_int_equal(cp_keytab_check_values(&box_tab, &b, &bad, &d), -CP_EINVAL);
	assert_string_equal(d.msg, "key 'block' in [disk]: value 3000 is not a power of two like 4K");
	assert_int_equal(bad, 7);
}

static void find_gives_the_keys_index(void **state)
{
	(void)state;
	assert_int_equal(cp_keytab_find(&box_tab, "disk", "reserve"), KEY_RESERVE);
	assert_int_equal(cp_keytab_find(&box_tab, "box", "reserve"), -1);
}

/* ---- the table's invariants --------------------------------------------- */

static void check_accepts_the_test_table(void **state)
{
	(void)state;
	assert_true(cp_keytab_check(&box_tab));
}

/* Each table breaks one rule of cp_keytab_check(). */
static void check_refuses_broken_tables(void **state)
{
	static const struct cp_key twice[] = {
		{ "box", "cpus", CP_KEY_COUNT, F(nr_cpus), true, 1, 64, NULL, NULL, NULL },
		{ "box", "cpus", CP_KEY_COUNT, F(nr_cpus), true, 1, 64, NULL, NULL, NULL },
	};
	/* a uint32_t cannot hold 2^32 */
	static const struct cp_key wide[] = {
		{ "box", "cpus", CP_KEY_COUNT, F(nr_cpus), true, 1, 1ULL << 32, NULL, NULL, NULL },
	};
	static const struct cp_key bool_in_u64[] = {
		{ "box", "fast", CP_KEY_BOOL, F(mem_bytes), true, 0, 1, NULL, NULL, NULL },
	};
	static const struct cp_key min_above_max[] = {
		{ "box", "cpus", CP_KEY_COUNT, F(nr_cpus), true, 9, 8, NULL, NULL, NULL },
	};
	static const struct cp_key outside[] = {
		{ "box", "mem", CP_KEY_SIZE, sizeof(struct box), 8, true, 0, 1, NULL, NULL, NULL },
	};
	static const struct cp_key text_accept_num[] = {
		{ "box", "name", CP_KEY_TEXT, F(name), true, 0, 0, NULL, NULL, is_pow2 },
	};
	const struct cp_key *bad[] = { twice, wide, bool_in_u64, min_above_max, outside,
				       text_accept_num };
	const size_t nr[] = { 2, 1, 1, 1, 1, 1 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cp_keytab t = box_tab;

		t.keys = bad[i];
		t.nr_keys = nr[i];
		assert_false(cp_keytab_check(&t));
	}
}

/* ---- name resolution ---------------------------------------------------- */

static void resolve_turns_a_bare_name_into_dir_name_ini(void **state)
{
	char path[64], dir[64], name[64], want[200], out[200];
	struct cp_diag d = { "" };
	const char *slash;

	(void)state;
	write_temp(path, sizeof(path), REQUIRED);
	/* a file named NAME.ini beside the temp file */
	snprintf(want, sizeof(want), "%s.ini", path);
	assert_int_equal(rename(path, want), 0);
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	snprintf(name, sizeof(name), "%s", slash + 1);
	assert_int_equal(cp_keytab_resolve(&box_tab, name, dir, out, sizeof(out), &d), 0);
	assert_string_equal(out, want);
	/* a path is used as is, whatever the directory */
	assert_int_equal(cp_keytab_resolve(&box_tab, want, "/elsewhere", out, sizeof(out), &d), 0);
	assert_string_equal(out, want);
	/* "/tmp/" + name + ".ini" does not fit 8 bytes */
	assert_int_equal(cp_keytab_resolve(&box_tab, name, dir, out, 8, &d), -CP_EINVAL);
	assert_string_equal(out, want);
	assert_non_null(strstr(d.msg, "test box file path for '"));
	unlink(want);
}

static void resolve_refuses_bad_names_and_names_missing_files(void **state)
{
	char out[200] = "untouched";
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_keytab_resolve(&box_tab, "", "/tmp", out, sizeof(out), &d), -CP_EINVAL);
	assert_string_equal(d.msg, "empty test box file name");
	assert_int_equal(cp_keytab_resolve(&box_tab, "a b", "/tmp", out, sizeof(out), &d),
			 -CP_EINVAL);
	assert_string_equal(d.msg, "bad test box file name 'a b' (letters, digits, '-', '_' and '.' "
				   "only)");
	assert_int_equal(cp_keytab_resolve(&box_tab, ".box", "/tmp", out, sizeof(out), &d),
			 -CP_EINVAL);
	assert_string_equal(d.msg, "bad test box file name '.box' (must not start with '.')");
	assert_int_equal(cp_keytab_resolve(&box_tab, "box", NULL, out, sizeof(out), &d), -CP_EINVAL);
	assert_string_equal(d.msg, "test box file 'box': no profile directory to look in");
	assert_int_equal(cp_keytab_resolve(&box_tab, "no-such-box", "/nonexistent", out,
					   sizeof(out), &d),
			 -CP_ENOENT);
	assert_string_equal(d.msg, "test box file 'no-such-box' not found (no file "
				   "/nonexistent/no-such-box.ini)");
	assert_string_equal(out, "untouched");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(load_stores_every_kind_in_integer_units),
		cmocka_unit_test(ns_key_takes_a_duration_with_a_unit),
		cmocka_unit_test(fields_of_four_and_eight_bytes_hold_their_values),
		cmocka_unit_test(optional_keys_keep_the_callers_defaults),
		cmocka_unit_test(missing_required_key_is_named),
		cmocka_unit_test(key_given_twice_names_both_lines),
		cmocka_unit_test(unknown_section_lists_the_tables_sections),
		cmocka_unit_test(unknown_key_and_key_outside_a_section_are_refused),
		cmocka_unit_test(syntax_error_names_the_line),
		cmocka_unit_test(first_error_is_reported),
		cmocka_unit_test(duration_without_a_unit_is_refused_except_zero),
		cmocka_unit_test(out_of_range_values_name_the_range),
		cmocka_unit_test(accept_functions_refuse_with_the_keys_expected_text),
		cmocka_unit_test(text_longer_than_its_field_is_refused),
		cmocka_unit_test(cross_key_error_names_the_blamed_keys_line),
		cmocka_unit_test(missing_file_is_enoent_and_uses_the_tables_name),
		cmocka_unit_test(set_changes_one_key),
		cmocka_unit_test(set_names_bad_keys_and_values),
		cmocka_unit_test(set_refused_by_validate_changes_nothing),
		cmocka_unit_test(check_values_names_the_first_bad_key),
		cmocka_unit_test(find_gives_the_keys_index),
		cmocka_unit_test(check_accepts_the_test_table),
		cmocka_unit_test(check_refuses_broken_tables),
		cmocka_unit_test(resolve_turns_a_bare_name_into_dir_name_ini),
		cmocka_unit_test(resolve_refuses_bad_names_and_names_missing_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
