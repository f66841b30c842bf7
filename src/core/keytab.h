/*
 * keytab.h - INI files described by a table of keys (via inih): loading,
 * "section.key=value" overrides, range checks and name resolution, shared
 * by the machine profiles (engine/machine.c) and the filesystem profiles
 * (model/fs_profile_file.c).
 *
 * A caller describes its file once: one struct cp_key per key (section,
 * name, kind of value, where it goes in the caller's struct, required or
 * not, allowed range) and a struct cp_keytab around them (what the file
 * is called in messages, a cross-key check). Every message has the form
 * "FILE:LINE: key 'K' in [S]: bad value 'V' (expected ...)" or a
 * variant of it, so the loaders read alike.
 */
#ifndef CP_KEYTAB_H
#define CP_KEYTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cp_diag;

#define CP_KEYTAB_MAX_KEYS 64     /* keys in one table */
#define CP_KEYTAB_MAX_TEXT 256    /* bytes of one text field */
#define CP_KEYTAB_MAX_SECTION 31  /* characters of a section name */
#define CP_KEYTAB_PATH_MAX 4096   /* bytes of a resolved path, with the NUL */
#define CP_KEY_NOLIMIT UINT64_MAX /* max of a key with no upper bound */

/* How a value is written, parsed (core/parse.h) and stored. */
enum cp_key_kind {
	CP_KEY_TEXT,     /* copied into a char array, at most its size - 1 characters */
	CP_KEY_SIZE,     /* bytes, cp_parse_size(): "16G", "192" */
	CP_KEY_RATE,     /* bytes per second, cp_parse_size(): "2800M" */
	CP_KEY_DURATION, /* nanoseconds, cp_parse_duration() with a unit: "20us" (bare "0" is fine) */
	CP_KEY_NS,       /* nanoseconds: a bare number is ns, else a duration: "1000", "1us" */
	CP_KEY_COUNT,    /* whole number, cp_parse_count(): "30", "4M" */
	CP_KEY_BOOL,     /* yes/no, cp_parse_bool(), into a bool */
};

/*
 * One key. Numeric kinds store into a 4-byte (uint32_t, unsigned) or an
 * 8-byte (uint64_t) field, CP_KEY_BOOL into a bool, CP_KEY_TEXT into a
 * char array of width bytes.
 */
struct cp_key {
	const char *section;
	const char *name;
	enum cp_key_kind kind;
	size_t offset;      /* of the field in the caller's struct */
	size_t width;       /* sizeof the field */
	bool required;      /* load: a file without it is refused */
	uint64_t min, max;  /* numeric kinds: allowed range (max CP_KEY_NOLIMIT: none) */
	/* what a bad value message says is expected; NULL: the kind's
	 * default (cp_keytab_expected()) */
	const char *expected;
	/* optional further checks; a value they refuse is a bad value */
	bool (*accept_text)(const char *value);  /* CP_KEY_TEXT only */
	bool (*accept_num)(uint64_t value);      /* numeric kinds only */
};

/* offset and width of field f of struct type: { ..., CP_KEY_FIELD(struct x, f), ... } */
#define CP_KEY_FIELD(type, f) offsetof(type, f), sizeof(((type *)0)->f)

/*
 * The values against each other, after a load or a set. Returns 0 or
 * -CP_EINVAL with diag "key 'K' in [S]: ..."; *blame is then the index
 * of the key whose line a load names, or -1 for none.
 */
typedef int (*cp_keytab_validate_fn)(const void *obj, int *blame, struct cp_diag *diag);

struct cp_keytab {
	const char *what;        /* "machine profile": names the file in messages */
	const char *set_example; /* "device.read_latency": shown when a --set key is malformed */
	const struct cp_key *keys;
	size_t nr_keys;
	size_t obj_size;         /* sizeof the struct the offsets point into */
	cp_keytab_validate_fn validate; /* NULL: no cross-key checks */
};

/* What a bad value of k should have been: k->expected, or the default of
 * its kind ("a size like 16G", "yes or no", ...). */
const char *cp_keytab_expected(const struct cp_key *k);

/* Index of the key section.name in t, or -1. */
int cp_keytab_find(const struct cp_keytab *t, const char *section, const char *name);

/*
 * Parses the INI file at path into obj, which the caller has filled with
 * the defaults of the optional keys; then checks that every required key
 * was given and runs t->validate. Returns 0, -CP_ENOENT (no such file),
 * -CP_EIO (unreadable) or -CP_EINVAL (syntax error, unknown section or
 * key, a key given twice, a bad or out-of-range value, a required key
 * missing, t->validate refused). diag names the file and, where there is
 * one, the line: "p.ini:7: key 'ram' in [machine]: bad value '16Q'
 * (expected a size like 16G)"; only the first error is reported.
 * obj is scratch: on failure it may hold part of the file, so load into
 * a copy and keep it on success.
 */
int cp_keytab_load(const struct cp_keytab *t, const char *path, void *obj,
		   struct cp_diag *diag);

/*
 * Sets one key given as "section.key" (--set device.read_latency=50us)
 * in obj and runs t->validate. Returns 0 or -CP_EINVAL with diag naming
 * the key and value (no file, no line); on failure obj is unchanged.
 */
int cp_keytab_set(const struct cp_keytab *t, void *obj, const char *section_key,
		  const char *value, struct cp_diag *diag);

/*
 * Checks the numeric fields of obj against their ranges and accept_num,
 * in table order: for a t->validate that wants the per-key checks on a
 * struct that did not come through load or set. Returns 0 or -CP_EINVAL
 * with diag "key 'K' in [S]: value N out of range (MIN..MAX)" or "...:
 * value N is not EXPECTED"; *bad_key is then the key's index (-1 on
 * success).
 */
int cp_keytab_check_values(const struct cp_keytab *t, const void *obj, int *bad_key,
			   struct cp_diag *diag);

/*
 * Turns NAME|FILE (--machine, --fs) into a path: a value containing '/'
 * or ending in ".ini" is a path used as is; a bare name (letters,
 * digits, '-', '_', '.', not starting with '.') means
 * "<search_dir>/<name>.ini". Checks that the file can be opened and
 * writes the path into out (out_len bytes). Returns 0, -CP_EINVAL (empty
 * or malformed name, no search_dir, a path of CP_KEYTAB_PATH_MAX bytes or
 * more, or too long for out), -CP_ENOENT (no such file; diag says where
 * it looked) or -CP_EIO. Messages name the file as t->what. On failure
 * out is unchanged.
 */
int cp_keytab_resolve(const struct cp_keytab *t, const char *name_or_path,
		      const char *search_dir, char *out, size_t out_len, struct cp_diag *diag);

/*
 * Invariant check of a table, for CP_DEBUG_CHECK: at most
 * CP_KEYTAB_MAX_KEYS keys, no key twice, every field inside obj_size with
 * a width its kind can store (4-byte fields with max <= UINT32_MAX, text
 * of 2..CP_KEYTAB_MAX_TEXT bytes), min <= max, section names of at most
 * CP_KEYTAB_MAX_SECTION characters, accept functions on matching kinds.
 */
bool cp_keytab_check(const struct cp_keytab *t);

#endif /* CP_KEYTAB_H */
