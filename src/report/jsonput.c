/*
 * jsonput.c - putting integers, doubles and strings into cJSON objects
 * (jsonput.h).
 */
#include "report/jsonput.h"

#include <cachepressure/error.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

bool cp_json_put_u64(cJSON *obj, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return cJSON_AddRawToObject(obj, key, buf) != NULL;
}

bool cp_json_put_i64(cJSON *obj, const char *key, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return cJSON_AddRawToObject(obj, key, buf) != NULL;
}

bool cp_json_put_double(cJSON *obj, const char *key, bool has, double v)
{
	return has ? cJSON_AddNumberToObject(obj, key, v) != NULL
		   : cJSON_AddNullToObject(obj, key) != NULL;
}

bool cp_json_put_str(cJSON *obj, const char *key, const char *s)
{
	return s ? cJSON_AddStringToObject(obj, key, s) != NULL
		 : cJSON_AddNullToObject(obj, key) != NULL;
}

bool cp_json_append_i64(cJSON *arr, int64_t v)
{
	char buf[24];
	cJSON *item;

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	item = cJSON_CreateRaw(buf);
	if (!item)
		return false;
	if (!cJSON_AddItemToArray(arr, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

int cp_json_write_text(const char *path, char *text, struct cp_diag *diag)
{
	FILE *fp;
	int ok;

	if (!text)
		return cp_diag_set(diag, -CP_ENOMEM, "%s: out of memory", path);
	fp = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	if (!fp) {
		int e = errno;

		cp_free(text);
		return cp_diag_set(diag, -CP_EIO, "%s: cannot create: %s", path, strerror(e));
	}
	ok = fputs(text, fp) >= 0 && fputc('\n', fp) != EOF;
	cp_free(text);
	if (fp == stdout)
		ok = ok && fflush(fp) == 0;
	else if (fclose(fp) != 0)
		ok = 0;
	return ok ? 0 : cp_diag_set(diag, -CP_EIO, "%s: write failed", path);
}
