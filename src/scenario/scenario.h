/*
 * scenario.h - a scenario: the machine size, the data files and the
 * actors (readers, fs_mark creators, directory walkers, streamers) of one
 * experiment, loaded from an INI file (the files in scenarios/).
 *
 * File format (one [scenario] section, then instance sections named
 * "[TYPE NAME]"; inih hands them to us as the section string
 * "TYPE NAME"):
 *
 *   [scenario]        name, description, ram, fs, mount, kernel, machine,
 *                     seed, time_limit
 *   [file NAME]       path, size, cached, sparse
 *   [reader NAME]     file, read_size           + the actor keys
 *   [creator NAME]    dirs, files_per_loop, loops, file_size, sync,
 *                     subdirs, files_per_subdir, secs_per_dir, name_len
 *                                               + the actor keys
 *   [walker NAME]     root, recursive           + the actor keys
 *   [streamer NAME]   file, read_size           + the actor keys
 *   actor keys:       start, start_after, stop_with
 *
 * Timing: an actor starts `start` after the run begins, or, with
 * start_after = OTHER, `start` after actor OTHER has ended. A reader or
 * walker loops until the actor named by stop_with ends (or until
 * scenario.time_limit); creators and streamers end on their own.
 *
 * Sizes are absolute ("6500M", "16G", "4096") or relative to ram
 * ("39.67%": floor(ram * percent / 100), resolved once ram is known).
 * Either way a size is a byte count after loading; cp_scenario_scale()
 * then multiplies every scalable value by mem/ram (see there).
 *
 * Names (of sections, files and actors) are [A-Za-z0-9_-]+. File names
 * and actor names are separate namespaces: `[file file1]` and
 * `[reader file1]` may coexist; two actors may not share a name.
 */
#ifndef CP_SCENARIO_H
#define CP_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cp_diag;

/* Keys per section type, at most (index into the type's key table). */
#define CP_SC_MAX_KEYS 16

/* Where a section and its values came from, for error messages of later
 * stages ("seed.ini:23: [creator fs_mark] sync = 1: not modelled"). */
struct cp_sc_origin {
	unsigned line;                     /* the section's first line; 0 = none */
	unsigned key_line[CP_SC_MAX_KEYS]; /* by key index; 0 = default or --set */
};

enum cp_sc_actor_type {
	CP_SC_READER,   /* the seed's read-file: loops over one file */
	CP_SC_CREATOR,  /* fs_mark */
	CP_SC_WALKER,   /* the seed author's read-dir: readdir + stat, looping */
	CP_SC_STREAMER, /* one sequential read of a file (cat > /dev/null) */
	CP_SC_NR_ACTOR_TYPES
};

/* What every actor has; the first member of each actor struct. */
struct cp_sc_actor {
	char *name;          /* unique among all actors */
	uint64_t start_ns;   /* delay from run start, or from start_after's end */
	char *start_after;   /* NULL, or the name of another actor */
	char *stop_with;     /* NULL, or the actor whose end stops this one */
	struct cp_sc_origin origin;
};

/* A data file that exists on the test filesystem when the run starts. */
struct cp_sc_file {
	char *name;
	char *path;          /* absolute, below scenario.mount */
	uint64_t size_bytes; /* > 0; scaled by --mem */
	bool cached;         /* starts in the page cache; no: written, then dropped */
	bool sparse;         /* a hole: reading it needs no device I/O */
	struct cp_sc_origin origin;
};

struct cp_sc_reader {
	struct cp_sc_actor actor;
	char *file;              /* name of a [file] section */
	size_t file_idx;         /* index of that file in cp_scenario.files */
	uint64_t read_size_bytes; /* bytes per read() call (read-file: 1 MiB) */
	/* start after a seeded random delay within one cached pass of its
	 * file (sim.c): the readers' relative phase, which scheduling noise
	 * sets on a real machine and nothing sets in the model */
	bool random_phase;
};

/* A list of absolute paths (creator dirs). */
struct cp_sc_paths {
	char **v; /* owned, n entries */
	size_t n;
};

struct cp_sc_creator {
	struct cp_sc_actor actor;
	struct cp_sc_paths dirs;   /* -d: one worker per directory */
	uint64_t files_per_loop;   /* -n, per worker and loop; scaled by --mem */
	uint64_t loops;            /* -L (files are kept between loops) */
	uint64_t file_size_bytes;  /* -s */
	uint64_t sync;             /* -S sync method, 0..6 (0 = no sync) */
	uint64_t subdirs;          /* -D; 0 = files directly in each dir */
	uint64_t files_per_subdir; /* -N; 0 with subdirs = time-hash policy */
	uint64_t secs_per_dir_ns;  /* time-hash: time spent in one subdir (fs_mark: 180 s) */
	uint64_t name_len;         /* -p file name length (fs_mark: 40) */
};

struct cp_sc_walker {
	struct cp_sc_actor actor;
	char *root;     /* directory read with readdir(), entries stat()ed */
	bool recursive; /* descend into subdirectories (read-dir does not) */
};

struct cp_sc_streamer {
	struct cp_sc_actor actor;
	char *file;              /* name of a [file] section */
	size_t file_idx;
	uint64_t read_size_bytes;
};

struct cp_scenario {
	char *source;        /* the file it was loaded from (for messages) */
	struct cp_sc_origin origin; /* of the [scenario] section */

	char *name;
	char *description;
	uint64_t ram_bytes;  /* the machine's RAM at this scale */
	char *fs;            /* filesystem profile name: "xfs", "ext4" */
	char *mount;         /* mount point of the test filesystem */
	char *kernel;        /* default kernel profile, or NULL */
	char *machine;       /* default machine profile, or NULL */
	uint64_t seed;       /* PRNG seed */
	uint64_t time_limit_ns; /* stop everything after this; 0 = no limit */

	/* Each array is sorted by name (byte order). */
	struct cp_sc_file *files;
	size_t nr_files;
	struct cp_sc_reader *readers;
	size_t nr_readers;
	struct cp_sc_creator *creators;
	size_t nr_creators;
	struct cp_sc_walker *walkers;
	size_t nr_walkers;
	struct cp_sc_streamer *streamers;
	size_t nr_streamers;
};

/* Loads and validates a scenario file. Returns 0, -CP_EINVAL (syntax,
 * unknown section or key, bad value, failed validation), -CP_ENOENT (no
 * such file), -CP_EIO or -CP_ENOMEM. On failure *out is unchanged and
 * diag (if given) holds "FILE:LINE: [SECTION] KEY = VALUE: reason".
 * Free the result with cp_scenario_destroy(). */
int cp_scenario_load(const char *path, struct cp_scenario **out, struct cp_diag *diag);

/* Same from a NUL-terminated string; source names it in messages. */
int cp_scenario_load_string(const char *text, const char *source,
			    struct cp_scenario **out, struct cp_diag *diag);

/* Resolves a built-in scenario: a bare name (no '/') means
 * "<scenarios_dir>/<name>.ini". On success *path is a cp_malloc'ed
 * string the caller frees with cp_free(). Returns 0, -CP_EINVAL (the
 * name is not a bare name), -CP_ENOENT (no such file) or -CP_ENOMEM;
 * *path is unchanged on failure. */
int cp_scenario_find_builtin(const char *name, const char *scenarios_dir, char **path,
			     struct cp_diag *diag);

/* Applies one override "SECTION.KEY=VALUE" (--set). SECTION is
 * "scenario", "TYPE.NAME" or "TYPE NAME"; NAME may be "*" for every
 * section of that type. A relative size ("50%") uses the current ram.
 * The scenario is validated again. Returns 0 or -CP_EINVAL (unknown
 * section or key, bad value, validation failed) / -CP_ENOMEM; on failure
 * the scenario is unchanged. */
int cp_scenario_set(struct cp_scenario *sc, const char *assignment, struct cp_diag *diag);

/* Scales the scenario to a machine of mem_bytes (--mem): every scalable
 * value (file sizes, fs_mark files per loop) becomes
 * floor(value * mem_bytes / ram_bytes), computed exactly in 128 bits; a
 * value that was non-zero stays at least 1. Then ram_bytes = mem_bytes.
 * Absolute and relative sizes scale alike (relative ones were resolved
 * to bytes at load). Returns 0, -CP_EINVAL (mem_bytes is 0) or
 * -CP_ERANGE (a value would overflow); on failure nothing changed. */
int cp_scenario_scale(struct cp_scenario *sc, uint64_t mem_bytes, struct cp_diag *diag);

/* Prints the resolved scenario as INI that cp_scenario_load() reads back
 * to the same scenario: [scenario] first, then files, readers, creators,
 * walkers and streamers, each by name; keys sorted; sizes and durations
 * in the largest unit that represents them exactly. Returns 0 or
 * -CP_EIO. */
int cp_scenario_print(FILE *out, const struct cp_scenario *sc);

/* Lists every section type and its keys: kind, default (or "required"),
 * meaning, and whether --mem scales it. For `cachepressure show --keys`.
 * Returns 0 or -CP_EIO. */
int cp_scenario_print_keys(FILE *out);

/* Finds an actor by name; returns its common part or NULL. *type and
 * *idx (if not NULL) receive its type and index in that type's array. */
const struct cp_sc_actor *cp_scenario_find_actor(const struct cp_scenario *sc,
						 const char *name,
						 enum cp_sc_actor_type *type, size_t *idx);

/* The type's section name: "reader", "creator", "walker", "streamer". */
const char *cp_sc_actor_type_name(enum cp_sc_actor_type type);

/* Re-checks every rule the loader checks (references, ranges, cycles,
 * termination). Returns 0 or -CP_EINVAL with diag. */
int cp_scenario_validate(const struct cp_scenario *sc, struct cp_diag *diag);

/* Internal consistency (indices resolved, arrays sorted, counts match);
 * true when it holds. For CP_DEBUG_CHECK. */
bool cp_scenario_check(const struct cp_scenario *sc);

/* Frees everything; cp_scenario_destroy(NULL) does nothing. */
void cp_scenario_destroy(struct cp_scenario *sc);

#endif /* CP_SCENARIO_H */
