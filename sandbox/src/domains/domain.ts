import type { Route } from '../routes.ts';
import type { JobHandler } from '../scheduler.ts';
import type { SandboxStore } from '../store.ts';

/**
 * A slice of the contract: its routes and its demo data. A new domain (beneficiaries,
 * payouts, FX, cards...) is a folder under domains/ exporting one of these, listed in
 * domains/index.ts, plus its collections in store.ts.
 */
export interface Domain {
  name: string;
  routes: readonly Route[];
  /** The domain's own routes under /sandbox/ (built with control.ts's controlRoute). */
  controlRoutes?: readonly Route[];
  /** Loads deterministic demo data dated relative to `now` (sandbox clock, epoch ms). */
  seed?(store: SandboxStore, now: number): void;
  /** Handlers of the scheduled jobs this domain creates, by job kind (see scheduler.ts). */
  jobs?: Readonly<Record<string, JobHandler>>;
}
