/*
 * run_setup.h - the options of `cachepressure run` and `compare`, and
 * their resolution into what cp_sim_run() needs: the scenario (scaled,
 * overridden), the machine profile, the kernel profile, the filesystem
 * profile, the confinement, the seed and vfs_cache_pressure.
 *
 * Defaults come from the scenario's [scenario] section (kernel, machine,
 * fs, seed), else linux-4.11 and seed-box; options override them.
 */
#ifndef CP_CLI_RUN_SETUP_H
#define CP_CLI_RUN_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "engine/machine.h"
#include "model/fs_profile.h"
#include "model/fs_profile_file.h"
#include "model/policy.h"
#include "model/profile.h"
#include "sim/sim.h"

/* Used when neither an option nor the scenario names one. */
#define CLI_DEFAULT_KERNEL "linux-4.11"

/* --set prefixes that name a machine or filesystem profile key, not a
 * scenario key: --set machine.cpu.copy_bandwidth=8G, --set fs.log.log_size=0 */
#define CLI_MACHINE_SET_PREFIX "machine."
#define CLI_FS_SET_PREFIX "fs."
#define CLI_DEFAULT_MACHINE "seed-box"
#define CLI_DEFAULT_FS "xfs"
#define CLI_DEFAULT_POLICY CP_POLICY_LEGACY
#define CLI_DEFAULT_CONFINE CP_CONFINE_GLOBAL

/* The options as given (strings point into argv). */
struct cli_run_opts {
	const char *cmd;              /* "run" or "compare", for messages */
	struct cli_scenario_opts so;  /* SCENARIO, --mem, scenario --set's */
	const char **machine_sets;    /* --set machine.SECTION.KEY=VALUE, prefix kept */
	size_t nr_machine_sets;
	const char **fs_sets;         /* --set fs.SECTION.KEY=VALUE, prefix kept */
	size_t nr_fs_sets;
	const char *policy;           /* --policy (run only) */
	const char *kernel;           /* --kernel */
	const char *machine;          /* --machine NAME|FILE */
	const char *fs;               /* --fs NAME|FILE */
	const char *confine;          /* --confine */
	const char *seed;             /* --seed */
	const char *vfs_cache_pressure; /* --vfs-cache-pressure */
	const char *json;             /* --json FILE ('-' = stdout) */
	const char *csv;              /* --csv FILE ('-' = stdout) */
	const char *start_free;       /* --start-free FILE.json (a real run's) */
	bool quiet;                   /* --quiet */
	bool help;                    /* -h, --help was given */
};

/* Everything resolved. */
struct cli_run_setup {
	struct cp_scenario *sc;               /* owned */
	struct cp_machine machine;
	const struct cp_kernel_profile *kernel;
	struct cp_fs_profile fs;
	struct cp_fs_costs fs_costs;
	enum cp_ref_policy policy;
	enum cp_confine confine;
	uint64_t seed;
	unsigned vfs_cache_pressure;          /* 0 = the kernel default, 100 */
	bool has_start_free;                  /* --start-free given */
	struct cp_mem_start_free start_free;
};

/* Directory of the machine and filesystem profiles:
 * $CACHEPRESSURE_PROFILES_DIR, or the source tree's profiles/ compiled in. */
const char *cli_profiles_dir(void);

/* Parses argv (argv[0] is the command). allow_policy: --policy is an
 * option (run) or refused (compare). Returns CLI_EXIT_OK (o->help tells
 * whether help was asked for) or CLI_EXIT_USAGE (message printed;
 * o->machine_sets and o->so.sets still need cli_run_opts_release()).
 * Always call cli_run_opts_release() afterwards. */
int cli_run_opts_parse(int argc, char **argv, bool allow_policy, struct cli_run_opts *o);
void cli_run_opts_release(struct cli_run_opts *o);

/* Resolves the options. Returns CLI_EXIT_OK with *s filled (release with
 * cli_run_setup_release()), or prints "cachepressure CMD: MESSAGE" naming
 * the input and returns CLI_EXIT_USAGE (CLI_EXIT_FAIL when out of memory
 * or a file could not be read); *s then needs no release. */
int cli_run_setup(const struct cli_run_opts *o, struct cli_run_setup *s);
void cli_run_setup_release(struct cli_run_setup *s);

/* Fills cfg for one run of s under policy (no progress callback). */
void cli_run_config(const struct cli_run_setup *s, enum cp_ref_policy policy,
		    struct cp_sim_config *cfg);

#endif /* CP_CLI_RUN_SETUP_H */
