/*
 * test_engine.c - virtual time, actor scheduling, CPU sharing, sleep and
 * wake-up, stop rules, time limit, periodic timers and sampling.
 *
 * Actors here are scripts: step k returns the k-th prepared cp_step and
 * logs (actor, time) to a trace, so each test states by hand when every
 * step must start.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "core/alloc.h"
#include "core/rng.h"
#include "engine/blockdev.h"
#include "engine/engine.h"

#define MS CP_NSEC_PER_MSEC
#define SEC CP_NSEC_PER_SEC

struct trace {
	struct { unsigned id; uint64_t t; } ev[256];
	unsigned nr;
};

#define MAX_SCRIPT 16

struct script {
	struct cp_step steps[MAX_SCRIPT];
	unsigned wake[MAX_SCRIPT]; /* actor id + 1 to wake during step k, 0 = none */
	unsigned stop[MAX_SCRIPT]; /* actor id + 1 to stop during step k, 0 = none */
	unsigned nr, pos;
	bool repeat_last;          /* after the last step, repeat it forever */
	int fail_at;               /* step index that returns -CP_ENOSPC, or -1 */
	struct trace *trace;
	unsigned id;               /* filled in after registration */
	unsigned nr_stopped;
	uint64_t stopped_ns;
};

static void trace_add(struct trace *tr, unsigned id, uint64_t t)
{
	if (tr && tr->nr < 256) {
		tr->ev[tr->nr].id = id;
		tr->ev[tr->nr].t = t;
		tr->nr++;
	}
}

static int script_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct script *s = priv;
	unsigned k = s->pos;

	trace_add(s->trace, s->id, now_ns);
	if (k >= s->nr) {
		out->next = CP_STEP_STOP;
		return 0;
	}
	if ((int)k == s->fail_at) {
		cp_diag_set(cp_engine_diag(e), -CP_ENOSPC, "script: out of memory at step %u", k);
		return -CP_ENOSPC;
	}
	if (s->wake[k])
		cp_engine_wake(e, s->wake[k] - 1);
	if (s->stop[k])
		cp_engine_stop_actor(e, s->stop[k] - 1);
	*out = s->steps[k];
	if (!s->repeat_last || k + 1 < s->nr)
		s->pos++;
	return 0;
}

static void script_stopped(struct cp_engine *e, void *priv, uint64_t now_ns)
{
	struct script *s = priv;

	(void)e;
	s->nr_stopped++;
	s->stopped_ns = now_ns;
}

static const struct cp_actor_ops script_ops = {
	.name = "script",
	.step = script_step,
	.stopped = script_stopped,
};

static void script_init(struct script *s, struct trace *tr)
{
	memset(s, 0, sizeof(*s));
	s->trace = tr;
	s->fail_at = -1;
}

/* Appends a step: cpu_ns of CPU work, then `next`. */
static void script_push(struct script *s, uint64_t cpu_ns, enum cp_step_next next, uint64_t arg)
{
	struct cp_step *st = &s->steps[s->nr++];

	assert_true(s->nr <= MAX_SCRIPT);
	memset(st, 0, sizeof(*st));
	st->cpu_ns = cpu_ns;
	st->next = next;
	if (next == CP_STEP_SLEEP_UNTIL)
		st->until_ns = arg;
	else if (next == CP_STEP_SLEEP_FOR)
		st->sleep_ns = arg;
}

static unsigned add(struct cp_engine *e, struct script *s, unsigned flags)
{
	unsigned id;

	assert_int_equal(cp_engine_add_actor(e, &script_ops, s, flags, &id), 0);
	s->id = id;
	return id;
}

static int run(struct cp_engine *e)
{
	struct cp_diag d = { "" };
	int rc = cp_engine_run(e, &d);

	if (rc == 0)
		assert_true(cp_engine_check(e));
	return rc;
}

static void assert_trace(const struct trace *tr, const unsigned *ids, const uint64_t *ts,
			 unsigned n)
{
	unsigned i;

	assert_int_equal(tr->nr, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(tr->ev[i].id, ids[i]);
		assert_int_equal(tr->ev[i].t, ts[i]);
	}
}

/* ---- ordering ---------------------------------------------------------- */

/* A sleeps until 300, B and C until 100: B and C's second steps come
 * first, B before C because B was queued first; A's at 300. */
static void steps_run_in_time_order_with_ties_in_queue_order(void **state)
{
	static const unsigned ids[] = { 0, 1, 2, 1, 2, 0 };
	static const uint64_t ts[] = { 0, 0, 0, 100, 100, 300 };
	struct trace tr = { .nr = 0 };
	struct script a, b, c;
	struct cp_engine *e;

	(void)state;
	script_init(&a, &tr);
	script_init(&b, &tr);
	script_init(&c, &tr);
	script_push(&a, 0, CP_STEP_SLEEP_UNTIL, 300);
	script_push(&a, 0, CP_STEP_STOP, 0);
	script_push(&b, 0, CP_STEP_SLEEP_UNTIL, 100);
	script_push(&b, 0, CP_STEP_STOP, 0);
	script_push(&c, 0, CP_STEP_SLEEP_UNTIL, 100);
	script_push(&c, 0, CP_STEP_STOP, 0);
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &a, 0);
	add(e, &b, 0);
	add(e, &c, 0);
	assert_int_equal(run(e), 0);
	assert_trace(&tr, ids, ts, 6);
	assert_int_equal(cp_engine_end_reason(e), CP_END_FINISHED);
	assert_int_equal(cp_engine_now(e), 300);
	assert_int_equal(cp_engine_nr_steps(e), 6);
	cp_engine_destroy(e);
}

/* Same sleeps, C registered before B: now C's step at 100 comes first. */
static void tie_break_follows_queueing_order_not_actor_id(void **state)
{
	static const unsigned ids[] = { 0, 1, 2, 1, 2 };
	static const uint64_t ts[] = { 0, 0, 0, 100, 100 };
	struct trace tr = { .nr = 0 };
	struct script c, b, a;
	struct cp_engine *e;

	(void)state;
	script_init(&c, &tr);
	script_init(&b, &tr);
	script_init(&a, &tr);
	script_push(&a, 0, CP_STEP_STOP, 0);
	script_push(&c, 0, CP_STEP_SLEEP_UNTIL, 100);
	script_push(&c, 0, CP_STEP_STOP, 0);
	script_push(&b, 0, CP_STEP_SLEEP_UNTIL, 100);
	script_push(&b, 0, CP_STEP_STOP, 0);
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &a, 0);
	add(e, &c, 0); /* id 1 */
	add(e, &b, 0); /* id 2 */
	assert_int_equal(run(e), 0);
	assert_trace(&tr, ids, ts, 5);
	cp_engine_destroy(e);
}

/* A pseudo-random actor: random CPU work, I/O and sleeps. */
struct random_actor {
	struct cp_rng rng;
	struct cp_blockdev *dev;
	struct trace *trace;
	unsigned id, nr_left;
};

static int random_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct random_actor *r = priv;

	(void)e;
	trace_add(r->trace, r->id, now_ns);
	if (!r->nr_left--) {
		out->next = CP_STEP_STOP;
		return 0;
	}
	out->cpu_ns = cp_rng_below(&r->rng, 4) * 250; /* 0, 250, 500 or 750 */
	if (cp_rng_below(&r->rng, 2))
		out->io_until_ns = cp_blockdev_submit(r->dev, now_ns, 4096 * cp_rng_below(&r->rng, 64),
						      false);
	if (cp_rng_below(&r->rng, 4) == 0) {
		out->next = CP_STEP_SLEEP_FOR;
		out->sleep_ns = cp_rng_below(&r->rng, 3) * 1000;
	}
	return 0;
}

static const struct cp_actor_ops random_ops = { .name = "random", .step = random_step };

static void run_random(struct trace *tr)
{
	struct cp_blockdev_params p = {
		.read_bandwidth_bps = 1000000000, .write_bandwidth_bps = 1000000000,
		.read_latency_ns = 2000, .write_latency_ns = 2000,
		.max_request_bytes = 65536, .queue_depth = 4,
	};
	struct random_actor r[5];
	struct cp_blockdev dev;
	struct cp_engine *e;
	unsigned i, id;

	assert_int_equal(cp_blockdev_init(&dev, &p, NULL), 0);
	assert_int_equal(cp_engine_create(&e, 2), 0);
	for (i = 0; i < 5; i++) {
		cp_rng_init(&r[i].rng, 7, i);
		r[i].dev = &dev;
		r[i].trace = tr;
		r[i].nr_left = 40;
		assert_int_equal(cp_engine_add_actor(e, &random_ops, &r[i], 0, &id), 0);
		r[i].id = id;
	}
	assert_int_equal(run(e), 0);
	cp_engine_destroy(e);
	cp_blockdev_release(&dev);
}

/* Same inputs, same order; and time never goes back. */
static void same_inputs_give_the_same_step_order(void **state)
{
	struct trace t1 = { .nr = 0 }, t2 = { .nr = 0 };
	unsigned i;

	(void)state;
	run_random(&t1);
	run_random(&t2);
	assert_int_equal(t1.nr, 5 * 41);
	assert_int_equal(t1.nr, t2.nr);
	assert_memory_equal(t1.ev, t2.ev, t1.nr * sizeof(t1.ev[0]));
	for (i = 1; i < t1.nr; i++)
		assert_true(t1.ev[i].t >= t1.ev[i - 1].t);
}

/* ---- CPU sharing -------------------------------------------------------- */

/* 3 runnable actors on 2 CPUs each get 2/3 of a CPU: 1 ms of CPU work
 * takes 1 ms x 3 / 2 = 1.5 ms. */
static void three_actors_on_two_cpus_stretch_work_by_half(void **state)
{
	struct script s[3];
	struct cp_actor_stats st;
	struct cp_engine *e;
	unsigned i;

	(void)state;
	assert_int_equal(cp_engine_create(&e, 2), 0);
	for (i = 0; i < 3; i++) {
		script_init(&s[i], NULL);
		script_push(&s[i], 1 * MS, CP_STEP_STOP, 0);
		add(e, &s[i], 0);
	}
	assert_int_equal(run(e), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(s[i].stopped_ns, 1500 * 1000);
		cp_engine_actor_stats(e, i, &st);
		assert_int_equal(st.cpu_ns, 1 * MS);
		assert_int_equal(st.cpu_wall_ns, 1500 * 1000);
	}
	cp_engine_destroy(e);
}

/* Autogroup (sched_share.c): a kernel thread beside four tasks of the
 * run's group on 2 CPUs gets 2/3 of a CPU, each task 1/3. The thread's
 * 2 ms take 3 ms; by then each task has had 1 ms of its 4, and the
 * four then share both CPUs at 1/2: 3 ms more each take 6 ms, to 9 ms.
 * Without autogroup all five get 2/5: the thread's 2 ms take 5 ms, the
 * tasks' remaining 2 ms at 1/2 end at 9 ms too (the CPUs stay full). */
static void autogroup_gives_a_kthread_the_groups_per_cpu_share(void **state)
{
	struct script s[5];
	struct cp_actor_stats st;
	struct cp_engine *e;
	unsigned i, on;

	(void)state;
	for (on = 0; on < 2; on++) {
		assert_int_equal(cp_engine_create(&e, 2), 0);
		cp_engine_set_autogroup(e, on);
		for (i = 0; i < 5; i++) {
			script_init(&s[i], NULL);
			script_push(&s[i], i == 0 ? 2 * MS : 4 * MS, CP_STEP_STOP, 0);
			add(e, &s[i], i == 0 ? CP_ACTOR_KTHREAD : 0);
		}
		assert_int_equal(run(e), 0);
		cp_engine_actor_stats(e, 0, &st);
		assert_int_equal(st.cpu_wall_ns, on ? 3 * MS : 5 * MS);
		assert_int_equal(s[0].stopped_ns, on ? 3 * MS : 5 * MS);
		for (i = 1; i < 5; i++)
			assert_int_equal(s[i].stopped_ns, 9 * MS);
		cp_engine_destroy(e);
	}
}

/* Without CP_ACTOR_KTHREAD an actor is one of the group's tasks: five
 * tasks share 2 CPUs equally with autogroup on. */
static void autogroup_without_kthreads_shares_equally(void **state)
{
	struct script s[5];
	struct cp_engine *e;
	unsigned i;

	(void)state;
	assert_int_equal(cp_engine_create(&e, 2), 0);
	cp_engine_set_autogroup(e, true);
	for (i = 0; i < 5; i++) {
		script_init(&s[i], NULL);
		script_push(&s[i], 2 * MS, CP_STEP_STOP, 0);
		add(e, &s[i], 0);
	}
	assert_int_equal(run(e), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(s[i].stopped_ns, 5 * MS);
	cp_engine_destroy(e);
}

/* cp_engine_set_light_share(): two tasks and two light ones at 4/5 on 2
 * CPUs, 900 ms of work each. Together the tasks go at 5/9 of a CPU, the
 * light ones at 4/9 (sched_share.c): the tasks end at 900 / (5/9) =
 * 1620 ms, the light ones have done 720 ms then and finish the last 180
 * ms alone on the two CPUs, at 1800 ms. Flags: light and kthread at
 * once, or a bad fraction, are refused. */
static void light_tasks_progress_at_their_share(void **state)
{
	struct script s[4];
	struct cp_engine *e;
	unsigned i, id;

	(void)state;
	assert_int_equal(cp_engine_create(&e, 2), 0);
	assert_int_equal(cp_engine_set_light_share(e, 0, 5), -CP_EINVAL);
	assert_int_equal(cp_engine_set_light_share(e, 6, 5), -CP_EINVAL);
	assert_int_equal(cp_engine_set_light_share(e, 4, 5), 0);
	for (i = 0; i < 4; i++) {
		script_init(&s[i], NULL);
		script_push(&s[i], 900 * MS, CP_STEP_STOP, 0);
		add(e, &s[i], i >= 2 ? CP_ACTOR_LIGHT : 0);
	}
	assert_int_equal(cp_engine_add_actor(e, &script_ops, &s[0],
					     CP_ACTOR_LIGHT | CP_ACTOR_KTHREAD, &id),
			 -CP_EINVAL);
	assert_int_equal(run(e), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(s[i].stopped_ns, i >= 2 ? 1800 * MS : 1620 * MS);
	cp_engine_destroy(e);
}

/* cp_engine_set_host_io_share(): the device's emulation takes 1/2 of a
 * host CPU while it transfers (until 400 ms) and both CPUs are busy. Two
 * tasks of 1000 ms on 2 CPUs go at (2 - 1/2) / 2 = 3/4 until 400 ms
 * (300 ms done), then at 1: they end at 400 + 700 = 1100 ms. One task
 * alone leaves a CPU idle for the host: it ends at 1000 ms. Samples
 * between change nothing. A share of 1 or more, or a zero denominator,
 * is refused. */
static int count_samples(struct cp_engine *e, void *priv, uint64_t t_ns)
{
	(void)e;
	(void)t_ns;
	(*(unsigned *)priv)++;
	return 0;
}

static void busy_cpus_give_the_device_its_host_share(void **state)
{
	struct script s[2];
	struct cp_engine *e;
	unsigned i, n, nr_samples = 0;

	(void)state;
	for (n = 1; n <= 3; n++) {
		assert_int_equal(cp_engine_create(&e, 2), 0);
		if (n == 3) {
			/* again with samples every 150 ms: the end of the
			 * transfers falls between two of them */
			assert_int_equal(cp_engine_set_sampler(e, 150 * MS, count_samples,
							       &nr_samples), 0);
		}
		assert_int_equal(cp_engine_set_host_io_share(e, 1, 1), -CP_EINVAL);
		assert_int_equal(cp_engine_set_host_io_share(e, 1, 0), -CP_EINVAL);
		assert_int_equal(cp_engine_set_host_io_share(e, 1, 2), 0);
		cp_engine_host_io_until(e, 400 * MS);
		for (i = 0; i < (n == 1 ? 1u : 2u); i++) {
			script_init(&s[i], NULL);
			script_push(&s[i], 1000 * MS, CP_STEP_STOP, 0);
			add(e, &s[i], 0);
		}
		assert_int_equal(run(e), 0);
		for (i = 0; i < (n == 1 ? 1u : 2u); i++)
			assert_int_equal(s[i].stopped_ns, n == 1 ? 1000 * MS : 1100 * MS);
		assert_int_equal(cp_engine_cpu_busy_ns(e), (n == 1 ? 1 : 2) * 1000 * MS);
		cp_engine_destroy(e);
	}
	/* 0, 150, ..., 1050 ms and the run's end */
	assert_int_equal(nr_samples, 9);
}

/* The CPUs' busy time is the work the steps reported, not the time
 * sharing stretched it to: 3 actors of 1 ms each on 2 CPUs keep them
 * busy 3 ms (over 1.5 ms of wall time, both CPUs full). */
static void cpu_busy_is_the_work_of_every_step_unstretched(void **state)
{
	struct script s[3];
	struct cp_engine *e;
	unsigned i;

	(void)state;
	assert_int_equal(cp_engine_create(&e, 2), 0);
	assert_int_equal(cp_engine_cpu_busy_ns(e), 0);
	for (i = 0; i < 3; i++) {
		script_init(&s[i], NULL);
		script_push(&s[i], 1 * MS, i == 0 ? CP_STEP_CONTINUE : CP_STEP_STOP, 0);
		if (i == 0)
			script_push(&s[i], 2 * MS, CP_STEP_STOP, 0);
		add(e, &s[i], 0);
	}
	assert_int_equal(run(e), 0);
	assert_int_equal(cp_engine_cpu_busy_ns(e), 5 * MS);
	cp_engine_destroy(e);
}

/* No sharing while runnable <= CPUs: 2 actors on 2 CPUs take 1 ms. */
static void actors_up_to_cpu_count_run_at_full_speed(void **state)
{
	struct script s[2];
	struct cp_engine *e;
	unsigned i;

	(void)state;
	assert_int_equal(cp_engine_create(&e, 2), 0);
	for (i = 0; i < 2; i++) {
		script_init(&s[i], NULL);
		script_push(&s[i], 1 * MS, CP_STEP_STOP, 0);
		add(e, &s[i], 0);
	}
	assert_int_equal(run(e), 0);
	assert_int_equal(s[0].stopped_ns, 1 * MS);
	assert_int_equal(s[1].stopped_ns, 1 * MS);
	cp_engine_destroy(e);
}

/* The share changes as actors come and go. A and B have 1 ms of work,
 * C 0.5 ms, 2 CPUs. While 3 run each gets 2/3: C's 0.5 ms is done at
 * 0.75 ms, when A and B have 0.5 ms left; alone on their CPUs they
 * finish at 0.75 + 0.5 = 1.25 ms. */
static void cpu_share_follows_the_runnable_count(void **state)
{
	struct script a, b, c;
	struct cp_engine *e;

	(void)state;
	script_init(&a, NULL);
	script_init(&b, NULL);
	script_init(&c, NULL);
	script_push(&a, 1000000, CP_STEP_STOP, 0);
	script_push(&b, 1000000, CP_STEP_STOP, 0);
	script_push(&c, 500000, CP_STEP_STOP, 0);
	assert_int_equal(cp_engine_create(&e, 2), 0);
	add(e, &a, 0);
	add(e, &b, 0);
	add(e, &c, 0);
	assert_int_equal(run(e), 0);
	assert_int_equal(c.stopped_ns, 750000);
	assert_int_equal(a.stopped_ns, 1250000);
	assert_int_equal(b.stopped_ns, 1250000);
	cp_engine_destroy(e);
}

/* Waiting for I/O or sleeping is not runnable. A sleeps 1 ms first; B
 * and C share 2 CPUs alone until then: 1 ms of work each, done at 1 ms.
 * A then works 1 ms alone: done at 2 ms. */
static void sleeping_actors_do_not_take_a_cpu_share(void **state)
{
	struct script a, b, c;
	struct cp_engine *e;

	(void)state;
	script_init(&a, NULL);
	script_init(&b, NULL);
	script_init(&c, NULL);
	script_push(&a, 0, CP_STEP_SLEEP_FOR, 1 * MS);
	script_push(&a, 1 * MS, CP_STEP_STOP, 0);
	script_push(&b, 1 * MS, CP_STEP_STOP, 0);
	script_push(&c, 1 * MS, CP_STEP_STOP, 0);
	assert_int_equal(cp_engine_create(&e, 2), 0);
	add(e, &a, 0);
	add(e, &b, 0);
	add(e, &c, 0);
	assert_int_equal(run(e), 0);
	assert_int_equal(b.stopped_ns, 1 * MS);
	assert_int_equal(c.stopped_ns, 1 * MS);
	assert_int_equal(a.stopped_ns, 2 * MS);
	cp_engine_destroy(e);
}

/* Stopping an actor in the middle of its CPU work frees its share. One
 * CPU; A and B have 1000 ns of work each and run at half speed until C
 * stops B at 500 (each has had 250 ns). A, alone, needs 750 ns more:
 * done at 1250. */
static void stopped_actor_gives_back_its_cpu_share(void **state)
{
	struct script a, b, c;
	struct cp_engine *e;

	(void)state;
	script_init(&a, NULL);
	script_init(&b, NULL);
	script_init(&c, NULL);
	script_push(&a, 1000, CP_STEP_STOP, 0);
	script_push(&b, 1000, CP_STEP_STOP, 0);
	script_push(&c, 0, CP_STEP_SLEEP_UNTIL, 500);
	script_push(&c, 0, CP_STEP_STOP, 0);
	c.stop[1] = 1 + 1;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &a, 0);
	add(e, &b, 0);
	add(e, &c, 0);
	assert_int_equal(run(e), 0);
	assert_int_equal(b.stopped_ns, 500);
	assert_int_equal(a.stopped_ns, 1250);
	assert_int_equal(b.nr_stopped, 1);
	cp_engine_destroy(e);
}

/* ---- I/O ----------------------------------------------------------------- */

/* A step's I/O runs while its CPU work does: done at the later of the
 * two. Step 1: 100 ns CPU, I/O until 1000 -> next step at 1000. Step 2:
 * 2000 ns CPU, I/O until 1500 -> next step at 3000. */
static void step_ends_when_both_cpu_and_io_are_done(void **state)
{
	static const unsigned ids[] = { 0, 0, 0 };
	static const uint64_t ts[] = { 0, 1000, 3000 };
	struct trace tr = { .nr = 0 };
	struct cp_actor_stats st;
	struct script s;
	struct cp_engine *e;

	(void)state;
	script_init(&s, &tr);
	script_push(&s, 100, CP_STEP_CONTINUE, 0);
	s.steps[0].io_until_ns = 1000;
	script_push(&s, 2000, CP_STEP_CONTINUE, 0);
	s.steps[1].io_until_ns = 1500;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &s, 0);
	assert_int_equal(run(e), 0);
	assert_trace(&tr, ids, ts, 3);
	cp_engine_actor_stats(e, 0, &st);
	assert_int_equal(st.io_wait_ns, 900); /* 100 -> 1000 */
	assert_int_equal(st.nr_steps, 3);
	cp_engine_destroy(e);
}

/* ---- sleep and wake-up ------------------------------------------------- */

/* kswapd-like daemon, starts blocked. The allocator steps every 1000 ns
 * (1000 ns of CPU, 2 CPUs) and wakes kswapd at its step at t=1000.
 * kswapd runs at 1000 (after the waker), works 300 ns, blocks again and
 * stays blocked; the run ends with the allocator at 3000. */
static void blocked_daemon_runs_when_woken_and_blocks_again(void **state)
{
	static const unsigned ids[] = { 1, 1, 0, 1, 1 };
	static const uint64_t ts[] = { 0, 1000, 1000, 2000, 3000 };
	struct trace tr = { .nr = 0 };
	struct script alloc, kswapd;
	struct cp_engine *e;

	(void)state;
	script_init(&kswapd, &tr);
	script_init(&alloc, &tr);
	script_push(&kswapd, 300, CP_STEP_BLOCK, 0);
	script_push(&kswapd, 300, CP_STEP_BLOCK, 0);
	script_push(&alloc, 1000, CP_STEP_CONTINUE, 0);
	script_push(&alloc, 1000, CP_STEP_CONTINUE, 0);
	alloc.wake[1] = 0 + 1; /* kswapd is actor 0 */
	script_push(&alloc, 1000, CP_STEP_CONTINUE, 0);
	assert_int_equal(cp_engine_create(&e, 2), 0);
	add(e, &kswapd, CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED);
	add(e, &alloc, 0);
	assert_int_equal(cp_engine_actor_state(e, 0), CP_ACTOR_BLOCKED);
	assert_int_equal(run(e), 0);
	assert_trace(&tr, ids, ts, 5);
	assert_int_equal(cp_engine_end_reason(e), CP_END_FINISHED);
	assert_int_equal(kswapd.pos, 1);        /* one balance pass */
	assert_int_equal(kswapd.nr_stopped, 1); /* stopped at the end of the run */
	assert_int_equal(kswapd.stopped_ns, 3000);
	cp_engine_destroy(e);
}

/* A wake-up during kswapd's step is not lost. The allocator wakes it at
 * 1000 and again at 1100, while kswapd works (300 ns: 1000..1300).
 * kswapd does not block at 1300 but runs again (1300..1600), then
 * blocks. Trace: alloc 0, alloc 1000, kswapd 1000, alloc 1100,
 * kswapd 1300, alloc 2000 (its last step, STOP). */
static void wake_during_a_step_prevents_the_next_block(void **state)
{
	static const unsigned ids[] = { 1, 1, 0, 1, 0, 1 };
	static const uint64_t ts[] = { 0, 1000, 1000, 1100, 1300, 2000 };
	struct trace tr = { .nr = 0 };
	struct script alloc, kswapd;
	struct cp_engine *e;

	(void)state;
	script_init(&kswapd, &tr);
	script_init(&alloc, &tr);
	script_push(&kswapd, 300, CP_STEP_BLOCK, 0);
	script_push(&kswapd, 300, CP_STEP_BLOCK, 0);
	script_push(&kswapd, 300, CP_STEP_BLOCK, 0);
	script_push(&alloc, 0, CP_STEP_SLEEP_UNTIL, 1000);
	script_push(&alloc, 100, CP_STEP_CONTINUE, 0);
	alloc.wake[1] = 0 + 1;
	script_push(&alloc, 0, CP_STEP_SLEEP_UNTIL, 2000);
	alloc.wake[2] = 0 + 1;
	assert_int_equal(cp_engine_create(&e, 4), 0);
	add(e, &kswapd, CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED);
	add(e, &alloc, 0);
	assert_int_equal(run(e), 0);
	assert_trace(&tr, ids, ts, 6);
	assert_int_equal(kswapd.pos, 2);
	cp_engine_destroy(e);
}

/* The reclaim model's engine wake-up (cp_reclaim.wake_kswapd) is void (*)(void *priv): the
 * waker adapter lets it wake an engine actor from inside another
 * actor's step, which cp_engine_current() names. */
struct hooked {
	struct cp_engine_waker waker;
	void (*hook)(void *priv);
	int current_seen;
	unsigned nr_steps;
};

static int hooked_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct hooked *h = priv;

	(void)now_ns;
	h->current_seen = cp_engine_current(e);
	if (h->nr_steps++ == 1)
		h->hook(&h->waker); /* as cp_mem_alloc() would, below the low watermark */
	out->cpu_ns = 100;
	out->next = h->nr_steps == 3 ? CP_STEP_STOP : CP_STEP_CONTINUE;
	return 0;
}

static void waker_adapter_wakes_the_named_actor(void **state)
{
	static const struct cp_actor_ops ops = { .name = "allocator", .step = hooked_step };
	static const unsigned ids[] = { 0 };
	static const uint64_t ts[] = { 100 };
	struct trace tr = { .nr = 0 };
	struct script kswapd;
	struct hooked h = { .hook = cp_engine_waker_wake, .current_seen = -2 };
	struct cp_engine *e;
	unsigned id;

	(void)state;
	script_init(&kswapd, &tr);
	script_push(&kswapd, 10, CP_STEP_BLOCK, 0);
	assert_int_equal(cp_engine_create(&e, 2), 0);
	add(e, &kswapd, CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED);
	assert_int_equal(cp_engine_add_actor(e, &ops, &h, 0, &id), 0);
	h.waker = (struct cp_engine_waker){ e, 0 };
	assert_int_equal(cp_engine_current(e), -1);
	assert_int_equal(run(e), 0);
	assert_trace(&tr, ids, ts, 1); /* woken by the allocator's second step */
	assert_int_equal(h.current_seen, 1);
	cp_engine_destroy(e);
}

/* A sleeping actor (sleep_for 100 ms, like kswapd's short nap) woken at
 * 30 ms runs at 30 ms; the cancelled timer does not give it an extra
 * step at 100 ms. */
static void wake_cuts_a_timed_sleep_short(void **state)
{
	static const unsigned ids[] = { 0, 1, 1, 0, 1 };
	static const uint64_t ts[] = { 0, 0, 30 * MS, 30 * MS, 500 * MS };
	struct trace tr = { .nr = 0 };
	struct script sleeper, waker;
	struct cp_engine *e;

	(void)state;
	script_init(&sleeper, &tr);
	script_init(&waker, &tr);
	script_push(&sleeper, 0, CP_STEP_SLEEP_FOR, 100 * MS);
	script_push(&sleeper, 0, CP_STEP_BLOCK, 0);
	script_push(&waker, 0, CP_STEP_SLEEP_UNTIL, 30 * MS);
	script_push(&waker, 0, CP_STEP_SLEEP_UNTIL, 500 * MS);
	waker.wake[1] = 1;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &sleeper, CP_ACTOR_DAEMON);
	add(e, &waker, 0);
	assert_int_equal(run(e), 0);
	assert_trace(&tr, ids, ts, 5);
	assert_int_equal(sleeper.pos, 2);
	cp_engine_destroy(e);
}

/* ---- stop conditions --------------------------------------------------- */

/* fs_mark-like creator: 5 steps of 1000 ns, then stops at 5000. Two
 * endless readers are stopped with it; a blocked daemon at the end. */
static void finishing_actor_stops_its_dependants(void **state)
{
	struct script creator, r1, r2, kswapd;
	struct cp_engine *e;
	unsigned i, c, a, b;

	(void)state;
	script_init(&creator, NULL);
	script_init(&r1, NULL);
	script_init(&r2, NULL);
	script_init(&kswapd, NULL);
	for (i = 0; i < 5; i++)
		script_push(&creator, 1000, CP_STEP_CONTINUE, 0);
	script_push(&r1, 300, CP_STEP_CONTINUE, 0);
	r1.repeat_last = true;
	script_push(&r2, 700, CP_STEP_CONTINUE, 0);
	r2.repeat_last = true;
	script_push(&kswapd, 10, CP_STEP_BLOCK, 0);
	assert_int_equal(cp_engine_create(&e, 4), 0);
	c = add(e, &creator, 0);
	a = add(e, &r1, 0);
	b = add(e, &r2, 0);
	add(e, &kswapd, CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED);
	assert_int_equal(cp_engine_stop_on_finish(e, c, a), 0);
	assert_int_equal(cp_engine_stop_on_finish(e, c, b), 0);
	assert_int_equal(cp_engine_stop_on_finish(e, c, 99), -CP_EINVAL);
	assert_int_equal(run(e), 0);
	assert_int_equal(cp_engine_end_reason(e), CP_END_FINISHED);
	assert_int_equal(cp_engine_now(e), 5000);
	assert_int_equal(creator.stopped_ns, 5000);
	assert_int_equal(r1.stopped_ns, 5000);
	assert_int_equal(r2.stopped_ns, 5000);
	assert_int_equal(kswapd.stopped_ns, 5000);
	/* each stopped exactly once */
	assert_int_equal(creator.nr_stopped + r1.nr_stopped + r2.nr_stopped + kswapd.nr_stopped, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(cp_engine_actor_state(e, i), CP_ACTOR_STOPPED);
	cp_engine_destroy(e);
}

/* Rules chain: A stops B, B stops C (and C stops A: no loop). */
static void stop_rules_chain(void **state)
{
	struct script s[3];
	struct cp_engine *e;
	unsigned i;

	(void)state;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	for (i = 0; i < 3; i++) {
		script_init(&s[i], NULL);
		script_push(&s[i], i == 0 ? 100 : 1000, CP_STEP_CONTINUE, 0);
		s[i].repeat_last = i != 0;
		add(e, &s[i], 0);
	}
	assert_int_equal(cp_engine_stop_on_finish(e, 0, 1), 0);
	assert_int_equal(cp_engine_stop_on_finish(e, 1, 2), 0);
	assert_int_equal(cp_engine_stop_on_finish(e, 2, 0), 0);
	assert_int_equal(run(e), 0);
	/* 1 CPU, 3 runnable: A's 100 ns take 300 ns; A's second step
	 * returns STOP at once -> all stop at 300 */
	for (i = 0; i < 3; i++) {
		assert_int_equal(s[i].nr_stopped, 1);
		assert_int_equal(s[i].stopped_ns, 300);
	}
	cp_engine_destroy(e);
}

/* One CPU, one actor taking 1000 ns steps for ever. */
static struct cp_engine *endless_steps(struct script *s)
{
	struct cp_engine *e;

	script_init(s, NULL);
	script_push(s, 1000, CP_STEP_CONTINUE, 0);
	s->repeat_last = true;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, s, 0);
	return e;
}

/* An endless actor (1000 ns per step) under a 10500 ns limit: steps at
 * 0, 1000, ..., 10000 (11), cut off at 10500. */
static void time_limit_ends_the_run(void **state)
{
	struct script s;
	struct cp_engine *e;

	(void)state;
	e = endless_steps(&s);
	cp_engine_set_time_limit(e, 10500);
	assert_int_equal(run(e), 0);
	assert_int_equal(cp_engine_end_reason(e), CP_END_TIME_LIMIT);
	assert_int_equal(cp_engine_now(e), 10500);
	assert_int_equal(cp_engine_nr_steps(e), 11);
	assert_int_equal(s.stopped_ns, 10500);
	assert_int_equal(s.nr_stopped, 1);
	cp_engine_destroy(e);
}

/* ---- cancel (a caller told to stop, e.g. by a signal) -------------------- */

struct cancel_probe {
	unsigned calls;
	unsigned stop_at_call; /* 0: never */
};

static int cancel_probe(void *priv)
{
	struct cancel_probe *p = priv;

	p->calls++;
	return p->stop_at_call && p->calls >= p->stop_at_call;
}

/* Asked before the first turn and every CP_ENGINE_CANCEL_TURNS turns:
 * saying yes at the third question (turn 2 x CP_ENGINE_CANCEL_TURNS)
 * ends the run with -CP_EINTR, every actor stopped. */
static void cancel_ends_the_run_at_a_question(void **state)
{
	struct cancel_probe p = { 0, 3 };
	struct script s;
	struct cp_engine *e;
	struct cp_diag d = { "" };

	(void)state;
	e = endless_steps(&s);
	cp_engine_set_time_limit(e, 1000 * SEC);
	cp_engine_set_cancel(e, cancel_probe, &p);
	assert_int_equal(cp_engine_run(e, &d), -CP_EINTR);
	assert_int_equal(p.calls, 3);
	assert_non_null(strstr(d.msg, "cancelled"));
	assert_int_equal(cp_engine_end_reason(e), CP_END_NONE);
	/* turns 0 .. 2 x CP_ENGINE_CANCEL_TURNS - 1 ran: at most one step each */
	assert_true(cp_engine_nr_steps(e) <= 2 * CP_ENGINE_CANCEL_TURNS);
	assert_true(cp_engine_nr_steps(e) > CP_ENGINE_CANCEL_TURNS / 2);
	assert_int_equal(s.nr_stopped, 1);
	cp_engine_destroy(e);
}

/* A cancel function that never says yes changes nothing: the run of
 * time_limit_ends_the_run, step for step. */
static void cancel_never_asked_to_stop_changes_nothing(void **state)
{
	struct cancel_probe p = { 0, 0 };
	struct script s;
	struct cp_engine *e;

	(void)state;
	e = endless_steps(&s);
	cp_engine_set_time_limit(e, 10500);
	cp_engine_set_cancel(e, cancel_probe, &p);
	assert_int_equal(run(e), 0);
	assert_int_equal(p.calls, 1); /* turn 0 only: the run is shorter than a period */
	assert_int_equal(cp_engine_end_reason(e), CP_END_TIME_LIMIT);
	assert_int_equal(cp_engine_now(e), 10500);
	assert_int_equal(cp_engine_nr_steps(e), 11);
	assert_int_equal(s.stopped_ns, 10500);
	cp_engine_destroy(e);
}

/* ---- errors -------------------------------------------------------------- */

static void actor_blocked_forever_is_reported(void **state)
{
	struct script s;
	struct cp_engine *e;
	struct cp_diag d = { "" };

	(void)state;
	script_init(&s, NULL);
	script_push(&s, 10, CP_STEP_BLOCK, 0);
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &s, 0);
	assert_int_equal(cp_engine_run(e, &d), -CP_EBUSY);
	assert_non_null(strstr(d.msg, "no actor can run at t=10 ns"));
	assert_int_equal(s.nr_stopped, 1); /* still stopped once */
	cp_engine_destroy(e);
}

static void step_error_ends_the_run_and_names_the_actor(void **state)
{
	struct script s;
	struct cp_engine *e;
	struct cp_diag d = { "" };

	(void)state;
	script_init(&s, NULL);
	script_push(&s, 10, CP_STEP_CONTINUE, 0);
	script_push(&s, 10, CP_STEP_CONTINUE, 0);
	s.fail_at = 1;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &s, 0);
	assert_int_equal(cp_engine_run(e, &d), -CP_ENOSPC);
	assert_string_equal(d.msg, "script: out of memory at step 1");
	assert_int_equal(cp_engine_now(e), 10);
	assert_int_equal(cp_engine_run(e, &d), -CP_EINVAL); /* only once */
	cp_engine_destroy(e);
}

static int step_fails_plain(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	(void)e;
	(void)priv;
	(void)now_ns;
	(void)out;
	return -CP_EIO;
}

static void step_error_without_message_gets_one(void **state)
{
	static const struct cp_actor_ops ops = { .name = "broken", .step = step_fails_plain };
	struct cp_engine *e;
	struct cp_diag d = { "" };
	unsigned id;

	(void)state;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	assert_int_equal(cp_engine_add_actor(e, &ops, NULL, 0, &id), 0);
	assert_int_equal(cp_engine_run(e, &d), -CP_EIO);
	assert_non_null(strstr(d.msg, "actor 'broken' (id 0) failed at t=0 ns"));
	cp_engine_destroy(e);
}

/* An actor whose steps take no time and never wait would spin forever
 * at one instant. */
static void endless_zero_time_steps_are_reported(void **state)
{
	struct script s;
	struct cp_engine *e;
	struct cp_diag d = { "" };

	(void)state;
	script_init(&s, NULL);
	script_push(&s, 0, CP_STEP_CONTINUE, 0);
	s.repeat_last = true;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &s, 0);
	assert_int_equal(cp_engine_run(e, &d), -CP_EBUSY);
	assert_non_null(strstr(d.msg, "actor 'script' (id 0) took"));
	assert_non_null(strstr(d.msg, "used no time at t=0 ns"));
	cp_engine_destroy(e);
}

/* A saturated cost (cp_work_cpu_ns() returns UINT64_MAX on overflow) is
 * an error, not a run that never ends. */
static void absurd_cpu_cost_is_refused(void **state)
{
	struct script s;
	struct cp_engine *e;
	struct cp_diag d = { "" };

	(void)state;
	script_init(&s, NULL);
	script_push(&s, UINT64_MAX, CP_STEP_CONTINUE, 0);
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &s, 0);
	assert_int_equal(cp_engine_run(e, &d), -CP_ERANGE);
	assert_non_null(strstr(d.msg, "actor 'script' (id 0) reported 18446744073709551615 ns"));
	cp_engine_destroy(e);
}

static void bad_arguments_are_refused(void **state)
{
	static const struct cp_actor_ops no_step = { .name = "x" };
	struct cp_engine *e;
	unsigned id = 77;

	(void)state;
	assert_int_equal(cp_engine_create(&e, 0), -CP_EINVAL);
	assert_int_equal(cp_engine_create(&e, 1), 0);
	assert_int_equal(cp_engine_add_actor(e, &no_step, NULL, 0, &id), -CP_EINVAL);
	assert_int_equal(cp_engine_add_actor(e, &script_ops, NULL, 0x80, &id), -CP_EINVAL);
	assert_int_equal(cp_engine_add_timer(e, &script_ops, NULL, 0, 0, &id), -CP_EINVAL);
	assert_int_equal(cp_engine_add_timer(e, &script_ops, NULL, MS, CP_ACTOR_DAEMON, &id),
			 -CP_EINVAL);
	assert_int_equal(cp_engine_set_sampler(e, 0, NULL, NULL), -CP_EINVAL);
	assert_int_equal(id, 77);
	assert_int_equal(cp_engine_nr_actors(e), 0);
	cp_engine_destroy(e);
	cp_engine_destroy(NULL);
}

/* ---- periodic timers ------------------------------------------------------ */

/* A worker every 5 s (XFS background reclaim), 1 ms of CPU each, requeued
 * 5 s after it finishes: runs at 5 s and 10.001 s; the run ends when the
 * only worker actor stops at 12 s. */
static void periodic_timer_requeues_after_its_work(void **state)
{
	static const unsigned ids[] = { 1, 0, 0, 1 };
	static const uint64_t ts[] = { 0, 5 * SEC, 10 * SEC + 1 * MS, 12 * SEC };
	struct trace tr = { .nr = 0 };
	struct script timer, main_actor;
	struct cp_engine *e;
	unsigned id;

	(void)state;
	script_init(&timer, &tr);
	script_init(&main_actor, &tr);
	script_push(&timer, 1 * MS, CP_STEP_CONTINUE, 0);
	timer.repeat_last = true;
	script_push(&main_actor, 0, CP_STEP_SLEEP_UNTIL, 12 * SEC);
	assert_int_equal(cp_engine_create(&e, 2), 0);
	assert_int_equal(cp_engine_add_timer(e, &script_ops, &timer, 5 * SEC, 0, &id), 0);
	timer.id = id;
	add(e, &main_actor, 0);
	assert_int_equal(cp_engine_actor_state(e, 0), CP_ACTOR_SLEEPING);
	assert_int_equal(run(e), 0);
	assert_trace(&tr, ids, ts, 4);
	assert_int_equal(timer.nr_stopped, 1);
	cp_engine_destroy(e);
}

/* ---- sampling --------------------------------------------------------------- */

struct sample_ctx {
	struct cp_series series;
	struct cp_engine *e;
	uint64_t stop_at_ns; /* 0: never */
};

static int sample_steps(struct cp_engine *e, void *priv, uint64_t t_ns)
{
	struct sample_ctx *c = priv;
	int64_t row[2] = { (int64_t)t_ns, (int64_t)cp_engine_nr_steps(e) };

	assert_int_equal(cp_engine_now(e), t_ns);
	if (c->stop_at_ns && t_ns >= c->stop_at_ns)
		cp_engine_stop(e);
	return cp_series_add_row(&c->series, row);
}

/* Steps of 50 ms CPU start at 0, 50, 100, 150, 200 ms; the actor stops
 * at 250 ms. Rows every 100 ms and at the end: t = 0, 100, 200, 250 ms.
 * A row sees the steps that started before its time: 0, 2, 4, 5. */
static void sampler_rows_every_interval_and_at_the_end(void **state)
{
	static const int64_t want[][2] = {
		{ 0, 0 }, { 100 * MS, 2 }, { 200 * MS, 4 }, { 250 * MS, 5 },
	};
	static const char *const cols[] = { "t_ns", "nr_steps" };
	struct sample_ctx c;
	struct script s;
	struct cp_engine *e;
	unsigned i;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(cp_series_set_columns(&c.series, cols, 2), 0);
	script_init(&s, NULL);
	for (i = 0; i < 5; i++)
		script_push(&s, 50 * MS, CP_STEP_CONTINUE, 0);
	s.steps[4].next = CP_STEP_STOP;
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &s, 0);
	assert_int_equal(cp_engine_set_sampler(e, CP_SAMPLE_INTERVAL_NS, sample_steps, &c), 0);
	assert_int_equal(run(e), 0);
	assert_int_equal(c.series.nr_rows, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(c.series.values[2 * i], want[i][0]);
		assert_int_equal(c.series.values[2 * i + 1], want[i][1]);
	}
	cp_engine_destroy(e);
	for (i = 0; i < c.series.nr_columns; i++)
		cp_free(c.series.columns[i]);
	cp_free(c.series.columns);
	cp_free(c.series.values);
}

/* Sampling goes on through idle time, all actors asleep, and the
 * sampler may end the run: stop at the 300 ms row. */
static void sampler_runs_through_idle_time_and_can_stop_the_run(void **state)
{
	static const char *const cols[] = { "t_ns", "nr_steps" };
	struct sample_ctx c;
	struct script s;
	struct cp_engine *e;
	unsigned i;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.stop_at_ns = 300 * MS;
	assert_int_equal(cp_series_set_columns(&c.series, cols, 2), 0);
	script_init(&s, NULL);
	script_push(&s, 0, CP_STEP_SLEEP_UNTIL, 10 * SEC);
	assert_int_equal(cp_engine_create(&e, 1), 0);
	add(e, &s, 0);
	assert_int_equal(cp_engine_set_sampler(e, CP_SAMPLE_INTERVAL_NS, sample_steps, &c), 0);
	assert_int_equal(run(e), 0);
	assert_int_equal(cp_engine_end_reason(e), CP_END_REQUESTED);
	assert_int_equal(cp_engine_now(e), 300 * MS);
	assert_int_equal(c.series.nr_rows, 4); /* 0, 100, 200, 300 ms */
	assert_int_equal(c.series.values[2 * 3], 300 * MS);
	assert_int_equal(s.stopped_ns, 300 * MS);
	cp_engine_destroy(e);
	for (i = 0; i < c.series.nr_columns; i++)
		cp_free(c.series.columns[i]);
	cp_free(c.series.columns);
	cp_free(c.series.values);
}

/* An actor installs the sampler from its second step (as the model does
 * when the data files are written): steps of 30 ms at 0, 30, 60, 90 ms,
 * the run ends at 120 ms. Rows from 30 ms on, every 100 ms, and at the
 * end: 30 ms and 120 ms (130 ms is past the end); the last sees all 4
 * steps. */
struct late_sampler {
	struct sample_ctx *c;
	unsigned nr_steps;
};

static int late_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct late_sampler *l = priv;

	(void)now_ns;
	if (l->nr_steps++ == 1)
		assert_int_equal(cp_engine_set_sampler(e, CP_SAMPLE_INTERVAL_NS, sample_steps, l->c),
				 0);
	out->cpu_ns = 30 * MS;
	out->next = l->nr_steps == 4 ? CP_STEP_STOP : CP_STEP_CONTINUE;
	return 0;
}

static void sampler_installed_during_the_run_starts_then(void **state)
{
	static const struct cp_actor_ops ops = { .name = "writer", .step = late_step };
	static const char *const cols[] = { "t_ns", "nr_steps" };
	struct sample_ctx c;
	struct late_sampler l = { &c, 0 };
	struct cp_engine *e;
	unsigned id, i;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(cp_series_set_columns(&c.series, cols, 2), 0);
	assert_int_equal(cp_engine_create(&e, 1), 0);
	assert_int_equal(cp_engine_add_actor(e, &ops, &l, 0, &id), 0);
	assert_int_equal(run(e), 0);
	assert_int_equal(c.series.nr_rows, 2);
	assert_int_equal(c.series.values[0], 30 * MS);
	assert_int_equal(c.series.values[2], 120 * MS);
	assert_int_equal(c.series.values[3], 4);
	cp_engine_destroy(e);
	for (i = 0; i < c.series.nr_columns; i++)
		cp_free(c.series.columns[i]);
	cp_free(c.series.columns);
	cp_free(c.series.values);
}

/* ---- allocation failures ---------------------------------------------------- */

/* Fail each allocation of setup + run in turn: every failure is
 * -CP_ENOMEM and leaks nothing (ASan build); with enough allocations
 * the run succeeds. */
static void allocation_failures_are_reported(void **state)
{
	long n;

	(void)state;
	for (n = 0; n < 200; n++) {
		struct script s[12];
		struct cp_engine *e = NULL;
		unsigned i, id;
		int rc;

		cp_alloc_fail_after(n);
		rc = cp_engine_create(&e, 2);
		for (i = 0; !rc && i < 12; i++) {
			script_init(&s[i], NULL);
			script_push(&s[i], 100 * (i + 1), CP_STEP_SLEEP_FOR, 10);
			script_push(&s[i], 100, CP_STEP_STOP, 0);
			rc = cp_engine_add_actor(e, &script_ops, &s[i], 0, &id);
		}
		if (!rc)
			rc = cp_engine_stop_on_finish(e, 0, 1);
		if (!rc)
			rc = cp_engine_run(e, NULL);
		cp_alloc_fail_after(-1);
		cp_engine_destroy(e);
		if (rc == 0)
			break;
		assert_int_equal(rc, -CP_ENOMEM);
	}
	assert_true(n > 0 && n < 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps_run_in_time_order_with_ties_in_queue_order),
		cmocka_unit_test(tie_break_follows_queueing_order_not_actor_id),
		cmocka_unit_test(same_inputs_give_the_same_step_order),
		cmocka_unit_test(three_actors_on_two_cpus_stretch_work_by_half),
		cmocka_unit_test(cpu_busy_is_the_work_of_every_step_unstretched),
		cmocka_unit_test(actors_up_to_cpu_count_run_at_full_speed),
		cmocka_unit_test(cpu_share_follows_the_runnable_count),
		cmocka_unit_test(sleeping_actors_do_not_take_a_cpu_share),
		cmocka_unit_test(stopped_actor_gives_back_its_cpu_share),
		cmocka_unit_test(step_ends_when_both_cpu_and_io_are_done),
		cmocka_unit_test(blocked_daemon_runs_when_woken_and_blocks_again),
		cmocka_unit_test(wake_during_a_step_prevents_the_next_block),
		cmocka_unit_test(wake_cuts_a_timed_sleep_short),
		cmocka_unit_test(waker_adapter_wakes_the_named_actor),
		cmocka_unit_test(finishing_actor_stops_its_dependants),
		cmocka_unit_test(stop_rules_chain),
		cmocka_unit_test(time_limit_ends_the_run),
		cmocka_unit_test(cancel_ends_the_run_at_a_question),
		cmocka_unit_test(cancel_never_asked_to_stop_changes_nothing),
		cmocka_unit_test(actor_blocked_forever_is_reported),
		cmocka_unit_test(step_error_ends_the_run_and_names_the_actor),
		cmocka_unit_test(step_error_without_message_gets_one),
		cmocka_unit_test(endless_zero_time_steps_are_reported),
		cmocka_unit_test(absurd_cpu_cost_is_refused),
		cmocka_unit_test(bad_arguments_are_refused),
		cmocka_unit_test(periodic_timer_requeues_after_its_work),
		cmocka_unit_test(autogroup_gives_a_kthread_the_groups_per_cpu_share),
		cmocka_unit_test(autogroup_without_kthreads_shares_equally),
		cmocka_unit_test(light_tasks_progress_at_their_share),
		cmocka_unit_test(busy_cpus_give_the_device_its_host_share),
		cmocka_unit_test(sampler_rows_every_interval_and_at_the_end),
		cmocka_unit_test(sampler_runs_through_idle_time_and_can_stop_the_run),
		cmocka_unit_test(sampler_installed_during_the_run_starts_then),
		cmocka_unit_test(allocation_failures_are_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
