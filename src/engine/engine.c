/*
 * engine.c - virtual time, actors, shared CPUs, sampling.
 *
 * The clock is a uint64_t count of nanoseconds from the start of the run;
 * nothing reads a wall clock. Queues drive it:
 *
 *  - the time queue holds every actor whose next event is at a known
 *    time: a step due (ready, or sleeping until then), or the end of the
 *    I/O its step waits for;
 *  - a CPU queue for each class of actor (kernel threads, tasks: below)
 *    holds that class's actors doing their step's CPU work.
 *
 * CPU sharing is processor sharing (generalised processor sharing, the
 * fluid model of a fair scheduler): with n actors doing CPU work on N
 * CPUs, each progresses at min(1, N / n) CPU-seconds per second. The
 * engine keeps the service every runnable actor has received since the
 * start (vservice_ns, the GPS "virtual time"); an actor that starts
 * c ns of CPU work when the service is V finishes when the service
 * reaches V + c. A CPU queue is ordered by that finishing service,
 * which stays valid when n changes; only the mapping from service to
 * real time changes, and it is recomputed at every event. With 3
 * runnable actors on 2 CPUs, 1 ms of CPU work takes 1.5 ms.
 *
 * The kernel's counterpart is CFS (kernel/sched/fair.c), whose vruntime
 * plays the role of the service here.
 *
 * Kernel threads (CP_ACTOR_KTHREAD: kswapd, kworkers) and the tasks of
 * the run (readers, fs_mark) are two classes, each with its own service
 * and CPU queue. Without autogroup both progress at the same rate. With
 * it (cp_engine_set_autogroup(), sched_autogroup_enabled) the run's tasks
 * are one task group and a kernel thread competes with the group's
 * per-CPU share, not with each of its tasks: sched_share.c gives the two
 * rates (a kernel thread beside four tasks on 2 CPUs: 2/3 of a CPU,
 * each task 1/3). Tasks added with CP_ACTOR_LIGHT are a third class
 * that gets cp_engine_set_light_share() of another task's rate while
 * both are runnable (sched_share.c cp_sched_split_light(): the share the
 * load balance leaves fs_mark's workers). Each class keeps the GPS
 * property: its actors progress at the same rate, so the order of its
 * queue holds when the rates change.
 *
 * A VM's virtual disk may be served by the host on the CPUs its vCPUs
 * run on (cp_engine_set_host_io_share()): while the block device
 * transfers and every CPU is busy, the CPUs give up the device's share
 * of a host CPU, every class's rate scaled by (N - share) / N
 * (sched_share.c cp_sched_host_scale()); the device gets the share of
 * its bandwidth then (cp_engine_device_rate(), sim.c device_submit()). The rates change again when the
 * transfers end (host_io_until_ns, an event of its own).
 *
 * SIMPLIFIED: no time slices, no context switch or migration cost, no
 * wake-up preemption or latency, no nice values, no CPU affinity: CPU
 * time is a fluid. An actor's model changes happen at the instant its
 * step starts; its cost only decides when it continues. I/O submitted by
 * a step overlaps with the step's CPU work.
 *
 * Order: events at equal times run in the order they were queued (a
 * sequence number in each queue entry); a due step is queued behind the
 * steps already due at that time, so actors due at the same instant take
 * turns. When a time-queue event and a CPU completion fall on the same
 * nanosecond, the time-queue event goes first.
 *
 * Cancelled queue entries (an actor woken early or stopped) are not
 * searched for: the actor's generation number changes, and entries of an
 * old generation are dropped when they reach the top of their queue.
 */
#include "engine/engine.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "engine/pq.h"
#include "engine/sched_share.h"
#include "engine/work.h"

/* Consecutive steps of one actor that take no time and are due again at
 * once before the run is declared stuck. */
#define MAX_ZERO_TIME_STEPS 1000000u

/* The most CPU work one step may report: 2^50 ns, about 13 days. Keeps
 * the service arithmetic far from overflow; a step that reports more
 * has a broken cost (a saturated cp_work_cpu_ns()). */
#define MAX_STEP_CPU_NS (1ULL << 50)

struct actor {
	const struct cp_actor_ops *ops;
	void *priv;
	unsigned flags;          /* CP_ACTOR_* */
	enum cp_actor_state state;
	uint32_t gen;            /* queue entries of another generation are stale */
	bool wake_pending;       /* woken since its current step started */
	uint64_t period_ns;      /* > 0: a periodic timer */

	/* the step in progress (from its cp_step) */
	uint64_t step_start_ns;
	uint64_t io_until_ns;
	enum cp_step_next next;
	uint64_t until_ns, sleep_ns;
	uint64_t phase_start_ns; /* start of the CPU work or of the I/O wait */
	unsigned nr_zero_steps;  /* consecutive zero-time steps */

	struct cp_actor_stats stats;
	bool copying;            /* in CP_ACTOR_CPU with a step that copies */
	unsigned cls;            /* CLS_KTHREAD, CLS_TASK or CLS_LIGHT */
};

/* The classes of actors the CPUs are shared between (sched_share.h): the
 * light tasks are the group's too, at a smaller share. */
enum { CLS_KTHREAD, CLS_TASK, CLS_LIGHT, NR_CLS };

/* One class's fluid: the service each of its runnable actors has had. */
struct cpu_class {
	struct cp_pq cpuq;       /* key: service at which an actor's CPU work is done */
	unsigned nr_runnable;    /* its actors in CP_ACTOR_CPU */
	uint64_t vservice_ns;    /* CPU service per runnable actor since start */
	uint64_t vservice_rem;   /* remainder, in 1/rate.den ns (< rate.den) */
	struct cp_share rate;    /* CPU-seconds per second of each runnable actor */
};

struct stop_rule {
	unsigned trigger, target;
};

struct cp_engine {
	uint64_t now_ns;
	unsigned nr_cpus;

	struct actor *actors;    /* owned; indexed by actor id */
	unsigned nr_actors, cap_actors;
	unsigned nr_live_workers; /* non-daemon actors not stopped */

	struct cp_pq timeq;      /* key: time of the actor's next event */
	struct cpu_class cls[NR_CLS];
	bool autogroup;          /* the tasks are one group (sched_share.h) */
	struct cp_share light;   /* a light task's rate over another task's */
	struct cp_share host_io; /* the device's share of a host CPU while every
				  * CPU is busy (0/1: the device takes none) */
	uint64_t host_io_until_ns; /* the device transfers until then */
	bool host_io_applied;    /* the rates carry host_io now */
	unsigned nr_runnable;    /* invariant: actors in CP_ACTOR_CPU, every class */
	unsigned nr_copying;     /* of those, the ones whose step copies */

	struct stop_rule *rules; /* owned */
	size_t nr_rules, cap_rules;

	uint64_t time_limit_ns;  /* 0: none */
	uint64_t sample_interval_ns;
	uint64_t next_sample_ns;
	bool sampled;            /* a sample was taken at last_sample_ns */
	uint64_t last_sample_ns;
	cp_engine_sample_fn sample_fn;
	void *sample_priv;
	cp_engine_cancel_fn cancel_fn;
	void *cancel_priv;

	int current;             /* actor in step(), or -1 */
	bool stop_requested;
	bool ran;
	enum cp_engine_end end;
	uint64_t nr_steps;
	uint64_t cpu_busy_ns;    /* CPU work of every actor's steps */
	int error;               /* first internal error (-CP_ENOMEM) */
	struct cp_diag diag;
};

/* ---- setup -------------------------------------------------------- */

int cp_engine_create(struct cp_engine **out, unsigned nr_cpus)
{
	struct cp_engine *e;
	unsigned c;

	if (!nr_cpus)
		return -CP_EINVAL;
	e = cp_calloc(1, sizeof(*e));
	if (!e)
		return -CP_ENOMEM;
	e->nr_cpus = nr_cpus;
	e->current = -1;
	e->light = (struct cp_share){ 1, 1 };
	e->host_io = (struct cp_share){ 0, 1 };
	cp_pq_init(&e->timeq);
	for (c = 0; c < NR_CLS; c++) {
		cp_pq_init(&e->cls[c].cpuq);
		e->cls[c].rate = (struct cp_share){ 1, 1 };
	}
	*out = e;
	return 0;
}

void cp_engine_destroy(struct cp_engine *e)
{
	unsigned c;

	if (!e)
		return;
	cp_pq_release(&e->timeq);
	for (c = 0; c < NR_CLS; c++)
		cp_pq_release(&e->cls[c].cpuq);
	cp_free(e->actors);
	cp_free(e->rules);
	cp_free(e);
}

/* Queue actor id's next event at t; a failure is remembered and ends the run. */
static void queue_at(struct cp_engine *e, unsigned id, uint64_t t)
{
	CP_BUG_ON(t < e->now_ns);
	if (cp_pq_push(&e->timeq, t, id, e->actors[id].gen) && !e->error)
		e->error = -CP_ENOMEM;
}

static int add_actor(struct cp_engine *e, const struct cp_actor_ops *ops, void *priv,
		     unsigned flags, uint64_t period_ns, unsigned *id)
{
	struct actor *a;
	unsigned n = e->nr_actors;

	if (!ops || !ops->name || !ops->step ||
	    (flags & ~(CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED | CP_ACTOR_KTHREAD |
		       CP_ACTOR_LIGHT)) ||
	    ((flags & CP_ACTOR_KTHREAD) && (flags & CP_ACTOR_LIGHT)))
		return -CP_EINVAL;
	if (n == e->cap_actors) {
		unsigned cap = e->cap_actors ? 2 * e->cap_actors : 8;
		struct actor *v = cp_realloc(e->actors, cap * sizeof(*v));

		if (!v)
			return -CP_ENOMEM;
		e->actors = v;
		e->cap_actors = cap;
	}
	/* reserve the queue entry first, so that failing leaves no trace */
	if (!(flags & CP_ACTOR_START_BLOCKED) &&
	    cp_pq_push(&e->timeq, e->now_ns + period_ns, n, 0))
		return -CP_ENOMEM;
	a = &e->actors[n];
	memset(a, 0, sizeof(*a));
	a->ops = ops;
	a->priv = priv;
	a->flags = flags;
	a->cls = flags & CP_ACTOR_KTHREAD ? CLS_KTHREAD
		 : flags & CP_ACTOR_LIGHT ? CLS_LIGHT
					  : CLS_TASK;
	a->period_ns = period_ns;
	if (flags & CP_ACTOR_START_BLOCKED)
		a->state = CP_ACTOR_BLOCKED;
	else
		a->state = period_ns ? CP_ACTOR_SLEEPING : CP_ACTOR_READY;
	e->nr_actors++;
	if (!(flags & CP_ACTOR_DAEMON))
		e->nr_live_workers++;
	*id = n;
	return 0;
}

int cp_engine_add_actor(struct cp_engine *e, const struct cp_actor_ops *ops, void *priv,
			unsigned flags, unsigned *id)
{
	return add_actor(e, ops, priv, flags, 0, id);
}

int cp_engine_add_timer(struct cp_engine *e, const struct cp_actor_ops *ops, void *priv,
			uint64_t period_ns, unsigned flags, unsigned *id)
{
	if (!period_ns || (flags & ~CP_ACTOR_KTHREAD))
		return -CP_EINVAL;
	return add_actor(e, ops, priv, CP_ACTOR_DAEMON | flags, period_ns, id);
}

int cp_engine_stop_on_finish(struct cp_engine *e, unsigned trigger, unsigned target)
{
	if (trigger >= e->nr_actors || target >= e->nr_actors)
		return -CP_EINVAL;
	if (e->nr_rules == e->cap_rules) {
		size_t cap = e->cap_rules ? 2 * e->cap_rules : 8;
		struct stop_rule *r = cp_realloc(e->rules, cap * sizeof(*r));

		if (!r)
			return -CP_ENOMEM;
		e->rules = r;
		e->cap_rules = cap;
	}
	e->rules[e->nr_rules++] = (struct stop_rule){ trigger, target };
	if (e->actors[trigger].state == CP_ACTOR_STOPPED)
		cp_engine_stop_actor(e, target); /* it has already finished */
	return 0;
}

void cp_engine_set_autogroup(struct cp_engine *e, bool on)
{
	CP_BUG_ON(e->nr_runnable);
	e->autogroup = on;
}

int cp_engine_set_light_share(struct cp_engine *e, uint64_t num, uint64_t den)
{
	if (!num || num > den || den > UINT32_MAX || e->nr_runnable)
		return -CP_EINVAL;
	e->light = (struct cp_share){ num, den };
	return 0;
}

int cp_engine_set_host_io_share(struct cp_engine *e, uint64_t num, uint64_t den)
{
	if (!den || num >= den || den > UINT32_MAX || e->nr_runnable)
		return -CP_EINVAL;
	e->host_io = (struct cp_share){ num, den };
	return 0;
}

void cp_engine_set_time_limit(struct cp_engine *e, uint64_t limit_ns)
{
	e->time_limit_ns = limit_ns;
}

int cp_engine_set_sampler(struct cp_engine *e, uint64_t interval_ns, cp_engine_sample_fn fn,
			  void *priv)
{
	if (!interval_ns || !fn)
		return -CP_EINVAL;
	e->sample_interval_ns = interval_ns;
	e->sample_fn = fn;
	e->sample_priv = priv;
	e->next_sample_ns = e->now_ns; /* installed during the run: from now */
	return 0;
}

void cp_engine_set_cancel(struct cp_engine *e, cp_engine_cancel_fn fn, void *priv)
{
	e->cancel_fn = fn;
	e->cancel_priv = priv;
}

/* The caller's cancel function, asked every CP_ENGINE_CANCEL_TURNS
 * turns of the run loop (turn 0 included). */
static int check_cancel(struct cp_engine *e, uint64_t turn)
{
	if (!e->cancel_fn || turn % CP_ENGINE_CANCEL_TURNS || !e->cancel_fn(e->cancel_priv))
		return 0;
	return cp_diag_set(&e->diag, -CP_EINTR, "the run was cancelled after %.3f s of model time",
			   (double)e->now_ns / 1e9);
}

void cp_engine_stop(struct cp_engine *e)
{
	e->stop_requested = true;
}

/* ---- CPU sharing ---------------------------------------------------- */

/* Gives class c's runnable actors dt ns of their rate's service. */
static void serve(struct cpu_class *c, uint64_t dt)
{
	uint64_t num = c->rate.num, den = c->rate.den;

	if (!dt || !c->nr_runnable)
		return;
	if (num == den) {
		c->vservice_ns += dt;
	} else if (dt <= (UINT64_MAX - c->vservice_rem) / num) {
		/* dt * num / den, carrying the remainder */
		uint64_t total = dt * num + c->vservice_rem;

		c->vservice_ns += total / den;
		c->vservice_rem = total % den;
	} else {
		/* a gap too long for the exact sum: drop the remainder */
		c->vservice_ns += cp_mul_div_u64(dt, num, den);
		c->vservice_rem = 0;
	}
}

/* Moves the clock to t, giving the runnable actors their CPU service. */
static void advance_to(struct cp_engine *e, uint64_t t)
{
	unsigned c;

	CP_BUG_ON(t < e->now_ns);
	for (c = 0; c < NR_CLS; c++)
		serve(&e->cls[c], t - e->now_ns);
	e->now_ns = t;
}

/* The device's emulation takes its share of the host's CPUs now: it
 * transfers, and the runnable actors fill every CPU. */
static bool host_io_applies(const struct cp_engine *e)
{
	return e->host_io.num && e->now_ns < e->host_io_until_ns && e->nr_runnable >= e->nr_cpus;
}

/* Every class's rate from the runnable counts (sched_share.c), less the
 * device's share of the host when it applies; the remainders' units
 * change with them. */
static void update_rates(struct cp_engine *e)
{
	struct cpu_class *k = &e->cls[CLS_KTHREAD], *t = &e->cls[CLS_TASK],
			 *l = &e->cls[CLS_LIGHT];
	struct cp_share task;
	unsigned c;

	cp_sched_shares(e->nr_cpus, k->nr_runnable, t->nr_runnable + l->nr_runnable, e->autogroup,
			&k->rate, &task);
	cp_sched_split_light(task, t->nr_runnable, l->nr_runnable, e->light, &t->rate, &l->rate);
	e->host_io_applied = host_io_applies(e);
	for (c = 0; c < NR_CLS; c++) {
		if (e->host_io_applied)
			e->cls[c].rate = cp_sched_host_scale(e->cls[c].rate, e->nr_cpus, e->host_io);
		e->cls[c].vservice_rem = 0;
	}
}

/* Class c's runnable count changes by delta: every class's rate changes
 * with it. */
static void set_runnable(struct cp_engine *e, unsigned c, int delta)
{
	e->cls[c].nr_runnable += (unsigned)delta;
	e->nr_runnable += (unsigned)delta;
	update_rates(e);
}

void cp_engine_host_io_until(struct cp_engine *e, uint64_t t)
{
	if (!e->host_io.num || t <= e->host_io_until_ns)
		return;
	e->host_io_until_ns = t;
	if (host_io_applies(e) != e->host_io_applied)
		update_rates(e);
}

void cp_engine_device_rate(const struct cp_engine *e, uint64_t *num, uint64_t *den)
{
	bool saturated = e->nr_runnable + (e->current >= 0) >= e->nr_cpus;

	*num = *den = 1;
	if (e->host_io.num && saturated) {
		*num = e->host_io.num;
		*den = e->host_io.den;
	}
}

/* An actor's CPU work ends (done, or the actor stopped). */
static void leave_cpu(struct cp_engine *e, struct actor *a)
{
	if (a->copying) {
		CP_BUG_ON(e->nr_copying == 0);
		e->nr_copying--;
		a->copying = false;
	}
	CP_BUG_ON(e->cls[a->cls].nr_runnable == 0);
	set_runnable(e, a->cls, -1);
}

static bool timeq_entry_valid(const struct cp_engine *e, const struct cp_pq_entry *q)
{
	const struct actor *a = &e->actors[q->id];

	return q->gen == a->gen && (a->state == CP_ACTOR_READY || a->state == CP_ACTOR_IO ||
				    a->state == CP_ACTOR_SLEEPING);
}

static bool cpuq_entry_valid(const struct cp_engine *e, const struct cp_pq_entry *q)
{
	const struct actor *a = &e->actors[q->id];

	return q->gen == a->gen && a->state == CP_ACTOR_CPU;
}

/* Drops cancelled entries from the top of every queue. */
static void drop_stale(struct cp_engine *e)
{
	const struct cp_pq_entry *top;
	struct cp_pq_entry dummy;
	unsigned c;

	while ((top = cp_pq_peek(&e->timeq)) && !timeq_entry_valid(e, top))
		cp_pq_pop(&e->timeq, &dummy);
	for (c = 0; c < NR_CLS; c++)
		while ((top = cp_pq_peek(&e->cls[c].cpuq)) && !cpuq_entry_valid(e, top))
			cp_pq_pop(&e->cls[c].cpuq, &dummy);
}

/* Time at which the first actor of class c in CPU work finishes it
 * (UINT64_MAX: none). Needs drop_stale() first. */
static uint64_t class_cpu_done(const struct cp_engine *e, const struct cpu_class *c)
{
	const struct cp_pq_entry *top = cp_pq_peek(&c->cpuq);
	uint64_t need, num = c->rate.num, den = c->rate.den;

	if (!top)
		return UINT64_MAX;
	if (top->key <= c->vservice_ns)
		return e->now_ns;
	need = top->key - c->vservice_ns;
	if (num == den)
		return e->now_ns + need;
	/* smallest dt with (dt * num + rem) / den >= need */
	if (need <= (UINT64_MAX - num) / den)
		return e->now_ns + (need * den - c->vservice_rem + num - 1) / num;
	/* too large for the exact form; one ns late at most */
	return e->now_ns + cp_mul_div_u64(need, den, num) + 1;
}

/* The class whose first CPU work ends soonest, and when (*t; UINT64_MAX:
 * none). Kernel threads first on a tie. */
static unsigned next_cpu_done(const struct cp_engine *e, uint64_t *t)
{
	unsigned c, best = 0;

	*t = UINT64_MAX;
	for (c = 0; c < NR_CLS; c++) {
		uint64_t tc = class_cpu_done(e, &e->cls[c]);

		if (tc < *t) {
			*t = tc;
			best = c;
		}
	}
	return best;
}

/* ---- actor life cycle ------------------------------------------------ */

void cp_engine_stop_actor(struct cp_engine *e, unsigned id)
{
	struct actor *a;
	size_t i;

	CP_BUG_ON(id >= e->nr_actors);
	a = &e->actors[id];
	if (a->state == CP_ACTOR_STOPPED)
		return;
	if (a->state == CP_ACTOR_CPU) {
		leave_cpu(e, a);
		a->stats.cpu_wall_ns += e->now_ns - a->phase_start_ns;
	} else if (a->state == CP_ACTOR_IO) {
		a->stats.io_wait_ns += e->now_ns - a->phase_start_ns;
	}
	a->gen++;
	a->state = CP_ACTOR_STOPPED;
	a->stats.stop_ns = e->now_ns;
	if (!(a->flags & CP_ACTOR_DAEMON))
		e->nr_live_workers--;
	if (a->ops->stopped)
		a->ops->stopped(e, a->priv, e->now_ns);
	/* a callback may add rules or actors: index, don't hold pointers */
	for (i = 0; i < e->nr_rules; i++)
		if (e->rules[i].trigger == id)
			cp_engine_stop_actor(e, e->rules[i].target);
}

void cp_engine_wake(struct cp_engine *e, unsigned id)
{
	struct actor *a;

	CP_BUG_ON(id >= e->nr_actors);
	a = &e->actors[id];
	switch (a->state) {
	case CP_ACTOR_SLEEPING:
		a->gen++; /* cancels the timed entry */
		/* fall through */
	case CP_ACTOR_BLOCKED:
		a->state = CP_ACTOR_READY;
		queue_at(e, id, e->now_ns);
		break;
	case CP_ACTOR_READY:
	case CP_ACTOR_CPU:
	case CP_ACTOR_IO:
		a->wake_pending = true;
		break;
	case CP_ACTOR_STOPPED:
		break;
	}
}

void cp_engine_waker_wake(void *priv)
{
	const struct cp_engine_waker *w = priv;

	cp_engine_wake(w->e, w->id);
}

/* The step's work (CPU and I/O) is done at now: what next. */
static int step_done(struct cp_engine *e, unsigned id)
{
	struct actor *a = &e->actors[id];
	enum cp_step_next next = a->next;
	uint64_t due = e->now_ns;

	if (a->period_ns && next == CP_STEP_CONTINUE) {
		next = CP_STEP_SLEEP_FOR;
		a->sleep_ns = a->period_ns;
	}
	switch (next) {
	case CP_STEP_CONTINUE:
		break;
	case CP_STEP_SLEEP_UNTIL:
		if (a->until_ns > due)
			due = a->until_ns;
		break;
	case CP_STEP_SLEEP_FOR:
		due = a->sleep_ns > UINT64_MAX - due ? UINT64_MAX : due + a->sleep_ns;
		break;
	case CP_STEP_BLOCK:
		due = UINT64_MAX;
		break;
	case CP_STEP_STOP:
		cp_engine_stop_actor(e, id);
		return 0;
	}
	if (a->wake_pending)
		due = e->now_ns;
	if (due == e->now_ns) {
		/* a step that took no time and is due again at once */
		if (a->step_start_ns == e->now_ns) {
			if (++a->nr_zero_steps >= MAX_ZERO_TIME_STEPS)
				return cp_diag_set(&e->diag, -CP_EBUSY,
						   "actor '%s' (id %u) took %u steps in a row that used no time at t=%llu ns",
						   a->ops->name, id, a->nr_zero_steps,
						   (unsigned long long)e->now_ns);
		} else {
			a->nr_zero_steps = 0;
		}
		a->state = CP_ACTOR_READY;
		queue_at(e, id, due);
	} else if (due == UINT64_MAX && next == CP_STEP_BLOCK) {
		a->nr_zero_steps = 0;
		a->state = CP_ACTOR_BLOCKED;
	} else {
		a->nr_zero_steps = 0;
		a->state = CP_ACTOR_SLEEPING;
		queue_at(e, id, due);
	}
	return 0;
}

/* The step's CPU work is done at now: wait for its I/O, if any. */
static int cpu_done(struct cp_engine *e, unsigned id)
{
	struct actor *a = &e->actors[id];

	if (a->io_until_ns > e->now_ns) {
		a->state = CP_ACTOR_IO;
		a->phase_start_ns = e->now_ns;
		queue_at(e, id, a->io_until_ns);
		return 0;
	}
	return step_done(e, id);
}

static int start_step(struct cp_engine *e, unsigned id)
{
	struct actor *a = &e->actors[id];
	struct cp_step out = { .next = CP_STEP_CONTINUE };
	int rc;

	a->wake_pending = false;
	a->state = CP_ACTOR_READY;
	a->step_start_ns = e->now_ns;
	e->current = (int)id;
	rc = a->ops->step(e, a->priv, e->now_ns, &out);
	e->current = -1;
	e->nr_steps++;
	a = &e->actors[id]; /* the step may have added actors */
	a->stats.nr_steps++;
	if (rc) {
		if (!e->diag.msg[0])
			cp_diag_set(&e->diag, rc, "actor '%s' (id %u) failed at t=%llu ns: %s",
				    a->ops->name, id, (unsigned long long)e->now_ns,
				    cp_strerror(rc));
		return rc;
	}
	if (a->state == CP_ACTOR_STOPPED)
		return 0; /* it stopped itself, or was stopped, during the step */
	if (out.next > CP_STEP_STOP)
		return cp_diag_set(&e->diag, -CP_EINVAL, "actor '%s' (id %u): bad next %d",
				   a->ops->name, id, (int)out.next);
	a->io_until_ns = out.io_until_ns;
	a->next = out.next;
	a->until_ns = out.until_ns;
	a->sleep_ns = out.sleep_ns;
	if (out.cpu_ns > MAX_STEP_CPU_NS)
		return cp_diag_set(&e->diag, -CP_ERANGE,
				   "actor '%s' (id %u) reported %llu ns of CPU work in one step at t=%llu ns",
				   a->ops->name, id, (unsigned long long)out.cpu_ns,
				   (unsigned long long)e->now_ns);
	if (out.cpu_ns) {
		struct cpu_class *c = &e->cls[a->cls];

		if (cp_pq_push(&c->cpuq, c->vservice_ns + out.cpu_ns, id, a->gen))
			return -CP_ENOMEM;
		a->stats.cpu_ns += out.cpu_ns;
		e->cpu_busy_ns += out.cpu_ns;
		a->state = CP_ACTOR_CPU;
		a->phase_start_ns = e->now_ns;
		a->copying = out.copies;
		e->nr_copying += out.copies;
		set_runnable(e, a->cls, 1);
		return 0;
	}
	return cpu_done(e, id);
}

/* ---- the run ---------------------------------------------------------- */

static int take_sample(struct cp_engine *e, uint64_t t)
{
	int rc;

	advance_to(e, t);
	rc = e->sample_fn(e, e->sample_priv, t);
	e->sampled = true;
	e->last_sample_ns = t;
	if (rc && !e->diag.msg[0])
		cp_diag_set(&e->diag, rc, "sampler failed at t=%llu ns: %s", (unsigned long long)t,
			    cp_strerror(rc));
	return rc;
}

/* Samples due up to and including t. */
static int samples_until(struct cp_engine *e, uint64_t t)
{
	int rc;

	if (!e->sample_fn)
		return 0;
	while (e->next_sample_ns <= t && !e->stop_requested) {
		rc = take_sample(e, e->next_sample_ns);
		if (rc)
			return rc;
		e->next_sample_ns += e->sample_interval_ns;
	}
	return 0;
}

/* One event: the earliest of the time queue and the CPU queue. Sets
 * *done when the run is over. */
static int run_one(struct cp_engine *e, bool *done)
{
	const struct cp_pq_entry *top;
	struct cp_pq_entry ev;
	struct actor *a;
	uint64_t t_time, t_cpu, t;
	unsigned c;
	int rc;

	drop_stale(e);
	top = cp_pq_peek(&e->timeq);
	t_time = top ? top->key : UINT64_MAX;
	c = next_cpu_done(e, &t_cpu);
	t = t_time <= t_cpu ? t_time : t_cpu;
	if (e->host_io_applied && e->host_io_until_ns < t && t != UINT64_MAX &&
	    (!e->time_limit_ns || e->host_io_until_ns < e->time_limit_ns)) {
		/* the device's transfers end first: the CPUs get their whole
		 * rate back then, after the samples due up to that moment */
		if (e->sample_fn && e->next_sample_ns <= e->host_io_until_ns)
			return samples_until(e, e->host_io_until_ns);
		advance_to(e, e->host_io_until_ns);
		update_rates(e);
		return 0;
	}
	if (t == UINT64_MAX)
		return cp_diag_set(&e->diag, -CP_EBUSY,
				   "no actor can run at t=%llu ns: %u actor(s) the run waits for are blocked",
				   (unsigned long long)e->now_ns, e->nr_live_workers);
	if (e->time_limit_ns && t >= e->time_limit_ns) {
		uint64_t limit = e->time_limit_ns > e->now_ns ? e->time_limit_ns : e->now_ns;

		rc = samples_until(e, limit);
		if (rc)
			return rc;
		advance_to(e, limit);
		e->end = CP_END_TIME_LIMIT;
		*done = true;
		return 0;
	}
	/* A sample at exactly t sees the state before the events at t. The
	 * sampler may wake or stop actors: look at the queues again after. */
	if (e->sample_fn && e->next_sample_ns <= t)
		return samples_until(e, t);
	advance_to(e, t);
	if (t_time <= t_cpu) {
		cp_pq_pop(&e->timeq, &ev);
		a = &e->actors[ev.id];
		if (a->state == CP_ACTOR_IO) {
			a->stats.io_wait_ns += e->now_ns - a->phase_start_ns;
			a->state = CP_ACTOR_READY; /* between phases, off every queue */
			return step_done(e, ev.id);
		}
		return start_step(e, ev.id);
	}
	cp_pq_pop(&e->cls[c].cpuq, &ev);
	CP_BUG_ON(ev.key > e->cls[c].vservice_ns);
	a = &e->actors[ev.id];
	leave_cpu(e, a);
	a->stats.cpu_wall_ns += e->now_ns - a->phase_start_ns;
	a->state = CP_ACTOR_READY; /* between phases, off every queue */
	return cpu_done(e, ev.id);
}

int cp_engine_run(struct cp_engine *e, struct cp_diag *diag)
{
	bool done = false;
	uint64_t turn = 0;
	unsigned id;
	int rc = 0;

	if (e->ran)
		return cp_diag_set(diag, -CP_EINVAL, "the engine has already run");
	e->ran = true;
	e->diag.msg[0] = '\0';
	if (e->sample_fn) {
		e->next_sample_ns = e->now_ns;
		rc = samples_until(e, e->now_ns);
	}
	while (!rc && !done) {
		if (e->stop_requested) {
			e->end = CP_END_REQUESTED;
			break;
		}
		if (!e->nr_live_workers) {
			e->end = CP_END_FINISHED;
			break;
		}
		rc = check_cancel(e, turn++);
		if (!rc)
			rc = run_one(e, &done);
		if (!rc && e->error)
			rc = e->error;
		if (!rc)
			CP_DEBUG_CHECK(cp_engine_check(e));
	}
	if (!rc && e->sample_fn && (!e->sampled || e->last_sample_ns < e->now_ns))
		rc = take_sample(e, e->now_ns);
	for (id = 0; id < e->nr_actors; id++)
		cp_engine_stop_actor(e, id);
	if (rc) {
		e->end = CP_END_NONE;
		if (diag)
			*diag = e->diag;
	}
	return rc;
}

/* ---- queries ---------------------------------------------------------- */

struct cp_diag *cp_engine_diag(struct cp_engine *e)
{
	return &e->diag;
}

uint64_t cp_engine_now(const struct cp_engine *e)
{
	return e->now_ns;
}

int cp_engine_current(const struct cp_engine *e)
{
	return e->current;
}

enum cp_engine_end cp_engine_end_reason(const struct cp_engine *e)
{
	return e->end;
}

unsigned cp_engine_nr_actors(const struct cp_engine *e)
{
	return e->nr_actors;
}

unsigned cp_engine_nr_cpus(const struct cp_engine *e)
{
	return e->nr_cpus;
}

unsigned cp_engine_nr_runnable(const struct cp_engine *e)
{
	return e->nr_runnable;
}

unsigned cp_engine_nr_copying(const struct cp_engine *e)
{
	return e->nr_copying;
}

uint64_t cp_engine_nr_steps(const struct cp_engine *e)
{
	return e->nr_steps;
}

enum cp_actor_state cp_engine_actor_state(const struct cp_engine *e, unsigned id)
{
	CP_BUG_ON(id >= e->nr_actors);
	return e->actors[id].state;
}

const char *cp_engine_actor_name(const struct cp_engine *e, unsigned id)
{
	CP_BUG_ON(id >= e->nr_actors);
	return e->actors[id].ops->name;
}

void cp_engine_actor_stats(const struct cp_engine *e, unsigned id, struct cp_actor_stats *out)
{
	CP_BUG_ON(id >= e->nr_actors);
	*out = e->actors[id].stats;
}

uint64_t cp_engine_cpu_busy_ns(const struct cp_engine *e)
{
	return e->cpu_busy_ns;
}

/* Valid entries of actor id in q; *past set when one lies before now. */
static unsigned count_entries(const struct cp_engine *e, const struct cp_pq *q, bool is_timeq,
			      unsigned id, bool *past)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < q->nr; i++) {
		const struct cp_pq_entry *x = &q->heap[i];

		if (x->id != id)
			continue;
		if (is_timeq ? !timeq_entry_valid(e, x) : !cpuq_entry_valid(e, x))
			continue;
		if (is_timeq && x->key < e->now_ns)
			*past = true;
		n++;
	}
	return n;
}

/* Class c's queue and counters hold together: heap order, known ids, a
 * remainder below its unit. */
static bool class_check(const struct cp_engine *e, const struct cpu_class *c)
{
	size_t i;

	if (!cp_pq_check(&c->cpuq) || !c->rate.num || c->rate.num > c->rate.den)
		return false;
	if (c->nr_runnable && c->vservice_rem >= c->rate.den)
		return false;
	for (i = 0; i < c->cpuq.nr; i++)
		if (c->cpuq.heap[i].id >= e->nr_actors)
			return false;
	return true;
}

bool cp_engine_check(const struct cp_engine *e)
{
	unsigned id, c, nr_cpu[NR_CLS] = { 0 }, nr_live = 0;
	size_t i;
	bool past = false;

	if (!cp_pq_check(&e->timeq))
		return false;
	for (c = 0; c < NR_CLS; c++)
		if (!class_check(e, &e->cls[c]))
			return false;
	for (i = 0; i < e->timeq.nr; i++)
		if (e->timeq.heap[i].id >= e->nr_actors)
			return false;
	/* O(actors x queue length): a debug check, the queues are short */
	for (id = 0; id < e->nr_actors; id++) {
		const struct actor *a = &e->actors[id];
		unsigned want = a->state == CP_ACTOR_BLOCKED || a->state == CP_ACTOR_STOPPED ? 0 : 1;
		unsigned have = count_entries(e, &e->timeq, true, id, &past);

		for (c = 0; c < NR_CLS; c++)
			have += count_entries(e, &e->cls[c].cpuq, false, id, &past);
		if (have != want || past)
			return false;
		if (a->state == CP_ACTOR_CPU)
			nr_cpu[a->cls]++;
		if (a->state != CP_ACTOR_STOPPED && !(a->flags & CP_ACTOR_DAEMON))
			nr_live++;
	}
	for (c = 0; c < NR_CLS; c++)
		if (nr_cpu[c] != e->cls[c].nr_runnable)
			return false;
	return nr_cpu[CLS_KTHREAD] + nr_cpu[CLS_TASK] + nr_cpu[CLS_LIGHT] == e->nr_runnable &&
	       nr_live == e->nr_live_workers;
}
