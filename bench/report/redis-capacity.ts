/** What `npx node bench/redis-capacity.ts` prints: the event path's accept, the cache invalidation's PUBLISH, and the accept with WAIT, as tables. */

import type { AcceptFigures, PublishFigures, RedisCapacity } from '../redis-event-load.ts';
import { fixed, table } from './format.ts';

const ACCEPT_HEADER = [
  'instances',
  'offered events/s',
  'accepted events/s',
  "Redis commands/s (scripts' included)",
  'Redis main thread CPU',
  'Redis CPU µs / event',
  // Redis runs one command at a time on one thread: one core of it carries 1 / (its CPU per event).
  'events/s at one Redis core',
  'memory / event (bytes, kept a day)',
  'append p50 / p99 ms',
  'append → every instance read p50 / p99 ms',
  // When this process's CPU reaches a core before Redis's does, the ceiling is the extrapolated one.
  "this process's CPU",
  'calls per event (scripts\u2019 commands included)',
];

function acceptCells(f: AcceptFigures): string[] {
  return [
    String(f.instances),
    Number.isFinite(f.rate) ? String(f.rate) : 'max',
    fixed(f.acceptedPerSecond, 0),
    fixed(f.commandsPerSecond, 0),
    `${fixed(f.redisCpuShare * 100, 0)} %`,
    fixed(f.redisCpuUsPerEvent, 1),
    fixed(1e6 / f.redisCpuUsPerEvent, 0),
    fixed(f.memoryPerEvent, 0),
    `${fixed(f.append.p50, 2)} / ${fixed(f.append.p99, 2)}`,
    `${fixed(f.lag.p50, 0)} / ${fixed(f.lag.p99, 0)}${f.everyInstanceCaughtUp ? '' : ' (not every instance caught up)'}`,
    `${fixed(f.ownCpuPercent, 0)} %`,
    f.commands.map(({ name, perEvent }) => `${name} ${perEvent.toFixed(2)}`).join(', '),
  ];
}

const publishCells = (f: PublishFigures): string[] => [
  String(f.listeners),
  fixed(f.publishesPerSecond, 0),
  `${fixed(f.redisCpuShare * 100, 0)} %`,
  fixed(f.redisCpuUsPerPublish, 1),
  fixed(1e6 / f.redisCpuUsPerPublish, 0),
  `${f.received} of ${f.published * f.listeners}`,
];

export function redisCapacityReport(r: RedisCapacity): string {
  const instances = r.replicas[0]?.figures.instances;
  return [
    `Redis capacity (bench/redis-capacity.ts), ${r.started}; Redis ${r.version}, Node ${process.version}, ${r.secondsPerRow} s per row.`,
    '',
    'The event path: the accept script per event, every instance reading the stream.',
    '',
    table(ACCEPT_HEADER, r.accept.map(acceptCells)),
    '',
    "A write's cache invalidation: PUBLISH to every instance's listener, as fast as it goes.",
    '',
    table(
      [
        'listening instances',
        'publishes/s',
        'Redis main thread CPU',
        'Redis CPU µs / publish',
        'publishes/s at one Redis core',
        'messages received',
      ],
      r.publish.map(publishCells),
    ),
    '',
    `The accept with a replica attached, at the highest rate, WAIT for that many replicas after each append (${instances} instances).`,
    '',
    table(
      ['replicas acknowledged (WAIT)', ...ACCEPT_HEADER],
      r.replicas.map(({ acknowledged, figures }) => [`${acknowledged}`, ...acceptCells(figures)]),
    ),
    '',
  ].join('\n');
}
