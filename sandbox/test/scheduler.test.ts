import { describe, expect, it } from 'vitest';
import { createClock } from '../src/clock.ts';
import type { ScheduledJob } from '../src/records.ts';
import { createScheduler, scheduleJob, schedulingClock, type JobHandler } from '../src/scheduler.ts';
import { createStore } from '../src/store.ts';

function setup(extra: Record<string, JobHandler> = {}) {
  const store = createStore([], null);
  const ran: string[] = [];
  const record: JobHandler = (_store, job) => ran.push(`${job.subjectId}@${job.at}`);
  const scheduler = createScheduler(() => store, new Map(Object.entries({ record, ...extra })));
  const at = (subjectId: string, instant: number, kind = 'record'): ScheduledJob => ({ kind, subjectId, at: instant });
  return { store, ran, scheduler, at };
}

describe('scheduler', () => {
  it('runs only due jobs, earliest first, ties in scheduling order', () => {
    const { store, ran, scheduler, at } = setup();
    scheduleJob(store, at('c', 30));
    scheduleJob(store, at('a', 10));
    scheduleJob(store, at('b', 30));
    scheduleJob(store, at('later', 100));
    scheduler.runDue(30);
    expect(ran).toEqual(['a@10', 'c@30', 'b@30']);
    expect([...store.jobs.values()].map((job) => job.subjectId)).toEqual(['later']);
  });

  it('runs work that a job schedules when that is due too, and moves a rescheduled job', () => {
    const chain: JobHandler = (store, job) => scheduleJob(store, { kind: 'record', subjectId: `after-${job.subjectId}`, at: job.at + 5 });
    const { store, ran, scheduler, at } = setup({ chain });
    scheduleJob(store, at('x', 10, 'chain'));
    scheduleJob(store, at('y', 50));
    scheduleJob(store, at('y', 12));
    scheduler.runDue(20);
    expect(ran).toEqual(['y@12', 'after-x@15']);
  });

  it('drops a failing job so it cannot fail every later call', () => {
    const boom: JobHandler = () => {
      throw new Error('boom');
    };
    const { store, scheduler, at } = setup({ boom });
    scheduleJob(store, at('x', 1, 'boom'));
    expect(() => scheduler.runDue(5)).toThrow('boom');
    expect(store.jobs.size).toBe(0);
    expect(() => scheduler.runDue(5)).not.toThrow();
  });

  it('runs due work whenever its clock is read or advanced', () => {
    const { store, ran, scheduler, at } = setup();
    const clock = schedulingClock(createClock(), scheduler);
    const now = clock.now().getTime();
    scheduleJob(store, at('soon', now + 60_000));
    clock.now();
    expect(ran).toEqual([]);
    clock.advance(60_000);
    expect(ran).toEqual([`soon@${now + 60_000}`]);
    scheduleJob(store, at('past', now));
    clock.now();
    expect(ran).toHaveLength(2);
  });
});
