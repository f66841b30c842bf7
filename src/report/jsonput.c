/*
 * jsonput.c - putting integers, doubles and strings into cJSON objects
 * (jsonput.h).
 */
#include "report/jsonput.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>

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
