import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { afterAnswer, useKit } from '../helpers/kit.ts';
import { record } from '../helpers/leak-scan.ts';

/**
 * Structured JSON logs with the request id carried to the bank: each answer names its request by
 * the gateway's own id (x-request-id), the operation's log line carries that id, and each upstream
 * call of the operation is sent with it as x-correlation-id (the bank's own x-request-id stays the
 * per-call idempotency key). A caller's own x-request-id is kept beside it (clientRequestId), never
 * in its place: no caller can give its requests another's id.
 */
const lines: Record<string, unknown>[] = [];
const logger = createLogger('debug', {
  write: (line: string) => {
    record('gateway log', line);
    lines.push(JSON.parse(line) as Record<string, unknown>);
  },
});
const kit = useKit({ logger });

async function run(query: string, headers: Record<string, string> = {}) {
  return kit.gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
}

describe('request ids', () => {
  it("answers with its own id whatever the caller sent, sends that upstream as x-correlation-id, and keeps the caller's beside it", async () => {
    lines.length = 0;
    const response = await run('query Balances { balances { currency } }', { 'x-request-id': 'frontend-7f3a.42' });
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const calls = kit.sandbox.requests().filter((r) => r.path === '/svc/api/v1/account/balance');
    expect(calls.map((c) => c.correlationId)).toEqual([id]);
    // The bank's x-request-id is still a fresh id per call, not the gateway's.
    expect(calls[0]!.requestId).not.toBe(id);
    await afterAnswer();
    expect(lines.find((l) => l.msg === 'operation executed')).toMatchObject({ requestId: id, clientRequestId: 'frontend-7f3a.42' });
    // Another request sending the same id gets an id of its own.
    const again = await run('{ balances { currency } }', { 'x-request-id': 'frontend-7f3a.42' });
    expect(again.headers.get('x-request-id')).not.toBe(id);
  });

  it('keeps no caller id when the caller sent none or an implausible one', async () => {
    lines.length = 0;
    const none = (await run('{ balances { currency } }')).headers.get('x-request-id');
    const hostile = (await run('{ balances { currency } }', { 'x-request-id': 'x\u0000'.repeat(200) })).headers.get('x-request-id');
    for (const id of [none, hostile]) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await afterAnswer();
    expect(none).not.toBe(hostile);
    const operations = lines.filter((l) => l.msg === 'operation executed');
    expect(operations).toHaveLength(2);
    expect(operations.map((l) => 'clientRequestId' in l)).toEqual([false, false]);
  });

  it('logs one JSON line per operation with the request id, caller, outcome and time, and the upstream calls with the same id', async () => {
    lines.length = 0;
    const id = (await run('query Balances { balances { currency } }', { 'x-request-id': 'trace-me-1' })).headers.get('x-request-id');
    // Written once the answer has gone, not while the caller waits for it.
    expect(lines.filter((l) => l.msg === 'operation executed')).toHaveLength(0);
    await afterAnswer();
    const operation = lines.find((l) => l.msg === 'operation executed');
    expect(operation).toMatchObject({
      requestId: id,
      clientRequestId: 'trace-me-1',
      operation: 'Balances',
      type: 'query',
      caller: 'anonymous',
      outcome: 'ok',
      level: 30,
    });
    expect(typeof operation!.ms).toBe('number');
    const upstream = lines.filter((l) => l.msg === 'upstream call');
    expect(upstream.length).toBeGreaterThanOrEqual(1);
    expect(upstream.every((l) => l.correlationId === id)).toBe(true);
    expect(upstream.map((l) => l.endpoint)).toContain('GET /svc/api/v1/account/balance');
  });
});
