/*
 * print.c - writes a resolved scenario back as INI (`cachepressure show`).
 *
 * The output is canonical: sections in type order (scenario, file,
 * reader, creator, walker, streamer) and by name, keys sorted, every key
 * written (defaults included, absent optional ones left out), sizes and
 * durations in the largest unit that is exact. Loading the output gives
 * the same scenario, and printing that gives the same bytes.
 */
#include "scenario/scenario.h"

#include <cachepressure/error.h>
#include <string.h>

#include "scenario/schema.h"

/* inih's line buffer is 200 bytes: longer path lists continue on
 * indented lines, which the loader appends to the list. */
#define PRINT_LINE_MAX 160

static void sorted_keys(enum cp_sc_type_id t, size_t *order)
{
	const struct cp_sc_type *ty = &cp_sc_types[t];
	size_t i, j;

	for (i = 0; i < ty->nr_keys; i++) {
		for (j = i; j > 0 && strcmp(ty->keys[order[j - 1]].key, ty->keys[i].key) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

static void print_paths(FILE *out, const char *key, const struct cp_sc_paths *p)
{
	size_t i, len = strlen(key) + 3;

	for (i = 0; i < p->n; i++)
		len += strlen(p->v[i]) + 2;
	if (len <= PRINT_LINE_MAX) {
		fprintf(out, "%s = ", key);
		for (i = 0; i < p->n; i++)
			fprintf(out, "%s%s", i ? ", " : "", p->v[i]);
		fputc('\n', out);
		return;
	}
	fprintf(out, "%s = %s\n", key, p->v[0]);
	for (i = 1; i < p->n; i++)
		fprintf(out, "\t%s\n", p->v[i]);
}

static void print_section(FILE *out, enum cp_sc_type_id t, const void *elem)
{
	const struct cp_sc_type *ty = &cp_sc_types[t];
	size_t order[CP_SC_MAX_KEYS], i;
	char value[4200];

	if (t == CP_ST_SCENARIO)
		fprintf(out, "[scenario]\n");
	else
		fprintf(out, "\n[%s %s]\n", ty->name, cp_sc_elem_name(t, elem));
	sorted_keys(t, order);
	for (i = 0; i < ty->nr_keys; i++) {
		const struct cp_sc_key *k = &ty->keys[order[i]];

		if (k->kind == CP_SK_PATHS) {
			union cp_sc_val v;

			cp_sc_val_get(k, elem, &v);
			print_paths(out, k->key, &v.p);
			continue;
		}
		if (!cp_sc_val_format(k, elem, value, sizeof(value)))
			continue; /* absent optional key */
		if (value[0])
			fprintf(out, "%s = %s\n", k->key, value);
		else
			fprintf(out, "%s =\n", k->key);
	}
}

int cp_scenario_print(FILE *out, const struct cp_scenario *sc)
{
	int t;
	size_t i;

	fprintf(out, "; scenario %s, resolved (ram = ", sc->name);
	{
		char ram[64];
		int ki = cp_sc_key_find(CP_ST_SCENARIO, "ram");

		cp_sc_val_format(&cp_sc_types[CP_ST_SCENARIO].keys[ki], sc, ram, sizeof(ram));
		fprintf(out, "%s)\n", ram);
	}
	for (t = 0; t < CP_ST_NR; t++)
		for (i = 0; i < cp_sc_count(sc, (enum cp_sc_type_id)t); i++)
			print_section(out, (enum cp_sc_type_id)t,
				      cp_sc_elem(sc, (enum cp_sc_type_id)t, i));
	if (fflush(out) != 0 || ferror(out))
		return -CP_EIO;
	return 0;
}

int cp_scenario_print_keys(FILE *out)
{
	static const char *const kinds[] = {
		[CP_SK_STR] = "text", [CP_SK_NAME] = "name", [CP_SK_REF] = "section",
		[CP_SK_PATH] = "path", [CP_SK_PATHS] = "paths", [CP_SK_SIZE] = "size",
		[CP_SK_COUNT] = "count", [CP_SK_DURATION] = "duration", [CP_SK_BOOL] = "bool",
	};
	int t;

	for (t = 0; t < CP_ST_NR; t++) {
		const struct cp_sc_type *ty = &cp_sc_types[t];
		size_t order[CP_SC_MAX_KEYS], i;

		if (t == CP_ST_SCENARIO)
			fprintf(out, "[scenario]\n");
		else
			fprintf(out, "\n[%s NAME]\n", ty->name);
		sorted_keys((enum cp_sc_type_id)t, order);
		for (i = 0; i < ty->nr_keys; i++) {
			const struct cp_sc_key *k = &ty->keys[order[i]];
			char dflt[48];

			if (k->flags & CP_SKF_REQUIRED)
				snprintf(dflt, sizeof(dflt), "required");
			else if (!k->dflt)
				snprintf(dflt, sizeof(dflt), "optional");
			else
				snprintf(dflt, sizeof(dflt), "= %s", k->dflt[0] ? k->dflt : "\"\"");
			fprintf(out, "  %-16s %-8s %-10s %s%s\n", k->key, kinds[k->kind], dflt, k->help,
				(k->flags & CP_SKF_SCALES) ? " [scales with --mem]" : "");
		}
	}
	if (fflush(out) != 0 || ferror(out))
		return -CP_EIO;
	return 0;
}
