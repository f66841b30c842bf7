/*
 * jsonput.h - the few ways our JSON writers put a value into a cJSON
 * object: integers as exact decimal text (cJSON holds numbers as
 * doubles, which would round above 2^53), doubles or null, strings or
 * null; and writing the finished text to a file or standard output.
 * Shared by json.c (runs), validate.c and abtable.c.
 */
#ifndef CP_REPORT_JSONPUT_H
#define CP_REPORT_JSONPUT_H

#include <stdbool.h>
#include <stdint.h>

struct cJSON;

/* Each returns false when cJSON could not allocate. */
bool cp_json_put_u64(struct cJSON *obj, const char *key, uint64_t v);
bool cp_json_put_i64(struct cJSON *obj, const char *key, int64_t v);
/* v when has, else null. */
bool cp_json_put_double(struct cJSON *obj, const char *key, bool has, double v);
/* s, or null when s is NULL. */
bool cp_json_put_str(struct cJSON *obj, const char *key, const char *s);
/* Appends v to an array as exact decimal text. */
bool cp_json_append_i64(struct cJSON *arr, int64_t v);

struct cp_diag;

/* Writes text and a newline to path ("-": standard output) and frees
 * text (cp_free) in every case; text NULL means the caller ran out of
 * memory building it. 0, -CP_ENOMEM, or -CP_EIO naming path. */
int cp_json_write_text(const char *path, char *text, struct cp_diag *diag);

#endif /* CP_REPORT_JSONPUT_H */
