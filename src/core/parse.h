/*
 * parse.h - strict parsing of sizes, durations and counts from text
 * (scenario files, profiles, command-line options). Every parser rejects
 * empty input, signs, trailing garbage and overflow with -CP_EINVAL or
 * -CP_ERANGE and leaves *out unchanged on failure.
 */
#ifndef CP_PARSE_H
#define CP_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* "4096", "64K", "6500M", "16G", "1.5G", "2T", with optional "iB"/"B"
 * ("16GiB", "16GB" and "16G" all mean 16 * 2^30). Result in bytes,
 * rounded down to a whole byte. */
int cp_parse_size(const char *s, uint64_t *out);

/* "5s", "100ms", "250us", "10ns", "2m", "1h", "1.5s"; a bare number is
 * seconds. Result in nanoseconds. */
int cp_parse_duration(const char *s, uint64_t *out);

/* Non-negative decimal integer, optionally with a k/M/G decimal suffix
 * ("100000", "4M" = 4000000). */
int cp_parse_count(const char *s, uint64_t *out);

/* "yes"/"no", "true"/"false", "on"/"off", "1"/"0". */
int cp_parse_bool(const char *s, bool *out);

#endif /* CP_PARSE_H */
