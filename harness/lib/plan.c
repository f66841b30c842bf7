/*
 * plan.c - a scenario as harness steps.
 *
 * The scenario's timing graph (start, start_after, stop_with) is mapped
 * onto the two shapes of the seed's scripts:
 *   cache-pressure.sh  loopers at once, the driver (fs_mark) `start` later,
 *                      loopers stop with it;
 *   files-in-cache.sh  a setup fs_mark first; then loopers (start_after it)
 *                      and the driver (a streamer, start_after it too).
 * Anything else is refused with the key that does not fit.
 *
 * SIMPLIFIED: a sparse file is written the way `dd seek=` leaves it (a
 * hole and its last MiB of zeros); the model treats it as all hole.
 */
#include "plan.h"

#include <cachepressure/error.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scenario/scenario.h"

#define MIB (1024ULL * 1024ULL)
#define GIB (1024ULL * MIB)
#define FS_MARK_SECS_PER_DIR_NS (180ULL * 1000000000ULL)
#define FS_MARK_NAME_LEN 40

/* path below mount -> relative; -CP_EINVAL when it is not below it. */
static int relative(const struct cp_scenario *sc, const char *what, const char *path, char *out,
		    size_t len, struct cp_diag *diag)
{
	size_t m = strlen(sc->mount);
	const char *rel = path + m;

	while (m > 1 && sc->mount[m - 1] == '/')
		m--;
	rel = path + m;
	if (strncmp(path, sc->mount, m) != 0 || rel[0] != '/' || rel[1] == '\0')
		return cp_diag_set(diag, -CP_EINVAL,
				   "%s: %s: real runs only paths below scenario.mount = %s", what,
				   path, sc->mount);
	rel++;
	if (strstr(rel, "..") || strstr(rel, "//") || rel[strlen(rel) - 1] == '/')
		return cp_diag_set(diag, -CP_EINVAL, "%s: %s: no '..', '//' or trailing '/'", what,
				   path);
	if (strlen(rel) >= len)
		return cp_diag_set(diag, -CP_EINVAL, "%s: %s: relative path longer than %zu bytes",
				   what, path, len - 1);
	strcpy(out, rel);
	return 0;
}

/* Adds every parent directory of rel (and rel itself when is_dir). */
static int add_dirs(struct cp_real_plan *p, const char *rel, bool is_dir, struct cp_diag *diag)
{
	char buf[CP_REAL_NAME_MAX];
	size_t i, n = strlen(rel);

	for (i = 1; i <= n; i++) {
		size_t j;

		if (rel[i] != '/' && !(is_dir && i == n))
			continue;
		memcpy(buf, rel, i);
		buf[i] = '\0';
		for (j = 0; j < p->nr_mkdirs; j++)
			if (strcmp(p->mkdirs[j], buf) == 0)
				break;
		if (j < p->nr_mkdirs)
			continue;
		if (p->nr_mkdirs == CP_REAL_MAX_MKDIRS)
			return cp_diag_set(diag, -CP_EINVAL, "more than %d directories",
					   CP_REAL_MAX_MKDIRS);
		strcpy(p->mkdirs[p->nr_mkdirs++], buf);
	}
	return 0;
}

static int creator_args(const struct cp_scenario *sc, const struct cp_sc_creator *c,
			struct cp_fs_mark_args *a, struct cp_real_plan *p, struct cp_diag *diag)
{
	char what[96];
	size_t i;
	int rc;

	snprintf(what, sizeof(what), "[creator %s] dirs", c->actor.name);
	memset(a, 0, sizeof(*a));
	if (c->dirs.n > CP_FS_MARK_MAX_DIRS)
		return cp_diag_set(diag, -CP_EINVAL, "%s: more than %d directories", what,
				   CP_FS_MARK_MAX_DIRS);
	for (i = 0; i < c->dirs.n; i++) {
		rc = relative(sc, what, c->dirs.v[i], a->dirs[i], sizeof(a->dirs[i]), diag);
		if (!rc)
			rc = add_dirs(p, a->dirs[i], true, diag);
		if (rc)
			return rc;
	}
	a->nr_dirs = c->dirs.n;
	if (c->secs_per_dir_ns != FS_MARK_SECS_PER_DIR_NS && c->subdirs && !c->files_per_subdir)
		return cp_diag_set(diag, -CP_EINVAL,
				   "[creator %s] secs_per_dir: fs_mark 3.3 has it fixed at 180s",
				   c->actor.name);
	if (c->sync > 6)
		return cp_diag_set(diag, -CP_EINVAL, "[creator %s] sync = %" PRIu64 ": fs_mark -S is 0..6",
				   c->actor.name, c->sync);
	a->files_per_loop = c->files_per_loop;
	a->loops = c->loops;
	a->subdirs = c->subdirs;
	a->files_per_subdir = c->files_per_subdir;
	a->sync_method = (int)c->sync;
	a->file_size = c->file_size_bytes;
	a->name_len = c->name_len == FS_MARK_NAME_LEN ? 0 : c->name_len;
	return 0;
}

static int add_looper(const struct cp_scenario *sc, struct cp_real_plan *p,
		      struct cp_real_looper *l, enum cp_real_looper_kind kind, const char *section,
		      const char *path, uint64_t read_size, bool recursive, struct cp_diag *diag)
{
	int rc;

	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->read_size_bytes = read_size;
	l->recursive = recursive;
	if (strlen(path) >= sizeof(l->label))
		return cp_diag_set(diag, -CP_EINVAL, "%s: path too long", section);
	strcpy(l->label, path);
	rc = relative(sc, section, path, l->path, sizeof(l->path), diag);
	if (!rc && kind == CP_REAL_WALKER)
		rc = add_dirs(p, l->path, true, diag);
	(void)p;
	return rc;
}

/* A looper starts with the measured phase: at 0, or right after a setup
 * creator. */
static int check_looper_start(const struct cp_sc_actor *a, const char *type, const char *driver,
			      struct cp_diag *diag)
{
	if (a->start_ns != 0)
		return cp_diag_set(diag, -CP_EINVAL,
				   "[%s %s] start: real starts all readers and walkers together "
				   "(start = 0s)",
				   type, a->name);
	if (!a->stop_with || strcmp(a->stop_with, driver) != 0)
		return cp_diag_set(diag, -CP_EINVAL,
				   "[%s %s] stop_with: real needs every reader and walker to stop "
				   "with the same actor (%s)",
				   type, a->name, driver);
	return 0;
}

int cp_real_plan_from_scenario(const struct cp_scenario *sc, struct cp_real_plan *plan,
			       struct cp_diag *diag)
{
	struct cp_real_plan p;
	const struct cp_sc_actor *drv;
	enum cp_sc_actor_type drv_type;
	const char *driver = NULL;
	size_t i, drv_idx;
	int rc;

	memset(&p, 0, sizeof(p));
	if (strlen(sc->name) >= sizeof(p.scenario))
		return cp_diag_set(diag, -CP_EINVAL, "scenario name too long");
	strcpy(p.scenario, sc->name);
	p.mem_bytes = sc->ram_bytes;
	p.time_limit_ns = sc->time_limit_ns;
	if (cp_fs_parse(sc->fs, &p.fs))
		return cp_diag_set(diag, -CP_EINVAL, "[scenario] fs = %s: real makes xfs or ext4",
				   sc->fs);

	/* The driver: what every looper stops with. */
	if (sc->nr_readers)
		driver = sc->readers[0].actor.stop_with;
	else if (sc->nr_walkers)
		driver = sc->walkers[0].actor.stop_with;
	if (!driver)
		return cp_diag_set(diag, -CP_EINVAL,
				   "real needs readers or walkers that stop with a creator or "
				   "streamer (stop_with)");
	drv = cp_scenario_find_actor(sc, driver, &drv_type, &drv_idx);
	if (!drv || (drv_type != CP_SC_CREATOR && drv_type != CP_SC_STREAMER))
		return cp_diag_set(diag, -CP_EINVAL,
				   "stop_with = %s: real's driver must be a creator or a streamer",
				   driver);
	if (strlen(driver) >= sizeof(p.driver_name))
		return cp_diag_set(diag, -CP_EINVAL, "actor name %s too long", driver);
	strcpy(p.driver_name, driver);

	/* Loopers, in the scenario's (sorted) order: readers, then walkers. */
	if (sc->nr_readers + sc->nr_walkers > CP_REAL_MAX_LOOPERS)
		return cp_diag_set(diag, -CP_EINVAL, "more than %d readers and walkers",
				   CP_REAL_MAX_LOOPERS);
	for (i = 0; i < sc->nr_readers; i++) {
		const struct cp_sc_reader *r = &sc->readers[i];
		char what[96];

		snprintf(what, sizeof(what), "[reader %s]", r->actor.name);
		rc = check_looper_start(&r->actor, "reader", driver, diag);
		if (!rc)
			rc = add_looper(sc, &p, &p.loopers[p.nr_loopers++], CP_REAL_READER, what,
					sc->files[r->file_idx].path, r->read_size_bytes, false, diag);
		if (rc)
			return rc;
	}
	for (i = 0; i < sc->nr_walkers; i++) {
		const struct cp_sc_walker *w = &sc->walkers[i];
		char what[96];

		snprintf(what, sizeof(what), "[walker %s]", w->actor.name);
		rc = check_looper_start(&w->actor, "walker", driver, diag);
		if (!rc)
			rc = add_looper(sc, &p, &p.loopers[p.nr_loopers++], CP_REAL_WALKER, what,
					w->root, 0, w->recursive, diag);
		if (rc)
			return rc;
	}

	/* Setup: every other creator, started at once, run to completion. */
	for (i = 0; i < sc->nr_creators; i++) {
		const struct cp_sc_creator *c = &sc->creators[i];

		if (drv_type == CP_SC_CREATOR && i == drv_idx)
			continue;
		if (c->actor.start_after || c->actor.start_ns)
			return cp_diag_set(diag, -CP_EINVAL,
					   "[creator %s] start: a creator that is not the driver "
					   "runs first, from the start (start = 0s, no start_after)",
					   c->actor.name);
		if (p.nr_setup == CP_REAL_MAX_SETUP)
			return cp_diag_set(diag, -CP_EINVAL, "more than %d setup creators",
					   CP_REAL_MAX_SETUP);
		rc = creator_args(sc, c, &p.setup[p.nr_setup++], &p, diag);
		if (rc)
			return rc;
	}
	for (i = 0; i < sc->nr_streamers; i++)
		if (!(drv_type == CP_SC_STREAMER && i == drv_idx))
			return cp_diag_set(diag, -CP_EINVAL,
					   "[streamer %s]: real runs a streamer only as the driver "
					   "(what the readers or walkers stop with)",
					   sc->streamers[i].actor.name);

	/* Data files. */
	if (sc->nr_files > CP_REAL_MAX_FILES)
		return cp_diag_set(diag, -CP_EINVAL, "more than %d files", CP_REAL_MAX_FILES);
	for (i = 0; i < sc->nr_files; i++) {
		const struct cp_sc_file *f = &sc->files[i];
		char what[96];

		snprintf(what, sizeof(what), "[file %s] path", f->name);
		rc = relative(sc, what, f->path, p.files[i].name, sizeof(p.files[i].name), diag);
		if (!rc)
			rc = add_dirs(&p, p.files[i].name, false, diag);
		if (rc)
			return rc;
		p.files[i].size_bytes = f->size_bytes;
		p.files[i].sparse = f->sparse;
		p.files[i].cached = f->cached;
	}
	p.nr_files = sc->nr_files;

	/* The driver. */
	p.driver_delay_ns = drv->start_ns;
	if (drv->stop_with)
		return cp_diag_set(diag, -CP_EINVAL, "[%s %s] stop_with: the driver ends by itself",
				   cp_sc_actor_type_name(drv_type), driver);
	if (drv_type == CP_SC_CREATOR) {
		p.driver = CP_REAL_DRIVE_FS_MARK;
		rc = creator_args(sc, &sc->creators[drv_idx], &p.fsm, &p, diag);
	} else {
		const struct cp_sc_streamer *s = &sc->streamers[drv_idx];
		char what[96];

		snprintf(what, sizeof(what), "[streamer %s]", s->actor.name);
		p.driver = CP_REAL_DRIVE_STREAM;
		rc = add_looper(sc, &p, &p.stream, CP_REAL_STREAMER, what,
				sc->files[s->file_idx].path, s->read_size_bytes, false, diag);
	}
	if (rc)
		return rc;
	*plan = p;
	return 0;
}

uint64_t cp_real_plan_nr_files(const struct cp_real_plan *p)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->nr_setup; i++)
		n += cp_fs_mark_total_files(&p->setup[i]);
	if (p->driver == CP_REAL_DRIVE_FS_MARK)
		n += cp_fs_mark_total_files(&p->fsm);
	return n;
}

uint64_t cp_real_plan_data_bytes(const struct cp_real_plan *p)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->nr_files; i++)
		n += p->files[i].sparse ? (p->files[i].size_bytes < MIB ? p->files[i].size_bytes : MIB)
					: p->files[i].size_bytes;
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
