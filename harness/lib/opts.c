/*
 * opts.c - option parsing for `real` and `calibrate`: "--opt VALUE" and
 * "--opt=VALUE"; sizes with cp_parse_size(), counts with cp_parse_count().
 */
#include "opts.h"

#include <cachepressure/error.h>
#include <inttypes.h>
#include <string.h>

#include "calib_profile.h"
#include "core/parse.h"

_Static_assert(CP_CALIB_MEAN_MAX <= CP_CALIB_COMBINE_MAX,
	       "calibrate --mean/--median takes what cp_calib_mean combines");

/* Matches argv[*i] against --name; sets *val to the value (next argument
 * or after '='). Returns 1 on match, 0 if not this option, -1 when the
 * value is missing. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

/* -h or --help anywhere: help wins over any error in the other arguments. */
static bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	return false;
}

/* The value of --workdir: an absolute path. */
static int workdir_value(const char *v, const char **workdir, struct cp_diag *diag)
{
	if (v[0] != '/')
		return cp_diag_set(diag, -CP_EINVAL, "--workdir '%s': must be an absolute path", v);
	*workdir = v;
	return 0;
}

/* --kernel, --vm-mem, --vm-cpus, --timeout, --accel and the hidden
 * --guest-disk. Returns 1 when argv[*i] was one of them, 0 if not, -1 on
 * a bad value (diag set). *given names the first lab-only option seen. */
static int lab_option(int argc, char **argv, int *i, struct cp_real_opts *t,
		      const char **given, struct cp_diag *diag)
{
	const char *a = argv[*i], *v = NULL;
	uint64_t n;
	int m;

	if ((m = opt_value(argc, argv, i, "--kernel", &v))) {
		if (m < 0)
			goto missing;
		if (!v[0]) {
			cp_diag_set(diag, -CP_EINVAL, "--kernel: empty file name");
			return -1;
		}
		t->lab.kernel = v;
	} else if ((m = opt_value(argc, argv, i, "--vm-mem", &v))) {
		if (m < 0)
			goto missing;
		if (cp_parse_size(v, &t->lab.vm_mem_bytes) || t->lab.vm_mem_bytes == 0) {
			cp_diag_set(diag, -CP_EINVAL, "--vm-mem '%s': not a size (e.g. 512M, 1.25G)",
				    v);
			return -1;
		}
		*given = *given ? *given : "--vm-mem";
	} else if ((m = opt_value(argc, argv, i, "--vm-cpus", &v))) {
		if (m < 0)
			goto missing;
		if (cp_parse_count(v, &n) || n < 1 || n > 64) {
			cp_diag_set(diag, -CP_EINVAL, "--vm-cpus '%s': must be a count from 1 to 64",
				    v);
			return -1;
		}
		t->lab.vm_cpus = (unsigned)n;
		*given = *given ? *given : "--vm-cpus";
	} else if ((m = opt_value(argc, argv, i, "--timeout", &v))) {
		if (m < 0)
			goto missing;
		if (cp_parse_duration(v, &t->lab.timeout_ns) || t->lab.timeout_ns == 0) {
			cp_diag_set(diag, -CP_EINVAL,
				    "--timeout '%s': not a duration (e.g. 90s, 15m)", v);
			return -1;
		}
		*given = *given ? *given : "--timeout";
	} else if ((m = opt_value(argc, argv, i, "--accel", &v))) {
		if (m < 0)
			goto missing;
		if (strcmp(v, "auto") == 0)
			t->lab.accel = CP_LAB_ACCEL_AUTO;
		else if (strcmp(v, "kvm") == 0)
			t->lab.accel = CP_LAB_ACCEL_KVM;
		else if (strcmp(v, "tcg") == 0)
			t->lab.accel = CP_LAB_ACCEL_TCG;
		else {
			cp_diag_set(diag, -CP_EINVAL, "--accel '%s': must be auto, kvm or tcg", v);
			return -1;
		}
		*given = *given ? *given : "--accel";
	} else if ((m = opt_value(argc, argv, i, "--guest-disk", &v))) {
		if (m < 0)
			goto missing;
		if (strncmp(v, "/dev/", 5) != 0) {
			cp_diag_set(diag, -CP_EINVAL, "--guest-disk '%s': not a /dev path", v);
			return -1;
		}
		t->guest_disk = v;
	}
	return m;
missing:
	cp_diag_set(diag, -CP_EINVAL, "option '%s' needs a value", a);
	return -1;
}

int cp_real_opts_parse(int argc, char **argv, struct cp_real_opts *o, struct cp_diag *diag)
{
	struct cp_real_opts t;
	bool have_mem = false;
	const char *lab_given = NULL;
	int i;

	memset(&t, 0, sizeof(t));
	t.confine = CP_CONFINE_GLOBAL;
	t.fs = CP_FS_XFS;
	t.workdir = CP_REAL_DEFAULT_WORKDIR;
	t.repeat = 1;
	t.lab.vm_cpus = CP_LAB_DEFAULT_VM_CPUS;
	if (wants_help(argc, argv))
		return 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		int m;

		if ((m = lab_option(argc, argv, &i, &t, &lab_given, diag))) {
			if (m < 0)
				return -CP_EINVAL;
		} else if ((m = opt_value(argc, argv, &i, "--mem", &v))) {
			if (m < 0)
				goto missing;
			if (cp_parse_size(v, &t.mem_bytes) || t.mem_bytes == 0)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--mem '%s': not a size (e.g. 256M, 1G, 1.5G)", v);
			t.mem_arg = v;
			have_mem = true;
		} else if ((m = opt_value(argc, argv, &i, "--set", &v))) {
			if (m < 0)
				goto missing;
			if (t.nr_sets == CP_REAL_MAX_SETS)
				return cp_diag_set(diag, -CP_EINVAL, "more than %d --set options",
						   CP_REAL_MAX_SETS);
			t.sets[t.nr_sets++] = v;
		} else if ((m = opt_value(argc, argv, &i, "--confine", &v))) {
			if (m < 0)
				goto missing;
			if (cp_confine_parse(v, &t.confine))
				return cp_diag_set(diag, -CP_EINVAL,
						   "--confine '%s': must be global or memcg", v);
		} else if ((m = opt_value(argc, argv, &i, "--fs", &v))) {
			if (m < 0)
				goto missing;
			if (cp_fs_parse(v, &t.fs))
				return cp_diag_set(diag, -CP_EINVAL, "--fs '%s': must be xfs or ext4",
						   v);
			t.fs_given = true;
		} else if ((m = opt_value(argc, argv, &i, "--workdir", &v))) {
			if (m < 0)
				goto missing;
			if (workdir_value(v, &t.workdir, diag))
				return -CP_EINVAL;
		} else if ((m = opt_value(argc, argv, &i, "--repeat", &v))) {
			uint64_t n;

			if (m < 0)
				goto missing;
			if (cp_parse_count(v, &n) || n < 1 || n > CP_REAL_MAX_REPEAT)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--repeat '%s': must be a count from 1 to %d", v,
						   CP_REAL_MAX_REPEAT);
			t.repeat = (unsigned)n;
		} else if ((m = opt_value(argc, argv, &i, "--json", &v))) {
			if (m < 0)
				goto missing;
			if (!v[0])
				return cp_diag_set(diag, -CP_EINVAL, "--json: empty file name");
			t.json = v;
		} else if (strcmp(a, "--keep") == 0) {
			t.keep = true;
		} else if (a[0] == '-' && a[1] != '\0') {
			return cp_diag_set(diag, -CP_EINVAL, "unknown option '%s'", a);
		} else if (!t.scenario) {
			t.scenario = a;
		} else {
			return cp_diag_set(diag, -CP_EINVAL, "one SCENARIO only (got '%s' and '%s')",
					   t.scenario, a);
		}
		continue;
missing:
		return cp_diag_set(diag, -CP_EINVAL, "option '%s' needs a value", a);
	}
	if (!t.scenario)
		return cp_diag_set(diag, -CP_EINVAL,
				   "missing SCENARIO (a built-in such as seed or files-in-cache, or "
				   "a file)");
	if (!have_mem)
		return cp_diag_set(diag, -CP_EINVAL,
				   "missing --mem SIZE (the memory the scenario is scaled to)");
	if (lab_given && !t.lab.kernel)
		return cp_diag_set(diag, -CP_EINVAL, "%s needs --kernel BZIMAGE", lab_given);
	if (t.lab.kernel && t.guest_disk)
		return cp_diag_set(diag, -CP_EINVAL, "--kernel inside a lab guest");
	if (t.lab.kernel) {
		if (!t.lab.vm_mem_bytes)
			t.lab.vm_mem_bytes = t.mem_bytes + CP_LAB_VM_EXTRA_BYTES;
		else if (t.lab.vm_mem_bytes < t.mem_bytes + CP_LAB_VM_MIN_EXTRA_BYTES)
			return cp_diag_set(diag, -CP_EINVAL,
					   "--vm-mem %" PRIu64 " MiB is too small for --mem %" PRIu64
					   " MiB: the guest needs at least --mem + %llu MiB (kernel, "
					   "initramfs, harness)",
					   t.lab.vm_mem_bytes >> 20, t.mem_bytes >> 20,
					   (unsigned long long)(CP_LAB_VM_MIN_EXTRA_BYTES >> 20));
	}
	*o = t;
	return 0;
}

int cp_calibrate_opts_parse(int argc, char **argv, struct cp_calibrate_opts *o,
			    struct cp_diag *diag)
{
	struct cp_calibrate_opts t;
	int i;

	struct cp_real_opts lab; /* lab_option() fills its lab and guest_disk */
	const char *lab_given = NULL;
	const char *measure_opt = NULL; /* the last option that shapes a measurement */

	memset(&t, 0, sizeof(t));
	memset(&lab, 0, sizeof(lab));
	t.workdir = CP_REAL_DEFAULT_WORKDIR;
	t.name = "calibrated";
	t.file_bytes = CP_CALIB_DEFAULT_FILE_BYTES;
	t.nr_files = CP_CALIB_DEFAULT_FILES;
	if (wants_help(argc, argv))
		return 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		int m;

		if ((m = lab_option(argc, argv, &i, &lab, &lab_given, diag))) {
			if (m < 0)
				return -CP_EINVAL;
		} else if ((m = opt_value(argc, argv, &i, "--file-size", &v))) {
			if (m < 0)
				goto missing;
			measure_opt = "--file-size";
			if (cp_parse_size(v, &t.file_bytes) || t.file_bytes < CP_CALIB_MIN_FILE_BYTES ||
			    t.file_bytes % (1ULL << 20))
				return cp_diag_set(diag, -CP_EINVAL,
						   "--file-size '%s': must be a whole number of MiB, "
						   "at least %lluM (e.g. 256M, 1G)",
						   v, (unsigned long long)(CP_CALIB_MIN_FILE_BYTES >> 20));
		} else if ((m = opt_value(argc, argv, &i, "--files", &v))) {
			if (m < 0)
				goto missing;
			measure_opt = "--files";
			if (cp_parse_count(v, &t.nr_files) || t.nr_files < 1 ||
			    t.nr_files > CP_CALIB_MAX_FILES)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--files '%s': must be a count from 1 to %d", v,
						   CP_CALIB_MAX_FILES);
		} else if ((m = opt_value(argc, argv, &i, "--workdir", &v))) {
			if (m < 0)
				goto missing;
			measure_opt = "--workdir";
			if (workdir_value(v, &t.workdir, diag))
				return -CP_EINVAL;
		} else if ((m = opt_value(argc, argv, &i, "--output", &v)) ||
			   (m = opt_value(argc, argv, &i, "-o", &v))) {
			if (m < 0)
				goto missing;
			t.output = v;
		} else if ((m = opt_value(argc, argv, &i, "--from", &v))) {
			if (m < 0)
				goto missing;
			t.from = v; /* with --mean too: where the unmeasured keys come from */
		} else if ((m = opt_value(argc, argv, &i, "--mean", &v)) ||
			   (m = opt_value(argc, argv, &i, "--median", &v))) {
			bool median = strcmp(a, "--median") == 0 || strncmp(a, "--median=", 9) == 0;

			if (m < 0)
				goto missing;
			if (t.nr_mean && median != t.median)
				return cp_diag_set(diag, -CP_EINVAL, "--mean and --median do not go "
						   "together: give the profiles with one of them");
			t.median = median;
			if (t.nr_mean == CP_CALIB_MEAN_MAX)
				return cp_diag_set(diag, -CP_EINVAL, "%s given more than %d times",
						   median ? "--median" : "--mean", CP_CALIB_MEAN_MAX);
			t.mean[t.nr_mean++] = v;
		} else if ((m = opt_value(argc, argv, &i, "--name", &v))) {
			if (m < 0)
				goto missing;
			if (!v[0] || strpbrk(v, " \t\n;#[]="))
				return cp_diag_set(diag, -CP_EINVAL,
						   "--name '%s': one word without ;#[]=", v);
			t.name = v;
		} else {
			return cp_diag_set(diag, -CP_EINVAL, "unknown argument '%s'", a);
		}
		continue;
missing:
		return cp_diag_set(diag, -CP_EINVAL, "option '%s' needs a value", a);
	}
	if (t.nr_mean) {
		/* averaging measures nothing: no option that shapes a measurement */
		const char *measuring = lab.lab.kernel ? "--kernel"
				      : lab.guest_disk ? "--guest-disk"
				      : lab_given	 ? lab_given
							 : measure_opt;

		const char *opt = t.median ? "--median" : "--mean";

		if (measuring)
			return cp_diag_set(diag, -CP_EINVAL, "%s combines profiles already "
					   "measured: %s does not go with it", opt, measuring);
		if (t.nr_mean < 2)
			return cp_diag_set(diag, -CP_EINVAL, "%s needs two profiles or more "
					   "(%s A.ini %s B.ini)", opt, opt, opt);
	}
	if (lab_given && !lab.lab.kernel)
		return cp_diag_set(diag, -CP_EINVAL, "%s needs --kernel BZIMAGE", lab_given);
	if (lab.lab.kernel && lab.guest_disk)
		return cp_diag_set(diag, -CP_EINVAL, "--kernel inside a lab guest");
	t.lab = lab.lab;
	t.guest_disk = lab.guest_disk;
	if (t.lab.kernel) {
		if (!t.lab.vm_mem_bytes)
			t.lab.vm_mem_bytes = CP_CALIB_LAB_DEFAULT_VM_MEM;
		if (t.lab.vm_mem_bytes < t.file_bytes + CP_LAB_VM_MIN_EXTRA_BYTES)
			return cp_diag_set(diag, -CP_EINVAL,
					   "--vm-mem %" PRIu64 " MiB is too small for --file-size %" PRIu64
					   " MiB: the file must stay in the guest's page cache; needs at "
					   "least --file-size + %llu MiB",
					   t.lab.vm_mem_bytes >> 20, t.file_bytes >> 20,
					   (unsigned long long)(CP_LAB_VM_MIN_EXTRA_BYTES >> 20));
		if (!t.lab.vm_cpus)
			t.lab.vm_cpus = CP_LAB_DEFAULT_VM_CPUS;
	}
	*o = t;
	return 0;
}

/* ---- real compare ------------------------------------------------------------- */

/* NAME=PATH of --kernel into k. */
static int kernel_value(const char *v, struct cp_compare_kernel *k, struct cp_diag *diag)
{
	const char *eq = strchr(v, '=');
	size_t n, i;

	if (!eq)
		return cp_diag_set(diag, -CP_EINVAL,
				   "--kernel '%s': must be NAME=BZIMAGE (e.g. stock=/var/tmp/"
				   "cp-kernel-stock/bzImage)", v);
	n = (size_t)(eq - v);
	if (n == 0)
		return cp_diag_set(diag, -CP_EINVAL, "--kernel '%s': empty NAME before '='", v);
	if (n >= CP_COMPARE_NAME_MAX)
		return cp_diag_set(diag, -CP_EINVAL, "--kernel '%s': NAME longer than %d characters",
				   v, CP_COMPARE_NAME_MAX - 1);
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    v[i]))
			return cp_diag_set(diag, -CP_EINVAL,
					   "--kernel '%s': NAME may hold only letters, digits, '.', "
					   "'_' and '-'", v);
	if (!eq[1])
		return cp_diag_set(diag, -CP_EINVAL, "--kernel '%s': empty BZIMAGE after '='", v);
	memcpy(k->name, v, n);
	k->name[n] = '\0';
	k->image = eq + 1;
	return 0;
}

int cp_real_compare_opts_parse(int argc, char **argv, struct cp_real_compare_opts *o,
			       struct cp_diag *diag)
{
	struct cp_real_compare_opts t;
	unsigned nr_kernels = 0;
	bool have_repeat = false;
	int i;

	memset(&t, 0, sizeof(t));
	t.real.confine = CP_CONFINE_GLOBAL;
	t.real.fs = CP_FS_XFS;
	t.real.workdir = CP_REAL_DEFAULT_WORKDIR;
	if (wants_help(argc, argv))
		return 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		uint64_t n;
		int m;

		if ((m = opt_value(argc, argv, &i, "--kernel", &v))) {
			struct cp_compare_kernel k;

			if (m < 0)
				goto missing;
			if (kernel_value(v, &k, diag))
				return -CP_EINVAL;
			if (nr_kernels == 2)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--kernel '%s': a third kernel; compare takes exactly "
						   "two (A and B)", v);
			if (nr_kernels == 1 && strcmp(t.kernels[0].name, k.name) == 0)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--kernel '%s': the name '%s' is already A's; give "
						   "the two kernels different names", v, k.name);
			t.kernels[nr_kernels++] = k;
		} else if ((m = opt_value(argc, argv, &i, "--repeat", &v))) {
			if (m < 0)
				goto missing;
			if (cp_parse_count(v, &n) || n < 2 || n > CP_REAL_MAX_REPEAT)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--repeat '%s': must be a count from 2 to %d (the "
						   "test needs at least 2 runs of each kernel)", v,
						   CP_REAL_MAX_REPEAT);
			t.real.repeat = (unsigned)n;
			have_repeat = true;
		} else if ((m = opt_value(argc, argv, &i, "--mem", &v))) {
			if (m < 0)
				goto missing;
			if (cp_parse_size(v, &t.real.mem_bytes) || t.real.mem_bytes == 0)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--mem '%s': not a size (e.g. 256M, 1G, 1.5G)", v);
			t.real.mem_arg = v;
		} else if ((m = opt_value(argc, argv, &i, "--vm-mem", &v))) {
			if (m < 0)
				goto missing;
			if (cp_parse_size(v, &t.vm_mem_bytes) || t.vm_mem_bytes == 0)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--vm-mem '%s': not a size (e.g. 1280M, 2G)", v);
		} else if ((m = opt_value(argc, argv, &i, "--vm-cpus", &v))) {
			if (m < 0)
				goto missing;
			if (cp_parse_count(v, &n) || n < 1 || n > CP_COMPARE_MAX_VM_CPUS)
				return cp_diag_set(diag, -CP_EINVAL,
						   "--vm-cpus '%s': must be a count from 1 to %d", v,
						   CP_COMPARE_MAX_VM_CPUS);
			t.vm_cpus = (unsigned)n;
		} else if ((m = opt_value(argc, argv, &i, "--confine", &v))) {
			if (m < 0)
				goto missing;
			if (cp_confine_parse(v, &t.real.confine))
				return cp_diag_set(diag, -CP_EINVAL,
						   "--confine '%s': must be global or memcg", v);
		} else if ((m = opt_value(argc, argv, &i, "--json", &v))) {
			if (m < 0)
				goto missing;
			if (!v[0])
				return cp_diag_set(diag, -CP_EINVAL, "--json: empty file name");
			t.real.json = v;
		} else if ((m = opt_value(argc, argv, &i, "--set", &v))) {
			if (m < 0)
				goto missing;
			if (t.real.nr_sets == CP_REAL_MAX_SETS)
				return cp_diag_set(diag, -CP_EINVAL, "more than %d --set options",
						   CP_REAL_MAX_SETS);
			t.real.sets[t.real.nr_sets++] = v;
		} else if (a[0] == '-' && a[1] != '\0') {
			return cp_diag_set(diag, -CP_EINVAL, "unknown option '%s'", a);
		} else if (!t.real.scenario) {
			t.real.scenario = a;
		} else {
			return cp_diag_set(diag, -CP_EINVAL, "one SCENARIO only (got '%s' and '%s')",
					   t.real.scenario, a);
		}
		continue;
missing:
		return cp_diag_set(diag, -CP_EINVAL, "option '%s' needs a value", a);
	}
	if (!t.real.scenario)
		return cp_diag_set(diag, -CP_EINVAL,
				   "missing SCENARIO (a built-in such as seed or files-in-cache, or "
				   "a file)");
	if (nr_kernels < 2)
		return cp_diag_set(diag, -CP_EINVAL,
				   "--kernel: compare needs two, NAME=BZIMAGE each (got %u)",
				   nr_kernels);
	if (!have_repeat)
		return cp_diag_set(diag, -CP_EINVAL,
				   "missing --repeat N (runs of each kernel, at least 2)");
	*o = t;
	return 0;
}
