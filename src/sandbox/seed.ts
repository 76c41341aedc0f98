import { DOMAINS } from './domains/index.ts';
import type { SandboxStore } from './store.ts';

/** Deterministic demo data of every domain, dated relative to `now` (epoch ms). */
export function seedDemoData(store: SandboxStore, now: number): void {
  for (const domain of DOMAINS) domain.seed?.(store, now);
}
