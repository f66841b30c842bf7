/*
 * cmd_calibrate.c - `cachepressure calibrate`: measure this machine, or
 * with --kernel BZIMAGE a kernel-lab guest of that kernel, and write a
 * machine profile (the INI file the model's --machine reads).
 *
 * Each measured key carries, on the comment lines above it, how it was
 * measured, the command, the date and the kernel (for a guest also: the
 * qemu guest, its RAM and CPUs, the disk and the host); keys calibrate
 * cannot measure are copied, with their comments, from a source profile
 * (--from, or profiles/seed-box.ini found from the current directory or
 * next to the program), and say so (harness/lib/calib_profile.c).
 */
#include <cachepressure/error.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib_profile.h"
#include "calibrate.h"
#include "cli.h"
#include "labcal.h"
#include "opts.h"
#include "proc.h"
#include "sig.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure calibrate [--workdir DIR] [-o FILE] [--from FILE]\n"
		"                               [--name NAME] [--file-size SIZE] [--files N]\n"
		"                               [--kernel BZIMAGE [--vm-mem SIZE] [--vm-cpus N]\n"
		"                                [--timeout DURATION] [--accel auto|kvm|tcg]]\n"
		"       cachepressure calibrate --mean FILE --mean FILE [--mean FILE ...]\n"
		"                               [-o FILE] [--name NAME]\n"
		"       cachepressure calibrate --median FILE --median FILE [--median FILE ...]\n"
		"                               [-o FILE] [--name NAME]\n"
		"\n"
		"Measures this machine, as root, on a filesystem of its own (sparse\n"
		"image, loop device with direct I/O, xfs; removed afterwards): the cached\n"
		"read rate (1 MiB read()s of a cached file), the device read rate (two\n"
		"readahead streams at once), the write rates (1 MiB buffered writes of a\n"
		"new file: one task's write path, buffered_write_bandwidth; then fsync:\n"
		"the device's, write_bandwidth) and latencies (4 KiB O_DIRECT), the\n"
		"fixed cost of a read() call, the CPU an xfs\n"
		"create costs all CPUs and the part of it fs_mark does not run itself\n"
		"(xfs_create_ns, xfs_create_kworker_ns), fs_mark's create rate for empty\n"
		"files, the CPUs fs_mark's two workers and two cached readers get side\n"
		"by side (fs_mark_cpus_beside_readers, readers_cpus_beside_fs_mark),\n"
		"whether the scheduler's autogroup is on (sched_autogroup),\n"
		"whether this process's memory cgroup is below the root\n"
		"(tasks_in_child_memcg), and CPUs, RAM, zones and watermark settings. Writes a machine profile for\n"
		"--machine FILE; each number has the command, date and kernel that\n"
		"produced it above it.\n"
		"\n"
		"Options:\n"
		"  --workdir DIR   where the image goes (default %s)\n"
		"  -o, --output FILE  write the profile to FILE (default: stdout)\n"
		"  --from FILE     profile to copy the keys it cannot measure from\n"
		"                  (default: profiles/seed-box.ini if found); with\n"
		"                  --mean or --median, the keys none of them measured\n"
		"                  (default: from the first of them)\n"
		"  --name NAME     the profile's name (default: calibrated)\n"
		"  --file-size SIZE  the data file the rates and latencies are measured on\n"
		"                  (default 1G; at least 16M, whole MiB); it must fit in\n"
		"                  the page cache. Smaller is quicker and noisier\n"
		"  --files N       empty files fs_mark creates (default 100000)\n"
		"  -h, --help      this help\n"
		"\n"
		"Kernel lab (no root needed): measure the machine as a qemu guest sees it\n"
		"  --kernel BZIMAGE  boot this kernel (scripts/build-kernel.sh) with a fresh\n"
		"                  xfs disk image (mkfs on a sparse file in --workdir); the\n"
		"                  guest's /init runs calibrate on it and the profile comes\n"
		"                  back over a serial port. Each measured key says it was\n"
		"                  measured inside a qemu guest of BZIMAGE, with its RAM,\n"
		"                  CPUs and disk: the machine profile for the model beside\n"
		"                  `real --kernel` runs (docs/kernel-lab.md)\n"
		"  --vm-mem SIZE   guest RAM (default 1280M, what `real --mem 1G --kernel`\n"
		"                  gives its guest; at least --file-size + 192M)\n"
		"  --vm-cpus N     guest CPUs (default 2)\n"
		"  --timeout DURATION  for the guest (default 5 min + 5 min per GiB of\n"
		"                  --file-size + 1 s per 200 --files); a guest that takes\n"
		"                  longer is killed and its console kept: exit 1\n"
		"  --accel MODE    auto (default: KVM when /dev/kvm works, else TCG), kvm, tcg\n"
		"\n"
		"Averaging (no root needed, measures nothing)\n"
		"  --mean FILE     a profile calibrate wrote; given two or more times, the\n"
		"                  profile written is their mean: each rate, cost and\n"
		"                  latency averaged (its comment lists every value), the\n"
		"                  settings (CPUs, RAM, zones, watermarks, readahead) as\n"
		"                  they agree, or an error naming the one that differs.\n"
		"                  For calibrations taken before and after a set of real\n"
		"                  runs, as scripts/validate-grid.sh does (up to %d)\n"
		"  --median FILE   the same with the median of the values in place of\n"
		"                  their mean (of an even number, the mean of the middle\n"
		"                  two): one calibration taken while the machine was\n"
		"                  disturbed does not move it. scripts/validate-grid.sh\n"
		"                  models every row with the median of all its\n"
		"                  calibrations\n",
		CP_REAL_DEFAULT_WORKDIR, CP_CALIB_MEAN_MAX);
}

static void on_progress(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "cachepressure calibrate: %s\n", msg);
}

static const char *find_source(const char *given, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (given)
		return given;
	if (access("profiles/seed-box.ini", R_OK) == 0)
		return "profiles/seed-box.ini";
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/../profiles/seed-box.ini", exe);
			if (access(buf, R_OK) == 0)
				return buf;
		}
	}
	return NULL;
}

/* Writes the profile c to -o or stdout, the keys nobody measured copied
 * from src. */
static int write_profile(const struct cp_calibrate_opts *o, const struct cp_calibration *c,
			 const struct cp_calib_source *src)
{
	FILE *out = o->output ? fopen(o->output, "w") : stdout;
	int rc;

	if (!out) {
		fprintf(stderr, "cachepressure calibrate: cannot write %s: %s\n", o->output,
			strerror(errno));
		return CLI_EXIT_FAIL;
	}
	cp_calib_profile_write(out, c, src);
	rc = out == stdout ? fflush(out) : fclose(out);
	if (rc) {
		fprintf(stderr, "cachepressure calibrate: writing %s failed\n",
			o->output ? o->output : "stdout");
		return CLI_EXIT_FAIL;
	}
	if (o->output)
		fprintf(stderr, "cachepressure calibrate: wrote %s\n", o->output);
	return CLI_EXIT_OK;
}

/* --mean (--median): the profile averaging the calibrated profiles given
 * (their median); the keys none measured are copied from --from, else
 * from the first. */
static int write_mean(const struct cp_calibrate_opts *o, const char *command,
		      struct cp_calibration *c, struct cp_calib_source *src, struct cp_diag *diag)
{
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	cp_calibration_init(c, o->name);
	rc = o->median ? cp_calib_median(c, o->mean, o->nr_mean, diag)
		       : cp_calib_mean(c, o->mean, o->nr_mean, diag);
	if (!rc)
		rc = cp_calib_source_load(src, o->from ? o->from : o->mean[0], diag);
	if (rc) {
		fprintf(stderr, "cachepressure calibrate: %s\n", diag->msg);
		return rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	snprintf(c->command, sizeof(c->command), "%s", command);
	gmtime_r(&now, &tm);
	strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return write_profile(o, c, src);
}

int cmd_calibrate(int argc, char **argv)
{
	struct cp_calibrate_opts opts;
	struct cp_calibration *c;
	struct cp_calib_source *src;
	struct cp_diag diag = { "" };
	char command[512] = "cachepressure", srcbuf[PATH_MAX + 64];
	const char *src_path;
	size_t len = strlen(command);
	int i, rc;

	rc = cp_calibrate_opts_parse(argc, argv, &opts, &diag);
	if (rc == 1) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (rc) {
		fprintf(stderr, "cachepressure calibrate: %s (try --help)\n", diag.msg);
		return CLI_EXIT_USAGE;
	}
	for (i = 0; i < argc && len < sizeof(command) - 1; i++)
		len += (size_t)snprintf(command + len, sizeof(command) - len, " %s", argv[i]);

	src = calloc(1, sizeof(*src));
	c = calloc(1, sizeof(*c));
	if (!src || !c) {
		free(src);
		free(c);
		fprintf(stderr, "cachepressure calibrate: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	if (opts.nr_mean) {
		rc = write_mean(&opts, command, c, src, &diag);
		free(src);
		free(c);
		return rc;
	}
	/* inside a lab guest the host copies the unmeasured keys */
	src_path = opts.guest_disk ? opts.from : find_source(opts.from, srcbuf, sizeof(srcbuf));
	if (src_path) {
		rc = cp_calib_source_load(src, src_path, &diag);
		if (rc) {
			fprintf(stderr, "cachepressure calibrate: %s\n", diag.msg);
			free(src);
			free(c);
			return rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		}
	} else if (!opts.guest_disk) {
		fprintf(stderr, "cachepressure calibrate: no source profile (profiles/seed-box.ini "
				"not found, no --from): unmeasured keys stay empty\n");
	}

	cp_calibration_init(c, opts.name);
	if (cp_real_signals_install()) {
		free(src);
		free(c);
		return CLI_EXIT_FAIL;
	}
	if (opts.lab.kernel)
		rc = cp_labcal_run(&opts, command, c, on_progress, NULL, &diag);
	else
		rc = cp_calibrate_run(&opts, command, c, on_progress, NULL, &diag);
	cp_real_signals_restore();
	if (rc) {
		fprintf(stderr, "cachepressure calibrate: %s\n", diag.msg);
		free(src);
		free(c);
		return rc == -CP_EPERM || rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	rc = write_profile(&opts, c, src);
	free(src);
	free(c);
	return rc;
}
