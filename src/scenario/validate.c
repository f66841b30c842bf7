/*
 * validate.c - the rules a scenario must satisfy beyond each value's own
 * syntax: references between sections, paths below the mount point,
 * fs_mark's own argument checks, and that the run ends.
 *
 * Ending: a creator (fs_mark) and a streamer (cat) end by themselves; a
 * reader (read-file) or walker (read-dir) loops until it is signalled,
 * which the seed's scripts do when another program ends (stop_with), or
 * until scenario.time_limit. The start_after/stop_with references form
 * a graph that must not have a cycle.
 */
#include "scenario/validate.h"

#include <cachepressure/error.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "model/profile.h"
#include "scenario/schema.h"

/* fs_mark.h MAX_THREADS: at most 64 directories (one worker each). */
#define FS_MARK_MAX_DIRS 64

struct vctx {
	const struct cp_scenario *sc;
	const char *set_arg;
	struct cp_diag *diag;
};

static int vfail(const struct vctx *v, enum cp_sc_type_id t, const void *elem, const char *key,
		 const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* "[--set ARG: ]SOURCE[:LINE]: [SECTION][ KEY = VALUE]: reason" */
static int vfail(const struct vctx *v, enum cp_sc_type_id t, const void *elem, const char *key,
		 const char *fmt, ...)
{
	char where[160], label[96], value[256], reason[256];
	const struct cp_sc_origin *o = NULL;
	unsigned line = 0;
	int ki = -1;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	label[0] = value[0] = '\0';
	if (elem) {
		o = cp_sc_elem_origin(t, (void *)elem);
		line = o->line;
		if (t == CP_ST_SCENARIO)
			snprintf(label, sizeof(label), "[scenario]");
		else
			snprintf(label, sizeof(label), "[%s %s]", cp_sc_types[t].name,
				 cp_sc_elem_name(t, elem));
		if (key)
			ki = cp_sc_key_find(t, key);
		if (ki >= 0) {
			if (o->key_line[ki])
				line = o->key_line[ki];
			cp_sc_val_format(&cp_sc_types[t].keys[ki], elem, value, sizeof(value));
		}
	}
	if (line)
		snprintf(where, sizeof(where), "%s:%u", v->sc->source, line);
	else
		snprintf(where, sizeof(where), "%s", v->sc->source);
	if (ki >= 0)
		return cp_diag_set(v->diag, -CP_EINVAL, "%s%s%s%s: %s %s = %s: %s",
				   v->set_arg ? "--set " : "", v->set_arg ? v->set_arg : "",
				   v->set_arg ? ": " : "", where, label, key, value, reason);
	return cp_diag_set(v->diag, -CP_EINVAL, "%s%s%s%s%s%s: %s", v->set_arg ? "--set " : "",
			   v->set_arg ? v->set_arg : "", v->set_arg ? ": " : "", where,
			   label[0] ? ": " : "", label, reason);
}

/* path is mount itself (when allowed) or lies below it. */
static bool below_mount(const char *path, const char *mount, bool allow_equal)
{
	size_t n = strlen(mount);

	if (strcmp(mount, "/") == 0)
		return allow_equal || strcmp(path, "/") != 0;
	if (strncmp(path, mount, n) != 0)
		return false;
	return path[n] == '/' || (allow_equal && path[n] == '\0');
}

static int find_file(const struct cp_scenario *sc, const char *name)
{
	size_t i;

	for (i = 0; i < sc->nr_files; i++)
		if (strcmp(sc->files[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* All actors, in type order then name order, for the graph checks. */
struct actor_ref {
	enum cp_sc_type_id type;
	const void *elem;
	const struct cp_sc_actor *act;
	int start_after, stop_with; /* indexes into the same array, -1 = none */
	int color;                  /* DFS: 0 new, 1 on stack, 2 done */
};

static int actor_index(const struct actor_ref *a, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(a[i].act->name, name) == 0)
			return (int)i;
	return -1;
}

static bool ends_by_itself(const struct actor_ref *a, int i)
{
	/* no cycles here (checked first), so the chain is finite */
	while (i >= 0) {
		if (a[i].type == CP_ST_CREATOR || a[i].type == CP_ST_STREAMER)
			return true;
		i = a[i].stop_with;
	}
	return false;
}

static int dfs(const struct vctx *v, struct actor_ref *a, int i)
{
	int next[2], j, rc;

	a[i].color = 1;
	next[0] = a[i].start_after;
	next[1] = a[i].stop_with;
	for (j = 0; j < 2; j++) {
		int n = next[j];

		if (n < 0)
			continue;
		if (a[n].color == 1)
			return vfail(v, a[i].type, a[i].elem, j ? "stop_with" : "start_after",
				     "start_after/stop_with form a cycle through [%s %s]",
				     cp_sc_types[a[n].type].name, a[n].act->name);
		if (a[n].color == 0 && (rc = dfs(v, a, n)) != 0)
			return rc;
	}
	a[i].color = 2;
	return 0;
}

static int check_actors(const struct vctx *v)
{
	static const enum cp_sc_type_id types[] = { CP_ST_READER, CP_ST_CREATOR, CP_ST_WALKER,
						    CP_ST_STREAMER };
	const struct cp_scenario *sc = v->sc;
	struct actor_ref *a;
	size_t n = sc->nr_readers + sc->nr_creators + sc->nr_walkers + sc->nr_streamers;
	size_t i, k, nr = 0;
	int rc = 0;

	if (n == 0)
		return vfail(v, CP_ST_SCENARIO, sc, NULL,
			     "no actors: add a [reader], [creator], [walker] or [streamer] section");
	a = cp_calloc(n, sizeof(*a));
	if (!a)
		return cp_diag_set(v->diag, -CP_ENOMEM, "%s: out of memory", sc->source);
	for (k = 0; k < sizeof(types) / sizeof(types[0]); k++)
		for (i = 0; i < cp_sc_count(sc, types[k]); i++) {
			const void *elem = cp_sc_elem(sc, types[k], i);
			int dup = actor_index(a, nr, ((const struct cp_sc_actor *)elem)->name);

			a[nr].type = types[k];
			a[nr].elem = elem;
			a[nr].act = elem;
			if (dup >= 0) {
				rc = vfail(v, types[k], elem, NULL, "actor name already used by "
					   "[%s %s]; actors need distinct names",
					   cp_sc_types[a[dup].type].name, a[dup].act->name);
				goto out;
			}
			nr++;
		}
	for (i = 0; i < nr; i++) {
		const char *refs[2] = { a[i].act->start_after, a[i].act->stop_with };
		const char *keys[2] = { "start_after", "stop_with" };
		int *dst[2] = { &a[i].start_after, &a[i].stop_with };

		for (k = 0; k < 2; k++) {
			*dst[k] = -1;
			if (!refs[k])
				continue;
			*dst[k] = actor_index(a, nr, refs[k]);
			if (*dst[k] < 0) {
				rc = vfail(v, a[i].type, a[i].elem, keys[k],
					   "no actor named '%s' in the scenario", refs[k]);
				goto out;
			}
			if (*dst[k] == (int)i) {
				rc = vfail(v, a[i].type, a[i].elem, keys[k],
					   "an actor cannot refer to itself");
				goto out;
			}
		}
	}
	for (i = 0; i < nr; i++)
		if (a[i].color == 0 && (rc = dfs(v, a, (int)i)) != 0)
			goto out;
	for (i = 0; i < nr; i++) {
		if (a[i].start_after >= 0 && !ends_by_itself(a, a[i].start_after)) {
			rc = vfail(v, a[i].type, a[i].elem, "start_after",
				   "'%s' never ends by itself, so this actor would never start "
				   "(give it a stop_with)", a[i].act->start_after);
			goto out;
		}
		if (!ends_by_itself(a, (int)i) && sc->time_limit_ns == 0) {
			rc = vfail(v, a[i].type, a[i].elem, NULL,
				   "never stops: a %s loops until signalled; set stop_with to an "
				   "actor that ends (a creator or streamer) or set scenario.time_limit",
				   cp_sc_types[a[i].type].name);
			goto out;
		}
	}
out:
	cp_free(a);
	return rc;
}

static int validate(const struct vctx *v)
{
	const struct cp_scenario *sc = v->sc;
	size_t i, j;

	if (sc->kernel && !cp_kernel_profile_find(sc->kernel)) {
		char known[160];
		size_t used = 0;

		known[0] = '\0';
		for (i = 0; cp_kernel_profiles[i] && used < sizeof(known); i++)
			used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
						 i ? ", " : "", cp_kernel_profiles[i]->name);
		return vfail(v, CP_ST_SCENARIO, sc, "kernel", "unknown kernel profile (known: %s)",
			     known);
	}
	for (i = 0; i < sc->nr_files; i++) {
		const struct cp_sc_file *f = &sc->files[i];

		if (!below_mount(f->path, sc->mount, false))
			return vfail(v, CP_ST_FILE, f, "path", "not below scenario.mount = %s",
				     sc->mount);
		for (j = 0; j < i; j++)
			if (strcmp(sc->files[j].path, f->path) == 0)
				return vfail(v, CP_ST_FILE, f, "path", "same path as [file %s]",
					     sc->files[j].name);
		if (f->size_bytes == 0)
			return vfail(v, CP_ST_FILE, f, "size", "must not be 0");
	}
	for (i = 0; i < sc->nr_readers; i++)
		if (find_file(sc, sc->readers[i].file) < 0)
			return vfail(v, CP_ST_READER, &sc->readers[i], "file",
				     "no [file %s] in the scenario", sc->readers[i].file);
	for (i = 0; i < sc->nr_streamers; i++)
		if (find_file(sc, sc->streamers[i].file) < 0)
			return vfail(v, CP_ST_STREAMER, &sc->streamers[i], "file",
				     "no [file %s] in the scenario", sc->streamers[i].file);
	for (i = 0; i < sc->nr_creators; i++) {
		const struct cp_sc_creator *c = &sc->creators[i];

		if (c->dirs.n > FS_MARK_MAX_DIRS)
			return vfail(v, CP_ST_CREATOR, c, "dirs",
				     "%zu directories; fs_mark allows at most %d", c->dirs.n,
				     FS_MARK_MAX_DIRS);
		for (j = 0; j < c->dirs.n; j++)
			if (!below_mount(c->dirs.v[j], sc->mount, false))
				return vfail(v, CP_ST_CREATOR, c, "dirs",
					     "'%s' is not below scenario.mount = %s", c->dirs.v[j],
					     sc->mount);
		if (c->subdirs == 1)
			return vfail(v, CP_ST_CREATOR, c, "subdirs",
				     "fs_mark -D needs at least 2 subdirectories (or 0 for none)");
		if (c->files_per_subdir && !c->subdirs)
			return vfail(v, CP_ST_CREATOR, c, "files_per_subdir",
				     "fs_mark -N needs -D: set subdirs to 2 or more");
	}
	for (i = 0; i < sc->nr_walkers; i++)
		if (!below_mount(sc->walkers[i].root, sc->mount, true))
			return vfail(v, CP_ST_WALKER, &sc->walkers[i], "root",
				     "not below scenario.mount = %s", sc->mount);
	return check_actors(v);
}

int cp_scenario_validate(const struct cp_scenario *sc, struct cp_diag *diag)
{
	struct vctx v = { sc, NULL, diag };

	return validate(&v);
}

int cp_sc_validate_and_resolve(struct cp_scenario *sc, const char *set_arg,
			       struct cp_diag *diag)
{
	struct vctx v = { sc, set_arg, diag };
	size_t i;
	int rc = validate(&v);

	if (rc)
		return rc;
	for (i = 0; i < sc->nr_readers; i++)
		sc->readers[i].file_idx = (size_t)find_file(sc, sc->readers[i].file);
	for (i = 0; i < sc->nr_streamers; i++)
		sc->streamers[i].file_idx = (size_t)find_file(sc, sc->streamers[i].file);
	return 0;
}

bool cp_scenario_check(const struct cp_scenario *sc)
{
	int t;
	size_t i;

	if (!sc || !sc->source || !sc->name || !sc->fs || !sc->mount || !sc->ram_bytes)
		return false;
	for (t = CP_ST_FILE; t < CP_ST_NR; t++) {
		size_t n = cp_sc_count(sc, (enum cp_sc_type_id)t);

		for (i = 0; i < n; i++) {
			const void *e = cp_sc_elem(sc, (enum cp_sc_type_id)t, i);

			if (!cp_sc_elem_name((enum cp_sc_type_id)t, e))
				return false;
			if (i && strcmp(cp_sc_elem_name((enum cp_sc_type_id)t,
							cp_sc_elem(sc, (enum cp_sc_type_id)t, i - 1)),
					cp_sc_elem_name((enum cp_sc_type_id)t, e)) >= 0)
				return false; /* sorted, names distinct */
		}
	}
	for (i = 0; i < sc->nr_readers; i++)
		if (sc->readers[i].file_idx >= sc->nr_files ||
		    strcmp(sc->files[sc->readers[i].file_idx].name, sc->readers[i].file) != 0)
			return false;
	for (i = 0; i < sc->nr_streamers; i++)
		if (sc->streamers[i].file_idx >= sc->nr_files ||
		    strcmp(sc->files[sc->streamers[i].file_idx].name, sc->streamers[i].file) != 0)
			return false;
	for (i = 0; i < sc->nr_creators; i++)
		if (sc->creators[i].dirs.n == 0)
			return false;
	return true;
}
