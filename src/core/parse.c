/*
 * parse.c - sizes, durations, counts and booleans from text.
 */
#include "core/parse.h"

#include <cachepressure/error.h>
#include <string.h>
#include <strings.h>

/* Parses "123" or "123.456" into a value scaled by 10^9 (fixed point),
 * returning the position after the number. Rejects no digits and
 * overflow. */
static int parse_decimal(const char *s, const char **end, uint64_t *int_part,
			 uint64_t *frac_1e9)
{
	uint64_t ip = 0, fp = 0, scale = 100000000;
	const char *p = s;
	int digits = 0;

	while (*p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p - '0');

		if (ip > (UINT64_MAX - d) / 10)
			return -CP_ERANGE;
		ip = ip * 10 + d;
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			fp += (uint64_t)(*p - '0') * scale;
			scale /= 10;
			p++;
			digits++;
		}
	}
	if (!digits)
		return -CP_EINVAL;
	*end = p;
	*int_part = ip;
	*frac_1e9 = fp;
	return 0;
}

/* value = (ip + fp/1e9) * mult, checked for overflow. */
static int scale_value(uint64_t ip, uint64_t fp, uint64_t mult, uint64_t *out)
{
	uint64_t whole, frac;

	if (mult && ip > UINT64_MAX / mult)
		return -CP_ERANGE;
	whole = ip * mult;
	/* fp < 1e9 and mult <= 2^40 fits; for larger mults split */
	if (mult <= (1ULL << 34))
		frac = fp * mult / 1000000000ULL;
	else
		frac = fp * (mult >> 20) / 1000000000ULL * (1ULL << 20);
	if (whole > UINT64_MAX - frac)
		return -CP_ERANGE;
	*out = whole + frac;
	return 0;
}

struct unit {
	const char *suffix;
	uint64_t mult;
};

static int parse_with_units(const char *s, const struct unit *units, uint64_t bare_mult,
			    bool allow_fraction, uint64_t *out)
{
	const char *end;
	uint64_t ip, fp, v;
	int rc;

	if (!s || !*s)
		return -CP_EINVAL;
	rc = parse_decimal(s, &end, &ip, &fp);
	if (rc)
		return rc;
	if (fp && !allow_fraction)
		return -CP_EINVAL;
	if (*end == '\0') {
		rc = scale_value(ip, fp, bare_mult, &v);
	} else {
		const struct unit *u;

		for (u = units; u->suffix; u++)
			if (strcasecmp(end, u->suffix) == 0)
				break;
		if (!u->suffix)
			return -CP_EINVAL;
		rc = scale_value(ip, fp, u->mult, &v);
	}
	if (rc)
		return rc;
	*out = v;
	return 0;
}

int cp_parse_size(const char *s, uint64_t *out)
{
	static const struct unit units[] = {
		{ "B", 1 },
		{ "K", 1ULL << 10 }, { "KB", 1ULL << 10 }, { "KiB", 1ULL << 10 },
		{ "M", 1ULL << 20 }, { "MB", 1ULL << 20 }, { "MiB", 1ULL << 20 },
		{ "G", 1ULL << 30 }, { "GB", 1ULL << 30 }, { "GiB", 1ULL << 30 },
		{ "T", 1ULL << 40 }, { "TB", 1ULL << 40 }, { "TiB", 1ULL << 40 },
		{ NULL, 0 },
	};

	return parse_with_units(s, units, 1, true, out);
}

int cp_parse_duration(const char *s, uint64_t *out)
{
	static const struct unit units[] = {
		{ "ns", 1 },
		{ "us", 1000 },
		{ "ms", 1000000 },
		{ "s", 1000000000ULL },
		{ "m", 60 * 1000000000ULL }, { "min", 60 * 1000000000ULL },
		{ "h", 3600 * 1000000000ULL },
		{ NULL, 0 },
	};

	return parse_with_units(s, units, 1000000000ULL, true, out);
}

int cp_parse_count(const char *s, uint64_t *out)
{
	static const struct unit units[] = {
		{ "k", 1000 }, { "M", 1000000 }, { "G", 1000000000ULL },
		{ NULL, 0 },
	};
	const char *p;

	/* strcasecmp would make "m" a million too: only exact suffixes */
	if (s)
		for (p = s; *p; p++)
			if (*p == 'm' || *p == 'g' || *p == 'K')
				return -CP_EINVAL;
	return parse_with_units(s, units, 1, false, out);
}

int cp_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	unsigned i;

	if (!s)
		return -CP_EINVAL;
	for (i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -CP_EINVAL;
}
