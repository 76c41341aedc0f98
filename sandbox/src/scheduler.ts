import type { SandboxClock } from './clock.ts';
import type { ScheduledJob } from './records.ts';
import type { SandboxStore } from './store.ts';

/**
 * Time-driven work: something that happens by itself at an instant of sandbox time, such as
 * a payout starting to process or a conversion settling. Jobs live in the store, so a reset
 * drops them and the demo seed can schedule its own.
 */

/** Runs one job; it must date its effects at `job.at` and never read the clock. */
export type JobHandler = (store: SandboxStore, job: ScheduledJob) => void;

const jobKey = (kind: string, subjectId: string): string => `${kind}:${subjectId}`;

/** One job per kind and subject: scheduling again moves it. */
export function scheduleJob(store: SandboxStore, job: ScheduledJob): void {
  store.jobs.set(jobKey(job.kind, job.subjectId), job);
}

export function cancelJob(store: SandboxStore, kind: string, subjectId: string): void {
  store.jobs.delete(jobKey(kind, subjectId));
}

export interface Scheduler {
  /** Runs every job due at `now`, earliest first, including jobs those jobs schedule. */
  runDue(now: number): void;
}

export function createScheduler(store: () => SandboxStore, handlers: ReadonlyMap<string, JobHandler>): Scheduler {
  let running = false;
  return {
    runDue(now) {
      // A handler that (wrongly) reads the clock must not start a second pass inside the first.
      if (running) return;
      running = true;
      try {
        for (let job = nextDue(store(), now); job !== undefined; job = nextDue(store(), now)) {
          // Removed before it runs, so a failing job cannot wedge every later call.
          cancelJob(store(), job.kind, job.subjectId);
          const handler = handlers.get(job.kind);
          if (handler === undefined) throw new Error(`no handler for scheduled job kind ${job.kind}`);
          handler(store(), job);
        }
      } finally {
        running = false;
      }
    },
  };
}

// Ties go to the job scheduled first (Map order), so same-instant work keeps its causal order.
function nextDue(store: SandboxStore, now: number): ScheduledJob | undefined {
  let next: ScheduledJob | undefined;
  for (const job of store.jobs.values()) {
    if (job.at <= now && (next === undefined || job.at < next.at)) next = job;
  }
  return next;
}

/**
 * The clock every API call and the control API use: each read and each advance first runs
 * the work that has come due, so moving time past an instant is enough for the next call
 * to see its effects.
 */
export function schedulingClock(clock: SandboxClock, scheduler: Scheduler): SandboxClock {
  return {
    now() {
      const now = clock.now();
      scheduler.runDue(now.getTime());
      return now;
    },
    advance(ms) {
      const now = clock.advance(ms);
      scheduler.runDue(now.getTime());
      return now;
    },
    reset: () => clock.reset(),
  };
}
