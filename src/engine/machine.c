/*
 * machine.c - loading and checking machine profiles (INI, via inih).
 *
 * One table lists every key: its section, the kind of value (size, rate,
 * duration, count, yes/no, text), where it goes in struct cp_machine,
 * whether it is required and its allowed range. Loading, --set overrides
 * and validation all go through the table, so a key is described once.
 *
 * No kernel mechanism lives here. Kernel anchors of the values:
 * watermark_scale_factor and min_free_kbytes are the sysctls of
 * mm/page_alloc.c; max_request is the block queue's max_sectors_kb;
 * read_ahead_kb is the bdi's (VM_MAX_READAHEAD = 128 by default).
 */
#include "engine/machine.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "core/bug.h"
#include "core/parse.h"

enum key_kind {
	KIND_TEXT,     /* copied, at most field size - 1 characters */
	KIND_SIZE,     /* bytes: "16G" */
	KIND_RATE,     /* bytes per second: "2800M" */
	KIND_DURATION, /* needs a unit: "20us" */
	KIND_NS,       /* bare number = nanoseconds; a unit is allowed: "1us" */
	KIND_COUNT,    /* whole number */
	KIND_BOOL,     /* yes/no */
};

struct key_def {
	const char *section;
	const char *name;
	enum key_kind kind;
	size_t offset;
	size_t width;     /* sizeof the field */
	bool required;
	uint64_t min, max; /* numeric kinds: allowed range */
};

#define FIELD(f) offsetof(struct cp_machine, f), sizeof(((struct cp_machine *)0)->f)
#define REQ true
#define OPT false
#define NOLIMIT UINT64_MAX

static const struct key_def keys[] = {
	{ "machine", "name", KIND_TEXT, FIELD(name), REQ, 0, 0 },
	{ "machine", "description", KIND_TEXT, FIELD(description), OPT, 0, 0 },
	{ "machine", "cpus", KIND_COUNT, FIELD(nr_cpus), REQ, 1, 4096 },
	{ "machine", "ram", KIND_SIZE, FIELD(ram_bytes), REQ, 1ULL << 20, NOLIMIT },
	{ "machine", "reserve", KIND_SIZE, FIELD(reserve_bytes), REQ, 0, NOLIMIT },
	{ "machine", "process", KIND_SIZE, FIELD(process_bytes), REQ, 0, NOLIMIT },
	{ "machine", "thp", KIND_BOOL, FIELD(thp), REQ, 0, 1 },
	/* x86-64: DMA, DMA32, Normal, Movable */
	{ "machine", "nr_zones", KIND_COUNT, FIELD(nr_zones), REQ, 1, 4 },
	{ "machine", "min_free_kbytes", KIND_COUNT, FIELD(min_free_kbytes), OPT, 0, NOLIMIT },
	/* sysctl range: 1..1000 in 4.11, 1..3000 since 5.x */
	{ "machine", "watermark_scale_factor", KIND_COUNT, FIELD(watermark_scale_factor), OPT, 1, 3000 },

	{ "cpu", "copy_bandwidth", KIND_RATE, FIELD(copy_bandwidth_bps), REQ, 1, NOLIMIT },
	{ "cpu", "read_syscall_ns", KIND_NS, FIELD(read_syscall_ns), REQ, 0, NOLIMIT },
	{ "cpu", "page_cached_ns", KIND_NS, FIELD(page_cached_ns), REQ, 0, NOLIMIT },
	{ "cpu", "page_insert_ns", KIND_NS, FIELD(page_insert_ns), REQ, 0, NOLIMIT },
	{ "cpu", "lru_scan_ns", KIND_NS, FIELD(lru_scan_ns), REQ, 0, NOLIMIT },
	{ "cpu", "slab_scan_ns", KIND_NS, FIELD(slab_scan_ns), REQ, 0, NOLIMIT },
	{ "cpu", "object_free_ns", KIND_NS, FIELD(object_free_ns), REQ, 0, NOLIMIT },

	{ "device", "model", KIND_TEXT, FIELD(device_model), OPT, 0, 0 },
	{ "device", "read_bandwidth", KIND_RATE, FIELD(read_bandwidth_bps), REQ, 1, NOLIMIT },
	{ "device", "write_bandwidth", KIND_RATE, FIELD(write_bandwidth_bps), REQ, 1, NOLIMIT },
	{ "device", "read_latency", KIND_DURATION, FIELD(read_latency_ns), REQ, 0, NOLIMIT },
	{ "device", "write_latency", KIND_DURATION, FIELD(write_latency_ns), REQ, 0, NOLIMIT },
	/* one page .. 4 GiB; the block layer counts in 512-byte sectors */
	{ "device", "max_request", KIND_SIZE, FIELD(max_request_bytes), REQ, 4096, 1ULL << 32 },
	/* NVMe allows up to 65536 entries per queue */
	{ "device", "queue_depth", KIND_COUNT, FIELD(queue_depth), REQ, 1, 65536 },

	/* 0 turns readahead off, as in the kernel */
	{ "readahead", "read_ahead_kb", KIND_COUNT, FIELD(read_ahead_kb), REQ, 0, 1ULL << 20 },
};

#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

static const char *kind_expected(enum key_kind kind)
{
	switch (kind) {
	case KIND_TEXT:
		return "text";
	case KIND_SIZE:
		return "a size like 16G";
	case KIND_RATE:
		return "bytes per second like 2800M";
	case KIND_DURATION:
		return "a duration with a unit like 20us";
	case KIND_NS:
		return "nanoseconds like 1000, or a duration like 1us";
	case KIND_COUNT:
		return "a whole number";
	case KIND_BOOL:
		return "yes or no";
	}
	return "?";
}

static const struct key_def *find_key(const char *section, const char *name)
{
	size_t i;

	for (i = 0; i < NR_KEYS; i++)
		if (strcmp(keys[i].section, section) == 0 && strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

static bool known_section(const char *section)
{
	size_t i;

	for (i = 0; i < NR_KEYS; i++)
		if (strcmp(keys[i].section, section) == 0)
			return true;
	return false;
}

static uint64_t get_num(const struct cp_machine *m, const struct key_def *k)
{
	const char *p = (const char *)m + k->offset;

	if (k->kind == KIND_BOOL) {
		bool b;

		memcpy(&b, p, sizeof(b));
		return b;
	}
	if (k->width == sizeof(unsigned)) {
		unsigned u;

		memcpy(&u, p, sizeof(u));
		return u;
	}
	{
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
}

static void put_num(struct cp_machine *m, const struct key_def *k, uint64_t v)
{
	char *p = (char *)m + k->offset;

	if (k->kind == KIND_BOOL) {
		bool b = v != 0;

		memcpy(p, &b, sizeof(b));
	} else if (k->width == sizeof(unsigned)) {
		unsigned u = (unsigned)v;

		memcpy(p, &u, sizeof(u));
	} else {
		memcpy(p, &v, sizeof(v));
	}
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Parses value for key k into *out (numbers) without touching m.
 * Returns 0 or -CP_EINVAL with diag "key 'K' in [S]: ...". */
static int parse_value(const struct key_def *k, const char *value, uint64_t *out,
		       struct cp_diag *diag)
{
	uint64_t v = 0;
	bool b = false;
	int rc;

	switch (k->kind) {
	case KIND_TEXT:
		return 0;
	case KIND_SIZE:
	case KIND_RATE:
		rc = cp_parse_size(value, &v);
		break;
	case KIND_DURATION:
		/* a bare "20" would silently mean 20 seconds */
		rc = all_digits(value) && strcmp(value, "0") != 0 ? -CP_EINVAL
								    : cp_parse_duration(value, &v);
		break;
	case KIND_NS:
		rc = all_digits(value) ? cp_parse_count(value, &v) : cp_parse_duration(value, &v);
		break;
	case KIND_COUNT:
		rc = cp_parse_count(value, &v);
		break;
	case KIND_BOOL:
		rc = cp_parse_bool(value, &b);
		v = b;
		break;
	default:
		rc = -CP_EINVAL;
	}
	if (rc)
		return cp_diag_set(diag, -CP_EINVAL, "key '%s' in [%s]: bad value '%s' (expected %s)",
				   k->name, k->section, value, kind_expected(k->kind));
	if (v < k->min || v > k->max) {
		if (k->max == NOLIMIT)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value '%s' out of range (at least %llu)",
					   k->name, k->section, value, (unsigned long long)k->min);
		return cp_diag_set(diag, -CP_EINVAL,
				   "key '%s' in [%s]: value '%s' out of range (%llu..%llu)", k->name,
				   k->section, value, (unsigned long long)k->min,
				   (unsigned long long)k->max);
	}
	*out = v;
	return 0;
}

/* Stores value into m (parse_value() must have accepted it). */
static int apply_value(struct cp_machine *m, const struct key_def *k, const char *value,
		       struct cp_diag *diag)
{
	uint64_t v = 0;
	int rc;

	if (k->kind == KIND_TEXT) {
		if (strlen(value) >= k->width)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value '%.40s...' too long (at most %zu characters)",
					   k->name, k->section, value, k->width - 1);
		memcpy((char *)m + k->offset, value, strlen(value) + 1);
		return 0;
	}
	rc = parse_value(k, value, &v, diag);
	if (rc)
		return rc;
	put_num(m, k, v);
	return 0;
}

void cp_machine_init(struct cp_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->watermark_scale_factor = 10; /* mm/page_alloc.c default */
	m->min_free_kbytes = 0;         /* computed by the memory model */
}

int cp_machine_validate(const struct cp_machine *m, struct cp_diag *diag)
{
	size_t i;

	if (!m->name[0])
		return cp_diag_set(diag, -CP_EINVAL, "key 'name' in [machine]: must not be empty");
	for (i = 0; i < NR_KEYS; i++) {
		const struct key_def *k = &keys[i];
		uint64_t v;

		if (k->kind == KIND_TEXT)
			continue;
		v = get_num(m, k);
		if (v < k->min || v > k->max)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value %llu out of range (%llu..%llu)",
					   k->name, k->section, (unsigned long long)v,
					   (unsigned long long)k->min, (unsigned long long)k->max);
	}
	if (m->reserve_bytes >= m->ram_bytes ||
	    m->process_bytes >= m->ram_bytes - m->reserve_bytes)
		return cp_diag_set(diag, -CP_EINVAL,
				   "keys 'reserve' and 'process' in [machine]: %llu + %llu bytes leave no memory of ram %llu bytes",
				   (unsigned long long)m->reserve_bytes,
				   (unsigned long long)m->process_bytes,
				   (unsigned long long)m->ram_bytes);
	if (m->min_free_kbytes > m->ram_bytes / 1024 / 4)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'min_free_kbytes' in [machine]: %llu KiB is more than a quarter of ram",
				   (unsigned long long)m->min_free_kbytes);
	if (m->max_request_bytes % 512)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'max_request' in [device]: %llu bytes is not a whole number of 512-byte sectors",
				   (unsigned long long)m->max_request_bytes);
	return 0;
}

bool cp_machine_check(const struct cp_machine *m)
{
	return cp_machine_validate(m, NULL) == 0;
}

/* ---- loading ------------------------------------------------------ */

struct load_ctx {
	struct cp_machine m;
	const char *path;
	FILE *f;
	int line;                 /* lines read so far = line being parsed */
	int long_line;            /* first line longer than inih takes, or 0 */
	int max_line;             /* inih's line buffer size */
	int err_line;             /* line of the first handler error, or 0 */
	int seen_line[NR_KEYS];   /* line each key was set on, 0 = not yet */
	struct cp_diag err;       /* the first handler error */
};

/* fgets() that counts lines and notices lines inih would split. */
static char *read_line(char *str, int num, void *stream)
{
	struct load_ctx *c = stream;
	char *s = fgets(str, num, c->f);
	size_t len;

	if (!s)
		return NULL;
	c->line++;
	c->max_line = num;
	len = strlen(s);
	if (len && s[len - 1] != '\n' && !feof(c->f)) {
		int ch;

		if (!c->long_line)
			c->long_line = c->line;
		/* skip the rest, so inih sees one (truncated) line */
		while ((ch = fgetc(c->f)) != EOF && ch != '\n')
			;
	}
	return s;
}

static int handle_key(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *c = user;
	const struct key_def *k;
	struct cp_diag d;
	size_t idx;
	int rc;

	if (c->err_line)
		return 1; /* keep the first error only */
	k = find_key(section, name);
	if (!k) {
		if (!section[0])
			cp_diag_set(&c->err, -CP_EINVAL, "key '%s' outside any section", name);
		else if (!known_section(section))
			cp_diag_set(&c->err, -CP_EINVAL,
				    "unknown section [%s] (expected [machine], [cpu], [device] or [readahead])",
				    section);
		else
			cp_diag_set(&c->err, -CP_EINVAL, "unknown key '%s' in [%s]", name, section);
		c->err_line = c->line;
		return 0;
	}
	idx = (size_t)(k - keys);
	if (c->seen_line[idx]) {
		cp_diag_set(&c->err, -CP_EINVAL, "key '%s' in [%s] given twice (first on line %d)",
			    name, section, c->seen_line[idx]);
		c->err_line = c->line;
		return 0;
	}
	rc = apply_value(&c->m, k, value, &d);
	if (rc) {
		c->err = d;
		c->err_line = c->line;
		return 0;
	}
	c->seen_line[idx] = c->line;
	return 1;
}

int cp_machine_load(const char *path, struct cp_machine *m, struct cp_diag *diag)
{
	struct load_ctx c;
	struct cp_diag d;
	size_t i;
	int line;

	memset(&c, 0, sizeof(c));
	cp_machine_init(&c.m);
	c.path = path;
	c.f = fopen(path, "r");
	if (!c.f) {
		int e = errno;

		return cp_diag_set(diag, e == ENOENT ? -CP_ENOENT : -CP_EIO,
				   "%s: cannot open machine profile: %s", path, strerror(e));
	}
	line = ini_parse_stream(read_line, &c, handle_key, &c);
	if (ferror(c.f)) {
		fclose(c.f);
		return cp_diag_set(diag, -CP_EIO, "%s: read error", path);
	}
	fclose(c.f);
	if (c.long_line && (line <= 0 || c.long_line <= line))
		return cp_diag_set(diag, -CP_EINVAL, "%s:%d: line longer than %d characters",
				   path, c.long_line, c.max_line - 2);
	if (line > 0 && line == c.err_line)
		return cp_diag_set(diag, -CP_EINVAL, "%s:%d: %s", path, line, c.err.msg);
	if (line != 0)
		return cp_diag_set(diag, -CP_EINVAL,
				   "%s:%d: syntax error (expected [section], key = value or a ; comment)",
				   path, line);
	for (i = 0; i < NR_KEYS; i++)
		if (keys[i].required && !c.seen_line[i])
			return cp_diag_set(diag, -CP_EINVAL, "%s: required key '%s' in [%s] is missing",
					   path, keys[i].name, keys[i].section);
	if (cp_machine_validate(&c.m, &d))
		return cp_diag_set(diag, -CP_EINVAL, "%s: %s", path, d.msg);
	*m = c.m;
	CP_DEBUG_CHECK(cp_machine_check(m));
	return 0;
}

int cp_machine_set(struct cp_machine *m, const char *section_key, const char *value,
		   struct cp_diag *diag)
{
	char section[32];
	const char *dot = strchr(section_key, '.');
	const struct key_def *k;
	struct cp_machine tmp;
	size_t len;
	int rc;

	if (!dot || dot == section_key || (len = (size_t)(dot - section_key)) >= sizeof(section))
		return cp_diag_set(diag, -CP_EINVAL,
				   "bad key '%s' (expected section.key, like device.read_latency)",
				   section_key);
	memcpy(section, section_key, len);
	section[len] = '\0';
	k = find_key(section, dot + 1);
	if (!k) {
		if (!known_section(section))
			return cp_diag_set(diag, -CP_EINVAL,
					   "unknown section [%s] in '%s' (expected machine, cpu, device or readahead)",
					   section, section_key);
		return cp_diag_set(diag, -CP_EINVAL, "unknown key '%s' in [%s]", dot + 1, section);
	}
	tmp = *m;
	rc = apply_value(&tmp, k, value, diag);
	if (rc)
		return rc;
	rc = cp_machine_validate(&tmp, diag);
	if (rc)
		return rc;
	*m = tmp;
	CP_DEBUG_CHECK(cp_machine_check(m));
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

int cp_machine_resolve(const char *name_or_path, const char *search_dir, char *out,
		       size_t out_len, struct cp_diag *diag)
{
	char path[4096];
	const char *p;
	FILE *f;
	int n;

	if (!name_or_path || !*name_or_path)
		return cp_diag_set(diag, -CP_EINVAL, "empty machine profile name");
	if (strchr(name_or_path, '/') || ends_with(name_or_path, ".ini")) {
		n = snprintf(path, sizeof(path), "%s", name_or_path);
	} else {
		for (p = name_or_path; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
				return cp_diag_set(diag, -CP_EINVAL,
						   "bad machine profile name '%s' (letters, digits, '-', '_' and '.' only)",
						   name_or_path);
		if (name_or_path[0] == '.')
			return cp_diag_set(diag, -CP_EINVAL,
					   "bad machine profile name '%s' (must not start with '.')",
					   name_or_path);
		if (!search_dir || !*search_dir)
			return cp_diag_set(diag, -CP_EINVAL,
					   "machine profile '%s': no profile directory to look in",
					   name_or_path);
		n = snprintf(path, sizeof(path), "%s/%s.ini", search_dir, name_or_path);
	}
	if (n < 0 || (size_t)n >= sizeof(path) || (size_t)n >= out_len)
		return cp_diag_set(diag, -CP_EINVAL, "machine profile path for '%s' is too long",
				   name_or_path);
	f = fopen(path, "r");
	if (!f) {
		int e = errno;

		if (e == ENOENT)
			return cp_diag_set(diag, -CP_ENOENT,
					   "machine profile '%s' not found (no file %s)", name_or_path,
					   path);
		return cp_diag_set(diag, -CP_EIO, "machine profile %s: %s", path, strerror(e));
	}
	fclose(f);
	memcpy(out, path, (size_t)n + 1);
	return 0;
}

int cp_machine_load_named(const char *name_or_path, const char *search_dir,
			  struct cp_machine *m, struct cp_diag *diag)
{
	char path[4096];
	int rc = cp_machine_resolve(name_or_path, search_dir, path, sizeof(path), diag);

	return rc ? rc : cp_machine_load(path, m, diag);
}
