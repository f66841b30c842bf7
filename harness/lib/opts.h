/*
 * opts.h - command-line options of `cachepressure real` and
 * `cachepressure calibrate` (parsed here so the unit tests reach them).
 */
#ifndef CP_OPTS_H
#define CP_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "fsimage.h"
#include "sim/sim.h" /* enum cp_confine, cp_confine_name(): shared with the model */

#define CP_REAL_DEFAULT_WORKDIR "/var/tmp/cachepressure"
#define CP_REAL_MAX_REPEAT 100
#define CP_REAL_MAX_SETS 32

struct cp_diag;

/* Kernel lab (`real --kernel BZIMAGE`, lab.h): boot the scenario in a
 * qemu guest instead of running it on the live kernel. */
enum cp_lab_accel { CP_LAB_ACCEL_AUTO, CP_LAB_ACCEL_KVM, CP_LAB_ACCEL_TCG };

#define CP_LAB_DEFAULT_VM_CPUS 2
/* Guest RAM beyond --mem by default, and the least the guest can run
 * with (kernel, initramfs in RAM, the harness processes, the balloon's
 * guest headroom): measured in docs/kernel-lab.md. */
#define CP_LAB_VM_EXTRA_BYTES (256ULL << 20)
#define CP_LAB_VM_MIN_EXTRA_BYTES (192ULL << 20)

struct cp_lab_opts {             /* parsed from --kernel/--vm-mem/--vm-cpus/--timeout/--accel */
	const char *kernel;      /* --kernel BZIMAGE, or NULL: the live kernel */
	uint64_t vm_mem_bytes;   /* --vm-mem; default mem + CP_LAB_VM_EXTRA_BYTES */
	unsigned vm_cpus;        /* --vm-cpus, default 2 */
	uint64_t timeout_ns;     /* --timeout per boot; 0 = derived from the plan */
	enum cp_lab_accel accel; /* --accel kvm|tcg|auto, default auto */
	const char *scenarios_dir; /* set by the CLI (cli_scenarios_dir()): where built-in
				    * scenarios live; NULL: $CACHEPRESSURE_SCENARIOS_DIR,
				    * else ./scenarios */
};

struct cp_real_opts {
	const char *scenario;   /* positional, required: built-in name or file */
	uint64_t mem_bytes;     /* --mem SIZE, required */
	const char *mem_arg;    /* the SIZE text as given */
	const char *sets[CP_REAL_MAX_SETS]; /* --set SECTION.KEY=VALUE, in order */
	size_t nr_sets;
	enum cp_confine confine;/* --confine, default global */
	enum cp_fs_kind fs;     /* --fs; without it the scenario's fs */
	bool fs_given;
	const char *workdir;    /* --workdir, default CP_REAL_DEFAULT_WORKDIR */
	unsigned repeat;        /* --repeat N, 1..CP_REAL_MAX_REPEAT, default 1 */
	const char *json;       /* --json FILE or NULL */
	bool keep;              /* --keep: keep the last image */
	struct cp_lab_opts lab; /* --kernel and friends */
	/* Hidden --guest-disk DEV: inside a lab guest only (guest.h checks
	 * /proc/cmdline and pid 1), use the pre-made disk DEV instead of an
	 * image, loop device and mkfs. */
	const char *guest_disk;
};

/* Parses argv[1..] (argv[0] is the command name). Returns 0, 1 when
 * --help/-h was given (nothing else checked), or -CP_EINVAL with diag
 * naming the option and value. Strings point into argv. */
int cp_real_opts_parse(int argc, char **argv, struct cp_real_opts *o, struct cp_diag *diag);

/* calibrate's data file and fs_mark run by default; --file-size and
 * --files make them smaller (a quick calibration, a small guest). */
#define CP_CALIB_DEFAULT_FILE_BYTES (1ULL << 30)
#define CP_CALIB_MIN_FILE_BYTES (16ULL << 20)
#define CP_CALIB_DEFAULT_FILES 100000
#define CP_CALIB_MAX_FILES 10000000
/* `calibrate --kernel`: guest RAM by default, what `real --mem 1G
 * --kernel` gives its guest (1G + CP_LAB_VM_EXTRA_BYTES), so the profile
 * describes the guest the 1 GiB lab runs use; at least --file-size +
 * CP_LAB_VM_MIN_EXTRA_BYTES (the data file must stay cached). */
#define CP_CALIB_LAB_DEFAULT_VM_MEM ((1ULL << 30) + CP_LAB_VM_EXTRA_BYTES)

/* `calibrate --mean FILE` given at most this often. */
#define CP_CALIB_MEAN_MAX 32 /* at most CP_CALIB_COMBINE_MAX (calib_profile.h) */

struct cp_calibrate_opts {
	const char *workdir;    /* --workdir, default CP_REAL_DEFAULT_WORKDIR */
	const char *output;     /* -o/--output FILE, default: stdout */
	const char *from;       /* --from FILE: profile to copy unmeasured keys from */
	const char *name;       /* --name NAME of the machine, default "calibrated" */
	uint64_t file_bytes;    /* --file-size SIZE, default CP_CALIB_DEFAULT_FILE_BYTES */
	uint64_t nr_files;      /* --files N (fs_mark -n), default CP_CALIB_DEFAULT_FILES */
	struct cp_lab_opts lab; /* --kernel BZIMAGE [--vm-mem --vm-cpus --timeout --accel]:
				 * measure inside a lab guest; vm_mem_bytes resolved */
	const char *guest_disk; /* hidden --guest-disk DEV: inside a lab guest (guest.h) */
	const char *mean[CP_CALIB_MEAN_MAX]; /* --mean or --median FILE ...: combine these
					      * profiles */
	size_t nr_mean;         /* 0: measure */
	bool median;            /* --median: their median, not their mean */
};

int cp_calibrate_opts_parse(int argc, char **argv, struct cp_calibrate_opts *o,
			    struct cp_diag *diag);

/* ---- `cachepressure real compare` ------------------------------------------ */

#define CP_COMPARE_NAME_MAX 32 /* a kernel's NAME, with its '\0' */
#define CP_COMPARE_MAX_VM_CPUS 64

/* --kernel NAME=BZIMAGE */
struct cp_compare_kernel {
	char name[CP_COMPARE_NAME_MAX]; /* letters, digits, '.', '_', '-' */
	const char *image;              /* the BZIMAGE path, points into argv */
};

struct cp_real_compare_opts {
	/* The options shared with `real`: scenario, mem_bytes/mem_arg (0 and
	 * NULL without --mem: the scenario's own size), sets, confine,
	 * repeat, json. fs, workdir and keep keep their defaults. */
	struct cp_real_opts real;
	struct cp_compare_kernel kernels[2]; /* A, B in the order given */
	uint64_t vm_mem_bytes;  /* --vm-mem SIZE; 0 = the kernel lab's default */
	unsigned vm_cpus;       /* --vm-cpus N; 0 = the kernel lab's default */
};

/* Parses `real compare` (argv[0] is "compare"): SCENARIO --kernel
 * NAME=BZIMAGE --kernel NAME=BZIMAGE --repeat N [--mem SIZE] [--confine
 * global|memcg] [--vm-mem SIZE] [--vm-cpus N] [--json FILE] [--set
 * S.K=V]... Exactly two --kernel with distinct names; --repeat from 2
 * (the test needs two runs a kernel) to CP_REAL_MAX_REPEAT. Returns 0, 1
 * for --help/-h, or -CP_EINVAL with diag naming the option and value;
 * *o unchanged on failure. Does not look at the files. */
int cp_real_compare_opts_parse(int argc, char **argv, struct cp_real_compare_opts *o,
			       struct cp_diag *diag);

#endif /* CP_OPTS_H */
