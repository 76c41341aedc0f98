import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { useKit } from './kit.ts';
import { record } from './leak-scan.ts';

/**
 * Structured JSON logs with the request id carried to the bank: each answer names its request
 * (x-request-id), the operation's log line carries that id, and each upstream call of the operation
 * is sent with it as x-correlation-id (the bank's own x-request-id stays the per-call idempotency key).
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
  it("keeps a caller's plausible x-request-id and sends it upstream as x-correlation-id", async () => {
    const response = await run('query Balances { balances { currency } }', { 'x-request-id': 'frontend-7f3a.42' });
    expect(response.headers.get('x-request-id')).toBe('frontend-7f3a.42');
    const calls = kit.sandbox.requests().filter((r) => r.path === '/svc/api/v1/account/balance');
    expect(calls.map((c) => c.correlationId)).toEqual(['frontend-7f3a.42']);
    // The bank's x-request-id is still a fresh id per call, not the gateway's.
    expect(calls[0]!.requestId).not.toBe('frontend-7f3a.42');
  });

  it('makes its own id when the caller sent none or an implausible one', async () => {
    const none = (await run('{ balances { currency } }')).headers.get('x-request-id');
    const hostile = (await run('{ balances { currency } }', { 'x-request-id': 'x\u0000'.repeat(200) })).headers.get('x-request-id');
    for (const id of [none, hostile]) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(none).not.toBe(hostile);
  });

  it('logs one JSON line per operation with the request id, caller, outcome and time, and the upstream calls with the same id', async () => {
    lines.length = 0;
    await run('query Balances { balances { currency } }', { 'x-request-id': 'trace-me-1' });
    const operation = lines.find((l) => l.msg === 'operation executed');
    expect(operation).toMatchObject({ requestId: 'trace-me-1', operation: 'Balances', type: 'query', caller: 'anonymous', outcome: 'ok', level: 30 });
    expect(typeof operation!.ms).toBe('number');
    const upstream = lines.filter((l) => l.msg === 'upstream call');
    expect(upstream.length).toBeGreaterThanOrEqual(1);
    expect(upstream.every((l) => l.correlationId === 'trace-me-1')).toBe(true);
    expect(upstream.map((l) => l.endpoint)).toContain('GET /svc/api/v1/account/balance');
  });
});
