/*
 * qemu.c - the qemu argv of a lab guest and the parse of its result port
 * (see qemu.h). Pure: no process is started here (lab.c does that).
 */
#include "qemu.h"

#include <cachepressure/error.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct argv_builder {
	struct cp_qemu_argv *a;
	size_t used;
	int overflow;
};

static void arg(struct argv_builder *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void arg(struct argv_builder *b, const char *fmt, ...)
{
	struct cp_qemu_argv *a = b->a;
	va_list ap;
	int n;

	if (b->overflow || a->argc + 1 >= CP_QEMU_MAX_ARGS) {
		b->overflow = 1;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(a->buf + b->used, sizeof(a->buf) - b->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(a->buf) - b->used) {
		b->overflow = 1;
		return;
	}
	a->argv[a->argc++] = a->buf + b->used;
	a->argv[a->argc] = NULL;
	b->used += (size_t)n + 1;
}

/* qemu's -drive and -serial take comma-separated options: a path with a
 * comma would be misread. */
static int plain_path(const char *what, const char *p, struct cp_diag *diag)
{
	if (!p || !p[0])
		return cp_diag_set(diag, -CP_EINVAL, "qemu: no %s", what);
	if (strchr(p, ','))
		return cp_diag_set(diag, -CP_EINVAL, "qemu: %s '%s' contains a comma", what, p);
	return 0;
}

int cp_qemu_argv_build(const struct cp_qemu_config *c, struct cp_qemu_argv *out,
		       struct cp_diag *diag)
{
	struct argv_builder b = { out, 0, 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	if (!c->qemu || !c->kernel || !c->initrd)
		return cp_diag_set(diag, -CP_EINVAL, "qemu: kernel, initrd and qemu are needed");
	if ((rc = plain_path("console file", c->console_path, diag)) ||
	    (rc = plain_path("result file", c->result_path, diag)) ||
	    (c->disk && (rc = plain_path("disk image", c->disk, diag))))
		return rc;
	if (c->accel != CP_LAB_ACCEL_KVM && c->accel != CP_LAB_ACCEL_TCG)
		return cp_diag_set(diag, -CP_EINVAL, "qemu: accelerator must be kvm or tcg");
	if (c->mem_bytes < (1ULL << 20) || c->cpus == 0)
		return cp_diag_set(diag, -CP_EINVAL, "qemu: no memory or no CPUs");

	arg(&b, "%s", c->qemu);
	arg(&b, "-nographic");
	arg(&b, "-monitor");
	arg(&b, "none");
	arg(&b, "-no-reboot");
	arg(&b, "-accel");
	if (c->accel == CP_LAB_ACCEL_KVM) {
		arg(&b, "kvm");
		arg(&b, "-cpu");
		arg(&b, "host");
	} else {
		arg(&b, "tcg,thread=multi"); /* one host thread per guest CPU (MTTCG) */
	}
	arg(&b, "-m");
	arg(&b, "%" PRIu64 "M", c->mem_bytes >> 20);
	arg(&b, "-smp");
	arg(&b, "%u", c->cpus);
	arg(&b, "-kernel");
	arg(&b, "%s", c->kernel);
	arg(&b, "-initrd");
	arg(&b, "%s", c->initrd);
	arg(&b, "-append");
	arg(&b, "%s%s%s", CP_LAB_APPEND_BASE, c->append_extra && *c->append_extra ? " " : "",
	    c->append_extra ? c->append_extra : "");
	if (c->disk) {
		arg(&b, "-drive");
		arg(&b, "file=%s,format=raw,if=virtio,cache=none", c->disk);
	}
	arg(&b, "-serial");
	arg(&b, "file:%s", c->console_path);
	arg(&b, "-serial");
	arg(&b, "file:%s", c->result_path);
	if (b.overflow)
		return cp_diag_set(diag, -CP_EINVAL, "qemu: command line too long");
	return 0;
}

/* ---- the result port ------------------------------------------------ */

/* Length of the line at p (up to end), without "\n" or "\r\n". */
static size_t line_len(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;

	*next = nl ? nl + 1 : end;
	while (e > p && e[-1] == '\r')
		e--;
	return (size_t)(e - p);
}

void cp_lab_output_parse(const char *text, size_t len, struct cp_lab_output *out)
{
	const char *p = text, *end = text + len, *next, *json = NULL;
	size_t blen = strlen(CP_LAB_BEGIN), elen = strlen(CP_LAB_END);

	memset(out, 0, sizeof(*out));
	out->status = CP_LAB_OUTPUT_NONE;
	out->guest_exit = -1;
	while (p < end) {
		size_t n = line_len(p, end, &next);

		if (!json) {
			if (n == blen && memcmp(p, CP_LAB_BEGIN, blen) == 0) {
				json = next;
				out->status = CP_LAB_OUTPUT_TRUNCATED;
				out->json = json;
				out->json_len = (size_t)(end - json);
			}
		} else if (n >= elen && memcmp(p, CP_LAB_END, elen) == 0) {
			char num[16];
			const char *q = p + elen;
			size_t k = 0;

			if (n - elen > 7 && memcmp(q, " exit=", 6) == 0) {
				q += 6;
				while (k + 1 < sizeof(num) && q < p + n && *q >= '0' && *q <= '9')
					num[k++] = *q++;
			}
			num[k] = '\0';
			out->status = CP_LAB_OUTPUT_OK;
			out->json_len = (size_t)(p - json);
			out->guest_exit = k ? atoi(num) : -1;
			return;
		}
		p = next;
	}
}
