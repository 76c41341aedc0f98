import type { Logger } from '../platform/logger.ts';
import type { AuditRecord } from './record.ts';

/**
 * What the audit trail's destinations share: how a record is handed to one, and how its failures
 * are told. A destination that stops taking records gets one warning when it goes and one line when
 * it is back, not a line per record: under load that would bury the log, and the metric counts them.
 */

/** One destination of the trail (stdout, a file, the Redis Stream). */
export interface Sink {
  /** Hands over the serialized record; never throws, never waits. */
  write(json: string, record: AuditRecord): void;
  close(): Promise<void>;
}

/** One destination's share of the trail's observer. */
export interface Tally {
  written(): void;
  failed(): void;
}

/** A record's outcome at one destination, told to its tally and, at each change, to the log. */
export interface Delivery {
  reached(): void;
  missed(record: AuditRecord, reason: string): void;
}

export interface DeliveryOptions {
  /** The destination as log lines name it: `Redis`, the file's path. */
  name: string;
  /** Where records still go while this destination misses them; undefined: nowhere. */
  elsewhere: string | undefined;
  logger: Logger;
  tally: Tally;
}

/**
 * What an operator needs to find a record in the other destinations, and no more: the log may be
 * kept longer and seen by more people than the audit trail.
 */
export function identify(record: AuditRecord) {
  if (record.audit === 'access_denied') return { reason: record.reason, count: record.count, requestId: record.requestId };
  return { field: record.field, outcome: record.outcome, requestId: record.requestId };
}

export function trackDelivery({ name, elsewhere, logger, tally }: DeliveryOptions): Delivery {
  let downSince: number | undefined;
  let missedWhileDown = 0;
  const consequence = elsewhere ? `: they still go to ${elsewhere}` : ', and go nowhere else: they are lost while it is away';
  return {
    reached: () => {
      tally.written();
      if (downSince === undefined) return;
      logger.info({ missed: missedWhileDown, downMs: Date.now() - downSince }, `audit records reach ${name} again`);
      downSince = undefined;
      missedWhileDown = 0;
    },
    missed: (record, reason) => {
      tally.failed();
      missedWhileDown += 1;
      if (downSince !== undefined) return;
      downSince = Date.now();
      logger.warn({ reason, record: identify(record) }, `audit records are not reaching ${name}${consequence}`);
    },
  };
}

export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
