/*
 * engine.h - the virtual clock and the actors that run on it.
 *
 * The engine is the only part of cachepressure that knows about time.
 * An actor (a reader, fs_mark's creator, kswapd, a periodic worker) is a
 * step function plus caller-owned state. Each step does one unit of
 * work at once (one read(), one file, one balance pass) against the
 * model and reports what that work costs: CPU nanoseconds and the time
 * the I/O it waits for completes. The engine runs the step's CPU work
 * on the machine's shared CPUs, waits for the I/O, and then starts the
 * actor's next step, sleeps it, blocks it until woken, or stops it.
 * Steps of different actors run in order of virtual time; equal times
 * run in the order they were scheduled.
 *
 * Typical use:
 *   cp_engine_create(&e, machine.nr_cpus);
 *   cp_engine_add_actor(e, &reader_ops, reader, 0, &r1);
 *   cp_engine_add_actor(e, &kswapd_ops, kswapd, CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED, &k);
 *   cp_engine_stop_on_finish(e, creator_id, r1);
 *   cp_engine_set_sampler(e, 100 * CP_NSEC_PER_MSEC, sample_fn, result);
 *   rc = cp_engine_run(e, &diag);
 */
#ifndef CP_ENGINE_H
#define CP_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

struct cp_diag;
struct cp_engine;

#define CP_NSEC_PER_USEC 1000ULL
#define CP_NSEC_PER_MSEC 1000000ULL
#define CP_NSEC_PER_SEC 1000000000ULL

/* Default time series interval: 100 ms of virtual time. */
#define CP_SAMPLE_INTERVAL_NS (100 * CP_NSEC_PER_MSEC)

/* What an actor does once the work of its step is done. */
enum cp_step_next {
	CP_STEP_CONTINUE,    /* start the next step (after other actors due now) */
	CP_STEP_SLEEP_UNTIL, /* sleep until until_ns (absolute), or until woken */
	CP_STEP_SLEEP_FOR,   /* sleep sleep_ns from the moment the work is done, or until woken */
	CP_STEP_BLOCK,       /* sleep until cp_engine_wake() */
	CP_STEP_STOP,        /* finish once this step's work is done; no more steps */
};

/* What one step did; the engine zeroes it (next = CONTINUE) before each step. */
struct cp_step {
	uint64_t cpu_ns;       /* CPU time the work takes on an otherwise idle CPU;
				* at most 2^50 (-CP_ERANGE otherwise) */
	uint64_t io_until_ns;  /* absolute completion time of I/O the step waits for;
				* 0 or <= now: none. I/O submitted during the step
				* runs while its CPU work does: the step is done at
				* max(CPU done, io_until_ns). */
	enum cp_step_next next;
	uint64_t until_ns;     /* CP_STEP_SLEEP_UNTIL */
	uint64_t sleep_ns;     /* CP_STEP_SLEEP_FOR */
	bool copies;           /* the CPU work copies memory (page cache ->
				* user): cp_engine_nr_copying() counts it while
				* it runs, for the shared memory bandwidth */
};

/*
 * An actor's operations: one const table shared by all actors of a kind.
 * The engine calls step() at now_ns, the time the step starts. The model
 * changes the step makes happen at that instant; the step's cost then
 * decides when the actor continues. A step may call cp_engine_wake(),
 * cp_engine_stop_actor(), cp_engine_stop() and cp_engine_add_actor().
 *
 * Actor state (priv) is owned by the caller, not the engine: the
 * workloads keep their results (a reader's passes) there, and the
 * report reads them after the run, when the engine may be gone.
 */
struct cp_actor_ops {
	const char *name; /* required; for diagnostics */
	/* Required. Returns 0, or a -CP_E* that ends the run (cp_engine_run
	 * returns it; the message should go into cp_engine_diag()). */
	int (*step)(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out);
	/* Optional. Called exactly once per actor, when it stops for any
	 * reason (it returned CP_STEP_STOP, a stop rule or cp_engine_stop_actor()
	 * stopped it, or the run ended), at the time it stopped. A step in
	 * progress is cut off: its model changes stay, its remaining time
	 * is not spent. */
	void (*stopped)(struct cp_engine *e, void *priv, uint64_t now_ns);
};

/* Flags for cp_engine_add_actor(). */
#define CP_ACTOR_DAEMON  0x1u /* the run does not wait for it (kswapd, workers) */
#define CP_ACTOR_START_BLOCKED 0x2u /* starts blocked: first step when woken */
#define CP_ACTOR_KTHREAD 0x4u /* a kernel thread: in the root task group, outside
			       * the run's autogroup (cp_engine_set_autogroup()) */
#define CP_ACTOR_LIGHT 0x8u   /* a task at cp_engine_set_light_share() of another
			       * task's rate (not with CP_ACTOR_KTHREAD) */

enum cp_actor_state {
	CP_ACTOR_READY,    /* its next step is due now, or the step is running */
	CP_ACTOR_CPU,      /* doing its step's CPU work (counts as runnable) */
	CP_ACTOR_IO,       /* CPU work done, waiting for its I/O */
	CP_ACTOR_SLEEPING, /* until a time, or until woken */
	CP_ACTOR_BLOCKED,  /* until woken */
	CP_ACTOR_STOPPED,
};

/* Why cp_engine_run() returned 0. */
enum cp_engine_end {
	CP_END_NONE,       /* not run yet */
	CP_END_FINISHED,   /* every non-daemon actor stopped */
	CP_END_TIME_LIMIT, /* the time limit was reached */
	CP_END_REQUESTED,  /* cp_engine_stop() */
};

/* Per-actor totals. */
struct cp_actor_stats {
	uint64_t nr_steps;
	uint64_t cpu_ns;       /* CPU work its steps reported (unshared time) */
	uint64_t cpu_wall_ns;  /* time spent in CPU work, stretched by sharing */
	uint64_t io_wait_ns;   /* time waiting for I/O after the CPU work */
	uint64_t stop_ns;      /* when it stopped (valid once stopped) */
};

/* A sampler: called at t_ns = t0, t0 + interval, t0 + 2 x interval, ...
 * (t0: when it was installed, 0 before the run) and at the end of the
 * run; sees the state after every step that started before t_ns.
 * Returns 0 or a -CP_E* that ends the run. */
typedef int (*cp_engine_sample_fn)(struct cp_engine *e, void *priv, uint64_t t_ns);

/*
 * Creates an engine with nr_cpus (>= 1) CPUs at time 0, no actors, no
 * time limit and no sampler. Returns 0, -CP_EINVAL or -CP_ENOMEM (*out
 * untouched). Free with cp_engine_destroy().
 */
int cp_engine_create(struct cp_engine **out, unsigned nr_cpus);
void cp_engine_destroy(struct cp_engine *e); /* NULL: nothing */

/*
 * Registers an actor; its first step is due now, or with
 * CP_ACTOR_START_BLOCKED, when first woken. May be called during the
 * run, from a step. *id is the actor's id: 0, 1, 2... in order of
 * registration. Returns 0, -CP_EINVAL (ops without name or step) or
 * -CP_ENOMEM (nothing registered).
 */
int cp_engine_add_actor(struct cp_engine *e, const struct cp_actor_ops *ops, void *priv,
			unsigned flags, unsigned *id);

/*
 * A periodic worker (a delayed work item that requeues itself, like
 * XFS's background inode reclaim, xfs_reclaim_worker(), every
 * xfs_syncd_centisecs / 6): a daemon actor whose first step is due
 * period_ns from now, and which sleeps period_ns after each step's work
 * is done when the step returns CP_STEP_CONTINUE. Its step may also
 * return any other cp_step_next. flags: 0 or CP_ACTOR_KTHREAD (a
 * kworker). Returns as cp_engine_add_actor(); -CP_EINVAL when period_ns
 * is 0 or flags holds anything else.
 */
int cp_engine_add_timer(struct cp_engine *e, const struct cp_actor_ops *ops, void *priv,
			uint64_t period_ns, unsigned flags, unsigned *id);

/*
 * Wakes actor id (wake_up_process()): a blocked or sleeping actor's next
 * step becomes due now. An actor that is ready or in the middle of a
 * step is marked, and does not go to sleep or block when that step ends
 * (no lost wake-up). A stopped actor stays stopped. Cheap; callable
 * from a step or a model hook.
 */
void cp_engine_wake(struct cp_engine *e, unsigned id);

/* Adapter for hook slots of the form void (*fn)(void *priv), such as
 * cp_mem_hooks.wake_kswapd: set the slot to cp_engine_waker_wake and
 * its priv to a struct cp_engine_waker naming the actor to wake. */
struct cp_engine_waker {
	struct cp_engine *e;
	unsigned id;
};
void cp_engine_waker_wake(void *priv);

/* Stops actor id now (see cp_actor_ops.stopped), and applies the stop
 * rules for it. Stopping a stopped actor does nothing. */
void cp_engine_stop_actor(struct cp_engine *e, unsigned id);

/*
 * When actor `trigger` stops (for any reason), stop actor `target` too
 * (fs_mark ends -> the readers are stopped). Rules chain. If trigger has
 * already stopped, target stops now. Returns 0 or -CP_ENOMEM /
 * -CP_EINVAL (unknown id); on failure no rule is added.
 */
int cp_engine_stop_on_finish(struct cp_engine *e, unsigned trigger, unsigned target);

/*
 * sched_autogroup_enabled: the actors without CP_ACTOR_KTHREAD are one
 * task group, and a kernel thread shares a CPU with the group's per-CPU
 * share rather than with each of its tasks (sched_share.h). Off (the
 * default): every actor gets the same share. Call before any actor
 * does CPU work.
 */
void cp_engine_set_autogroup(struct cp_engine *e, bool on);

/*
 * The tasks added with CP_ACTOR_LIGHT progress at num/den (0 < num <=
 * den) of another task's rate while both are runnable, the CPUs they
 * leave going to the others (sched_share.h cp_sched_split_light()): the
 * share the machine's load balancing gave fs_mark's workers beside the
 * readers, which a fluid without per-CPU runqueues cannot place. 1/1
 * (the default): as any task. Returns 0, or -CP_EINVAL (a bad fraction,
 * or an actor doing CPU work already).
 */
int cp_engine_set_light_share(struct cp_engine *e, uint64_t num, uint64_t den);

/*
 * The VM's virtual disk is served on the host CPUs its vCPUs run on: while
 * the block device transfers (cp_engine_host_io_until()) and the runnable
 * actors fill every CPU, the device's emulation takes num/den (< 1) of a
 * host CPU and the CPUs together give it up, every rate scaled by
 * (nr_cpus - num/den) / nr_cpus (sched_share.h cp_sched_host_scale()).
 * 0/1 (the default): the device takes no CPU of the guest's. Returns 0,
 * or -CP_EINVAL (a bad fraction, or an actor doing CPU work already).
 */
int cp_engine_set_host_io_share(struct cp_engine *e, uint64_t num, uint64_t den);

/* The block device transfers until t (an earlier t changes nothing). */
void cp_engine_host_io_until(struct cp_engine *e, uint64_t t);

/* The share of the device's bandwidth (*num / *den) a transfer submitted
 * now gets: the host share of cp_engine_set_host_io_share() while every
 * CPU is busy (the actors doing CPU work, and the one in its step, are
 * at least as many as the CPUs), else 1/1. */
void cp_engine_device_rate(const struct cp_engine *e, uint64_t *num, uint64_t *den);

/* Ends the run at the current time, after the current step. */
void cp_engine_stop(struct cp_engine *e);

/* The run stops at limit_ns: steps due at or after it do not start,
 * work in progress is cut off. 0 = no limit. */
void cp_engine_set_time_limit(struct cp_engine *e, uint64_t limit_ns);

/* Installs the sampler (interval_ns > 0): its first sample is due now
 * (t = 0 before the run; installed from a step, at that step's time).
 * Returns 0 or -CP_EINVAL. */
int cp_engine_set_sampler(struct cp_engine *e, uint64_t interval_ns, cp_engine_sample_fn fn,
			  void *priv);

/* A question the engine asks its caller now and then while it runs
 * (every CP_ENGINE_CANCEL_TURNS turns of its loop, one event each - a
 * timed wake-up or the end of a CPU phase - and before the first):
 * non-zero abandons the run. For a caller outside the model - a CLI
 * told by a signal to stop - never for the model's own stop rules, so
 * asking changes nothing in the run. */
typedef int (*cp_engine_cancel_fn)(void *priv);
#define CP_ENGINE_CANCEL_TURNS 4096u

/* Installs fn (NULL: none). Before cp_engine_run(). */
void cp_engine_set_cancel(struct cp_engine *e, cp_engine_cancel_fn fn, void *priv);

/*
 * Runs until every non-daemon actor has stopped, the time limit, or
 * cp_engine_stop(). Afterwards every actor is stopped. Returns 0 (see
 * cp_engine_end_reason()), the error a step or the sampler returned,
 * -CP_EBUSY when non-daemon actors remain but none can ever run again
 * (all blocked) or one actor keeps taking steps that take no time,
 * -CP_EINTR when the cancel function asked to stop, or -CP_ENOMEM. On
 * error diag (if not NULL) names the actor. Call once.
 */
int cp_engine_run(struct cp_engine *e, struct cp_diag *diag);

/* Steps and samplers may leave a message here to go with their error. */
struct cp_diag *cp_engine_diag(struct cp_engine *e);

uint64_t cp_engine_now(const struct cp_engine *e);
/* The actor whose step is running (also during the hooks and stopped
 * callbacks that step triggers), or -1 outside any step: in the
 * sampler, before and after the run. */
int cp_engine_current(const struct cp_engine *e);
enum cp_engine_end cp_engine_end_reason(const struct cp_engine *e);
unsigned cp_engine_nr_actors(const struct cp_engine *e);
unsigned cp_engine_nr_cpus(const struct cp_engine *e);
/* Actors doing CPU work right now. */
unsigned cp_engine_nr_runnable(const struct cp_engine *e);
/* Of those, the ones whose step copies (cp_step.copies). */
unsigned cp_engine_nr_copying(const struct cp_engine *e);
/* Actor steps taken so far, all actors. */
uint64_t cp_engine_nr_steps(const struct cp_engine *e);

enum cp_actor_state cp_engine_actor_state(const struct cp_engine *e, unsigned id);
const char *cp_engine_actor_name(const struct cp_engine *e, unsigned id);
void cp_engine_actor_stats(const struct cp_engine *e, unsigned id, struct cp_actor_stats *out);

/* The CPU work every actor's steps have reported since the start (the
 * sum of their cpu_ns): what kept the CPUs busy, unshared. */
uint64_t cp_engine_cpu_busy_ns(const struct cp_engine *e);

/* Invariants: every live actor in exactly one place (a queue entry of
 * its generation, or blocked), the runnable count equals the actors in
 * CPU work, both heaps ordered, nothing queued in the past. Call it
 * between steps (the run does, in the CP_DEBUG_CHECKS build), not from
 * inside one. Does not allocate. */
bool cp_engine_check(const struct cp_engine *e);

#endif /* CP_ENGINE_H */
