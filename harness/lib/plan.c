/*
 * plan.c - the scenarios of the seed's scripts as harness steps, scaled.
 *
 * seed:           cache-pressure.sh of josefbacik/debug-scripts: on a
 *                 16 GiB box, two 6500 MiB files written with dd, two
 *                 read-file loops, after 5 s `fs_mark -D 5000 -S0 -n 100000
 *                 -s 0 -L 20 -d 0 -d 1`, readers stopped when it ends.
 * files-in-cache: files-in-cache.sh: `fs_mark -n 1000000 -L 1 -s0` in
 *                 three directories (no -S: fs_mark's default fsync per
 *                 file), a 100000 MiB hole with one MiB written after it
 *                 (dd seek=100000 count=1), three read-dir walkers, and
 *                 the file streamed once (cat) while they walk.
 *
 * SIMPLIFIED: the table stands in for the scenario files until the
 * scenario module lands; cp_real_plan_build() is the one function to
 * switch over.
 */
#include "plan.h"

#include <cachepressure/error.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIB (1024ULL * 1024ULL)
#define GIB (1024ULL * MIB)

static const struct cp_real_plan builtin[] = {
	{
		.scenario = "seed",
		.scenario_ram_bytes = 16 * GIB,
		.nr_mkdirs = 3,
		.mkdirs = { "0", "1", "reads" },
		.nr_files = 2,
		.files = { { "reads/file1", 6500 * MIB, false }, { "reads/file2", 6500 * MIB, false } },
		.nr_loopers = 2,
		.loopers = { { CP_REAL_READER, "reads/file1" }, { CP_REAL_READER, "reads/file2" } },
		.driver_delay_ns = 5000000000ULL,
		.driver = CP_REAL_DRIVE_FS_MARK,
		.fsm = { .nr_dirs = 2, .dirs = { "0", "1" }, .files_per_loop = 100000, .loops = 20,
			 .subdirs = 5000, .sync_method = 0, .file_size = 0 },
	},
	{
		.scenario = "files-in-cache",
		.scenario_ram_bytes = 16 * GIB,
		.nr_mkdirs = 4,
		.mkdirs = { "0", "1", "2", "reads" },
		.setup_fs_mark = true,
		.setup_fsm = { .nr_dirs = 3, .dirs = { "0", "1", "2" }, .files_per_loop = 1000000,
			       .loops = 1, .subdirs = 0, .sync_method = -1, .file_size = 0 },
		.nr_files = 1,
		.files = { { "reads/file1", 100001 * MIB, true } },
		.nr_loopers = 3,
		.loopers = { { CP_REAL_WALKER, "0" }, { CP_REAL_WALKER, "1" }, { CP_REAL_WALKER, "2" } },
		.driver_delay_ns = 0,
		.driver = CP_REAL_DRIVE_STREAM,
		.stream_path = "reads/file1",
	},
};

static const char *const names[] = { "seed", "files-in-cache", NULL };

const char *const *cp_real_plan_names(void)
{
	return names;
}

uint64_t cp_real_scale(uint64_t value, uint64_t num, uint64_t den)
{
	long double v = (long double)value * (long double)num / (long double)den;

	return (uint64_t)llroundl(v);
}

static uint64_t scale_size(uint64_t bytes, uint64_t num, uint64_t den)
{
	return (cp_real_scale(bytes, num, den) / 4096) * 4096;
}

static uint64_t scale_count(uint64_t n, uint64_t num, uint64_t den)
{
	uint64_t v = cp_real_scale(n, num, den);

	return v ? v : 1;
}

int cp_real_plan_build(const char *scenario, uint64_t mem_bytes, struct cp_real_plan *plan,
		       struct cp_diag *diag)
{
	const struct cp_real_plan *t = NULL;
	struct cp_real_plan p;
	size_t i;

	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (strcmp(builtin[i].scenario, scenario) == 0)
			t = &builtin[i];
	if (!t)
		return cp_diag_set(diag, -CP_ENOENT,
				   "unknown scenario '%s' (the real harness knows: seed, "
				   "files-in-cache)",
				   scenario);
	if (mem_bytes < 64 * MIB)
		return cp_diag_set(diag, -CP_EINVAL,
				   "--mem %llu bytes is too small (at least 64M)",
				   (unsigned long long)mem_bytes);
	p = *t;
	p.mem_bytes = mem_bytes;
	for (i = 0; i < p.nr_files; i++) {
		struct cp_real_file *f = &p.files[i];

		if (f->sparse) /* scale the hole, keep the written MiB */
			f->size_bytes = scale_size(f->size_bytes - MIB, mem_bytes,
						   p.scenario_ram_bytes) + MIB;
		else
			f->size_bytes = scale_size(f->size_bytes, mem_bytes, p.scenario_ram_bytes);
		if (f->size_bytes == 0)
			f->size_bytes = 4096;
	}
	if (p.setup_fs_mark)
		p.setup_fsm.files_per_loop =
			scale_count(p.setup_fsm.files_per_loop, mem_bytes, p.scenario_ram_bytes);
	if (p.driver == CP_REAL_DRIVE_FS_MARK)
		p.fsm.files_per_loop =
			scale_count(p.fsm.files_per_loop, mem_bytes, p.scenario_ram_bytes);
	*plan = p;
	return 0;
}

uint64_t cp_real_plan_nr_files(const struct cp_real_plan *p)
{
	uint64_t n = 0;

	if (p->setup_fs_mark)
		n += cp_fs_mark_total_files(&p->setup_fsm);
	if (p->driver == CP_REAL_DRIVE_FS_MARK)
		n += cp_fs_mark_total_files(&p->fsm);
	return n;
}

uint64_t cp_real_plan_data_bytes(const struct cp_real_plan *p)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->nr_files; i++)
		n += p->files[i].sparse ? MIB : p->files[i].size_bytes;
	return n;
}

uint64_t cp_real_plan_image_bytes(const struct cp_real_plan *p)
{
	uint64_t need = cp_real_plan_data_bytes(p) + cp_real_plan_nr_files(p) * 2048 + GIB;
	uint64_t bytes = (2 * need + GIB - 1) / GIB * GIB;

	return bytes < 4 * GIB ? 4 * GIB : bytes;
}

uint64_t cp_real_plan_disk_bytes(const struct cp_real_plan *p)
{
	return cp_real_plan_data_bytes(p) + cp_real_plan_nr_files(p) * 1024 + 256 * MIB;
}
