import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { COMMAND_TIMEOUT_MS, createRedisLink, type RedisLink } from '../../src/events/redis-link.ts';

/** The shared Redis of these machines and CI (never stopped by a test). */
const TARGET = { url: 'redis://127.0.0.1:6379' };

const links: RedisLink[] = [];
afterEach(async () => {
  for (const link of links.splice(0)) await link.close();
});

async function upLink(): Promise<{ link: RedisLink; lines: string[] }> {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push((JSON.parse(line) as { msg: string }).msg) });
  const link = createRedisLink(TARGET, logger);
  links.push(link);
  await link.connected();
  await link.commands.ping();
  link.succeeded();
  return { link, lines };
}

describe('the event bus link to Redis', () => {
  it("stays up when this process stalls past a command's timeout while Redis answered: the answer was waiting in the socket", async () => {
    const { link, lines } = await upLink();
    // Resumed from a socket's callback (the poll phase): the timers phase comes before the next read.
    await link.commands.ping();
    const ping = link.commands.ping().catch((error: Error) => (link.failed(error), error.message));
    // Sent, then the process stalls while the answer comes: its timeout is due before the socket is read.
    const until = Date.now() + COMMAND_TIMEOUT_MS + 300;
    while (Date.now() < until);
    expect(await ping).toBe('Command timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(link.up).toBe(true);
    expect(lines.filter((line) => /^Redis is unreachable/.test(line))).toEqual([]);
  });

  it('goes down on a lost connection, and is back once a command succeeds, each said once', async () => {
    const { link, lines } = await upLink();
    link.commands.disconnect(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(link.up).toBe(false);
    await link.connected();
    await link.commands.ping();
    link.succeeded();
    expect(lines.filter((line) => /^Redis is (unreachable|back)/.test(line)).map((line) => line.split(':')[0])).toEqual([
      'Redis is unreachable',
      'Redis is back',
    ]);
  });

  it("leaves the intake up while only the reader reconnects, and says the reader's trouble in its own lines", async () => {
    const { link, lines } = await upLink();
    link.reader.disconnect(true);
    link.readFailed(new Error('Connection is closed.'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(link.up).toBe(true);
    expect(link.readerReconnected()).toBe(true);
    expect(link.readerReconnected()).toBe(false);
    link.readSucceeded();
    expect(lines.filter((line) => /Redis is|shared event log/.test(line))).toEqual([
      "reading the shared event log failed: this instance's subscribers get new events once it reads again",
      "the shared event log is read again: this instance's subscribers get new events",
    ]);
  });
});
