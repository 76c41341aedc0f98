import type { Domain } from './domain.ts';
import { createScheduler, type JobHandler } from './scheduler.ts';
import type { SandboxStore } from './store.ts';

/** Every domain's scheduled-job handlers, by job kind. */
export function jobHandlers(domains: readonly Domain[]): Map<string, JobHandler> {
  return new Map(domains.flatMap((domain) => Object.entries(domain.jobs ?? {})));
}

/**
 * Deterministic demo data of every domain, in the domains' order, dated relative to `now` (epoch ms). Seeds arrange
 * past activity the way clients would (a conversion opened yesterday); the work that has
 * come due by `now` then runs, so the data starts settled and the ledger wrote it. It runs
 * after each domain's seed, so a later domain posting to the ledger (a card load yesterday
 * evening) finds the earlier domains' movements already written and the running balances
 * stay in time order. The seed is the past: nobody was subscribed, so it emits no events.
 */
export function seedDemoData(store: SandboxStore, now: number, domains: readonly Domain[]): void {
  const scheduler = createScheduler(() => store, jobHandlers(domains));
  store.events.quietly(() => {
    for (const domain of domains) {
      domain.seed?.(store, now);
      scheduler.runDue(now);
    }
  });
}
