import { pino } from 'pino';
import type { AuditRecord } from './record.ts';
import { reasonOf, type Delivery, type Sink } from './sink.ts';

/**
 * Records as JSON lines on stdout or in a file, through pino's destination (sonic-boom): buffered,
 * written asynchronously, so `write` never waits on the disk. sonic-boom reports failures as 'error'
 * events only, after the lines were accepted, so each line is kept until the bytes written cover it:
 * then it counts as written, or, when the destination fails first, as missed. A failed destination
 * is dropped and a new one opened with a later record (a directory created late, a disk with room
 * again), at most once per REOPEN_MS, so a dead disk is not tried for every record.
 */

type Destination = ReturnType<typeof pino.destination>;

const REOPEN_MS = 1_000;
/** How long close() waits for the buffered lines to be written before it gives up on them. */
const CLOSE_WAIT_MS = 2_000;

export function stdoutDestination(): Destination {
  return pino.destination({ dest: 1, sync: false });
}

export function fileDestination(path: string): Destination {
  return pino.destination({ dest: path, append: true, mkdir: true, sync: false });
}

/** The `stdout` test writer: synchronous, so a line is written, or not, when the call returns. */
export function writerSink(writer: { write(line: string): unknown }, delivery: Delivery): Sink {
  return {
    write: (json, record) => {
      try {
        writer.write(`${json}\n`);
        delivery.reached();
      } catch (error) {
        delivery.missed(record, reasonOf(error));
      }
    },
    close: async () => {},
  };
}

export function destinationSink(open: () => Destination, delivery: Delivery): Sink {
  let current: Destination | undefined;
  let unwritten: { bytes: number; record: AuditRecord }[] = [];
  let reopenAt = 0;
  let lastFailure = '';
  const opened = new WeakSet<Destination>();

  const abandon = (destination: Destination, reason: string) => {
    // pino's destination re-emits an error to its listeners, so one failure can arrive twice; and
    // a destination given up on has nothing more to say about the one that replaced it.
    if (destination !== current) return;
    current = undefined;
    lastFailure = reason;
    reopenAt = Date.now() + REOPEN_MS;
    // No write is in flight after a failure: destroying only drops the lines it still held. One
    // that never opened cannot be destroyed (sonic-boom waits for it to open); 'close' tells pino
    // it is done, or pino would flush it synchronously at exit and throw there.
    if (opened.has(destination)) destination.destroy();
    else destination.emit('close');
    const lost = unwritten;
    unwritten = [];
    for (const { record } of lost) delivery.missed(record, reason);
  };
  const confirm = (bytes: number) => {
    let left = bytes;
    while (left > 0 && unwritten.length > 0) {
      const oldest = unwritten[0]!;
      const taken = Math.min(left, oldest.bytes);
      oldest.bytes -= taken;
      left -= taken;
      if (oldest.bytes > 0) return;
      unwritten.shift();
      delivery.reached();
    }
  };
  const openDestination = (): Destination => {
    const destination = open();
    destination.once('ready', () => opened.add(destination));
    destination.on('error', (error: Error) => abandon(destination, error.message));
    destination.on('write', (bytes: number) => {
      if (destination === current) confirm(bytes);
    });
    return destination;
  };

  return {
    write: (json, record) => {
      const line = `${json}\n`;
      if (!current && Date.now() >= reopenAt) current = openDestination();
      if (!current) return delivery.missed(record, lastFailure);
      unwritten.push({ bytes: Buffer.byteLength(line), record });
      try {
        current.write(line);
      } catch (error) {
        abandon(current, reasonOf(error));
      }
    },
    close: async () => {
      const destination = current;
      if (destination) await ended(destination);
    },
  };
}

/** Ends the destination once its buffered lines are written; a destination that cannot say so is waited for CLOSE_WAIT_MS. */
function ended(destination: Destination): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, CLOSE_WAIT_MS);
    destination.once('close', done);
    destination.once('error', done);
    try {
      destination.end();
    } catch {
      done();
    }
  });
}
