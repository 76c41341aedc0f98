import type { Logger } from '../platform/logger.ts';
import { luhn } from '../upstream/models.ts';
import { createDenialAggregator, type DeniedAttempt, type DenialOptions } from './access-denied.ts';
import { destinationSink, fileDestination, stdoutDestination, writerSink } from './line-sink.ts';
import type { AuditRecord } from './record.ts';
import { redisSink } from './redis-sink.ts';
import { identify, reasonOf, trackDelivery, type Sink } from './sink.ts';
import type { RedisTarget } from '../settings/index.ts';

/**
 * The audit trail: every mutation field that ran, and the refusals before execution (aggregated:
 * access-denied.ts), each as one JSON line, exactly the record's own keys, on stdout
 * or in a file, and optionally in a Redis Stream shared by every instance. Writing is fire and
 * forget: a mutation's answer never waits for the trail or fails with it. A destination that fails
 * is counted (observer), said once per outage, and tried again; the others carry on.
 */

/** Where records go, besides the optional Redis Stream. */
type AuditDestination = { kind: 'stdout' } | { kind: 'file'; path: string } | { kind: 'off' };

export interface AuditObserver {
  /** A record was handed to `destination` ('stdout' | 'file' | 'redis'). */
  written(destination: 'stdout' | 'file' | 'redis'): void;
  /** A write to `destination` failed (the record did not reach it). */
  failed(destination: 'stdout' | 'file' | 'redis'): void;
}

export interface AuditTrailOptions {
  destination: AuditDestination;
  /** With it, every record is also appended to a capped Redis Stream shared by every instance. */
  redis?: RedisTarget | undefined;
  /** The stream's key (default `audit`). */
  redisKey?: string | undefined;
  /** The stream is capped near this many entries (XADD MAXLEN ~; default 100_000). */
  redisMaxLen?: number | undefined;
  logger: Logger;
  observer?: AuditObserver | undefined;
  /** Tests: where `stdout` writes go instead of process.stdout. */
  stdout?: { write(line: string): unknown } | undefined;
  /** How refusals before execution are aggregated (tests). */
  denials?: DenialOptions | undefined;
}

export interface AuditTrail {
  /** Hands the record to every destination. Never throws, never waits: a mutation's answer never depends on it. */
  write(record: AuditRecord): void;
  /** One refusal before execution: written as an access-denied record at once, or counted into a later one. */
  denied(attempt: DeniedAttempt): void;
  /** Writes the refusals counted so far, flushes what it can and closes files and the Redis connection. */
  close(): Promise<void>;
}

type DestinationName = 'stdout' | 'file' | 'redis';

/**
 * A card number standing alone: not inside a longer number or a hex id (a trace id has digit runs
 * too). The same rule as the test suite's leak scan.
 */
const CARD_NUMBER = /(?<![\da-f.])\d{13,19}(?![\da-f])/gi;

export function createAuditTrail(options: AuditTrailOptions): AuditTrail {
  const sinks = sinksOf(options);
  const redact = cardNumberRedactor(options.logger);
  let closing: Promise<void> | undefined;

  const lose = (record: AuditRecord, reason: string) => {
    for (const { name } of sinks) options.observer?.failed(name);
    options.logger.warn({ reason, record: identify(record) }, 'an audit record was not written');
  };

  const write = (record: AuditRecord) => {
    if (closing) return lose(record, 'the audit trail is closed');
    try {
      const written = redact(record);
      for (const { sink } of sinks) sink.write(written.json, written.record);
    } catch (error) {
      lose(record, reasonOf(error));
    }
  };
  const denials = createDenialAggregator(write, options.denials);

  return {
    write,
    denied: denials.deny,
    close: () => {
      if (!closing) denials.close();
      return (closing ??= Promise.all(sinks.map(({ sink }) => sink.close())).then(() => undefined));
    },
  };
}

type NamedSink = { name: DestinationName; sink: Sink };

function sinksOf(options: AuditTrailOptions): NamedSink[] {
  const { destination, redis } = options;
  const sinks: NamedSink[] = [];
  if (destination.kind !== 'off') sinks.push({ name: destination.kind, sink: lineSink(options, destination) });
  if (redis) sinks.push({ name: 'redis', sink: streamSink(options, redis) });
  return sinks;
}

type LineDestination = Exclude<AuditDestination, { kind: 'off' }>;

function lineSink(options: AuditTrailOptions, destination: LineDestination): Sink {
  const tally = tallyOf(options.observer, destination.kind);
  const delivery = trackDelivery({
    name: nameOf(destination),
    elsewhere: options.redis ? 'Redis' : undefined,
    logger: options.logger,
    tally,
  });
  if (destination.kind === 'file') return destinationSink(() => fileDestination(destination.path), delivery);
  return options.stdout ? writerSink(options.stdout, delivery) : destinationSink(stdoutDestination, delivery);
}

function streamSink(options: AuditTrailOptions, target: RedisTarget): Sink {
  const { destination, logger } = options;
  const tally = tallyOf(options.observer, 'redis');
  const elsewhere = destination.kind === 'off' ? undefined : nameOf(destination);
  const delivery = trackDelivery({ name: 'Redis', elsewhere, logger, tally });
  return redisSink({ target, key: options.redisKey ?? 'audit', maxLen: options.redisMaxLen ?? 100_000, delivery, tally });
}

function tallyOf(observer: AuditObserver | undefined, name: DestinationName) {
  return { written: () => observer?.written(name), failed: () => observer?.failed(name) };
}

/** How log lines name the destination: where an operator finds the records. */
function nameOf(destination: LineDestination): string {
  return destination.kind === 'file' ? destination.path : 'stdout';
}

/**
 * Records hold no card number by construction; should one slip in (an id field that is one), it is
 * written redacted rather than not at all, and said once, not per record. Log lines that name the
 * record name it as written: its request id is the caller's own and could be the number.
 */
function cardNumberRedactor(logger: Logger): (record: AuditRecord) => { json: string; record: AuditRecord } {
  let warned = false;
  return (record) => {
    let found = false;
    const json = JSON.stringify(record).replace(CARD_NUMBER, (digits) => {
      if (!luhn(digits)) return digits;
      found = true;
      return '[redacted]';
    });
    if (!found) return { json, record };
    const redacted = JSON.parse(json) as AuditRecord;
    if (!warned) {
      warned = true;
      logger.warn(
        { record: identify(redacted) },
        'an audit record held a card number: it was written redacted (further ones are redacted without a warning)',
      );
    }
    return { json, record: redacted };
  };
}
