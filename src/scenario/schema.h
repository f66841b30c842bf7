/*
 * schema.h - the scenario file schema: one table of keys per section
 * type, and the typed values behind them. Internal to src/scenario/.
 *
 * Loader, --set, --mem scaling, validation and printing all walk these
 * tables, so a key is declared once (name, kind, field, default, flags)
 * and every stage treats it the same way.
 */
#ifndef CP_SCENARIO_SCHEMA_H
#define CP_SCENARIO_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"

enum cp_sc_kind {
	CP_SK_STR,      /* char *: any text (may be empty) */
	CP_SK_NAME,     /* char *: [A-Za-z0-9_.-]+ (scenario, fs, kernel names) */
	CP_SK_REF,      /* char *: the name of another section, [A-Za-z0-9_-]+ */
	CP_SK_PATH,     /* char *: absolute, normalised path */
	CP_SK_PATHS,    /* struct cp_sc_paths: paths separated by ',' or spaces */
	CP_SK_SIZE,     /* uint64_t bytes: cp_parse_size() or N% of ram */
	CP_SK_COUNT,    /* uint64_t: cp_parse_count() */
	CP_SK_DURATION, /* uint64_t ns: cp_parse_duration() */
	CP_SK_BOOL,     /* bool: cp_parse_bool() */
};

#define CP_SKF_REQUIRED 0x1u /* no default: the file must give it */
#define CP_SKF_SCALES   0x2u /* multiplied by mem/ram under --mem */
#define CP_SKF_NONZERO  0x4u /* 0 is not allowed */
#define CP_SKF_OPTIONAL 0x8u /* string that may be absent: empty value = NULL */

struct cp_sc_key {
	const char *key;
	enum cp_sc_kind kind;
	size_t off;        /* offset of the field in the section's struct */
	unsigned flags;    /* CP_SKF_* */
	const char *dflt;  /* default as text (parsed like a file value); NULL = none */
	uint64_t max;      /* counts: largest allowed value; 0 = no limit */
	const char *help;  /* what the key means, one line */
};

/* Section types, in print order. */
enum cp_sc_type_id {
	CP_ST_SCENARIO,
	CP_ST_FILE,
	CP_ST_READER,
	CP_ST_CREATOR,
	CP_ST_WALKER,
	CP_ST_STREAMER,
	CP_ST_NR
};

struct cp_sc_type {
	const char *name;             /* section type: "reader" */
	const struct cp_sc_key *keys; /* nr_keys entries */
	size_t nr_keys;
	size_t elem_size;             /* sizeof the element struct */
	size_t name_off;              /* offset of char *name in the element */
	size_t origin_off;            /* offset of struct cp_sc_origin */
	int actor_type;               /* enum cp_sc_actor_type, or -1 */
};

/* Indexed by enum cp_sc_type_id. */
extern const struct cp_sc_type cp_sc_types[CP_ST_NR];

/* One value of any kind, detached from its section. */
union cp_sc_val {
	uint64_t u;
	bool b;
	char *s;
	struct cp_sc_paths p;
};

/* Number of sections of a type (the scenario section counts as 1). */
size_t cp_sc_count(const struct cp_scenario *sc, enum cp_sc_type_id t);

/* The i-th section of a type; for CP_ST_SCENARIO the scenario itself. */
void *cp_sc_elem(const struct cp_scenario *sc, enum cp_sc_type_id t, size_t i);

/* Appends a zeroed section (not for CP_ST_SCENARIO). 0 or -CP_ENOMEM. */
int cp_sc_append(struct cp_scenario *sc, enum cp_sc_type_id t, void **out);

/* The name and origin of a section. The scenario section's name is its
 * name key (may be NULL while loading). */
const char *cp_sc_elem_name(enum cp_sc_type_id t, const void *elem);
struct cp_sc_origin *cp_sc_elem_origin(enum cp_sc_type_id t, void *elem);

/* Index of key in a type's table, or -1. */
int cp_sc_key_find(enum cp_sc_type_id t, const char *key);

/* Parses text for key k. A relative size ("40%") is resolved against
 * ram_bytes, unless ram_bytes is 0: then *rel_upct receives the value in
 * millionths of a percent and v->u is 0 (the caller resolves it later).
 * Returns 0, or -CP_EINVAL/-CP_ERANGE/-CP_ENOMEM with a reason in why
 * (no location); v is set only on success. */
int cp_sc_val_parse(const struct cp_sc_key *k, const char *text, uint64_t ram_bytes,
		    union cp_sc_val *v, uint64_t *rel_upct, char *why, size_t why_len);

/* floor(ram * upct / 100e6): a relative size in bytes. -CP_ERANGE if it
 * does not fit in 64 bits. */
int cp_sc_rel_size(uint64_t ram_bytes, uint64_t upct, uint64_t *bytes);

/* Shallow copy of the field out of / into a section. */
void cp_sc_val_get(const struct cp_sc_key *k, const void *elem, union cp_sc_val *v);
void cp_sc_val_put(const struct cp_sc_key *k, void *elem, const union cp_sc_val *v);

/* Frees what a value owns (strings, path lists). */
void cp_sc_val_free(const struct cp_sc_key *k, union cp_sc_val *v);

/* Formats the field of a section the way the printer writes it (and the
 * loader reads it back); "" for an absent optional string. Truncates to
 * len. Returns false when the key is absent (optional string is NULL). */
bool cp_sc_val_format(const struct cp_sc_key *k, const void *elem, char *buf, size_t len);

/* Section names: [A-Za-z0-9_-]+, at most 64 characters. */
bool cp_sc_valid_ident(const char *s);

#endif /* CP_SCENARIO_SCHEMA_H */
