/*
 * runslabs.c - the slab geometry the real runs recorded, for the model's
 * filesystem profile (see runslabs.h).
 */
#include "report/runslabs.h"

#include <cachepressure/error.h>
#include <stdio.h>
#include <string.h>

/* The three counters of cache role in run r; false when one is missing
 * or not positive. */
static bool run_slab(const struct cp_run_result *r, int role, struct cp_run_slab *out)
{
	static const char *const field[3] = { "object_size", "objects_per_slab",
					      "pages_per_slab" };
	uint64_t *dst[3] = { &out->object_size, &out->objects_per_slab, &out->pages_per_slab };
	char name[64];
	int i;

	for (i = 0; i < 3; i++) {
		int64_t v;

		snprintf(name, sizeof(name), "cp_slab_%s_%s", cp_fs_slab_role_name(role), field[i]);
		v = cp_run_result_counter(r, name, -1);
		if (v <= 0)
			return false;
		*dst[i] = (uint64_t)v;
	}
	out->present = true;
	return true;
}

static bool same(const struct cp_run_slab *a, const struct cp_run_slab *b)
{
	return a->object_size == b->object_size && a->objects_per_slab == b->objects_per_slab &&
	       a->pages_per_slab == b->pages_per_slab;
}

void cp_run_slabs_from_runs(const struct cp_run_result *runs, size_t n, struct cp_run_slabs *out)
{
	bool differs[CP_FS_NR_SLABS] = { false };
	size_t i;
	int role;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		bool any = false;

		for (role = 0; role < CP_FS_NR_SLABS; role++) {
			struct cp_run_slab s = { 0 };

			if (!run_slab(&runs[i], role, &s))
				continue;
			any = true;
			if (!out->role[role].present)
				out->role[role] = s;
			else if (!same(&out->role[role], &s))
				differs[role] = true;
		}
		out->nr_runs += any;
	}
	for (role = 0; role < CP_FS_NR_SLABS; role++)
		if (differs[role]) {
			out->role[role].present = false;
			out->disagree = true;
		}
}

int cp_run_slabs_apply(const struct cp_run_slabs *s, struct cp_fs_profile *p,
		       struct cp_diag *diag)
{
	struct cp_fs_profile next = *p;
	int role, rc;

	for (role = 0; role < CP_FS_NR_SLABS; role++) {
		const struct cp_run_slab *g = &s->role[role];

		if (!g->present)
			continue;
		rc = cp_fs_profile_set_slab(&next, role, g->object_size, g->objects_per_slab,
					    g->pages_per_slab, diag);
		if (rc)
			return rc;
	}
	*p = next;
	return 0;
}
