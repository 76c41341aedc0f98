import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { DashboardDocument } from './generated/graphql.ts';
import { useKit } from './kit.ts';

/**
 * OpenTelemetry: a small OTLP/HTTP receiver (JSON, as the exporter sends it) collects the spans of
 * a traced gateway, and the dashboard's span tree is checked against the calls the sandbox logged.
 */

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

const spans: OtlpSpan[] = [];
let receiver: Server;
let endpoint = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const logLines: Record<string, unknown>[] = [];
const kit = useKit({
  sandbox: { latencyMs: 5 },
  logger: createLogger('info', { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) }),
  get tracing() {
    return { endpoint, serviceName: 'gateway-under-test', exportDelayMs: 20 };
  },
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

/** Every span of the trace the request with this trace id made, once the exporter sent them. */
async function traceOf(traceId: string, atLeast: number): Promise<OtlpSpan[]> {
  await expect.poll(() => spans.filter((s) => s.traceId === traceId).length, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(atLeast);
  // The last batch may still be on its way.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return spans.filter((s) => s.traceId === traceId);
}

const PARENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = (n: number) => `00-${PARENT_TRACE.slice(0, 30)}${String(n).padStart(2, '0')}-00f067aa0ba902b7-01`;

describe('tracing (OpenTelemetry)', () => {
  it("traces the dashboard: one tree from the caller's traceparent, phases, loader batches, and one client span per upstream call, whose traceparent the bank got", async () => {
    const result = await kit.execute(DashboardDocument, {}, { traceparent: traceparent(1) });
    expect(result.errors).toBeUndefined();
    const calls = kit.calls();
    expect(calls).toHaveLength(9);
    const traceId = traceparent(1).split('-')[1]!;
    const tree = await traceOf(traceId, 9 + 4);
    const byId = new Map(tree.map((s) => [s.spanId, s]));
    const root = tree.find((s) => s.name === 'query Dashboard')!;
    expect(root).toBeDefined();
    // A child of the caller's span: the trace continues.
    expect(root.parentSpanId).toBe('00f067aa0ba902b7');
    expect(attribute(root, 'graphql.operation.name')).toBe('Dashboard');
    const childrenOf = (span: OtlpSpan) => tree.filter((s) => s.parentSpanId === span.spanId).map((s) => s.name);
    expect(childrenOf(root)).toEqual(expect.arrayContaining(['graphql.parse', 'graphql.validate', 'graphql.execute']));

    const execute = tree.find((s) => s.name === 'graphql.execute')!;
    const upstream = tree.filter((s) => s.kind === 3);
    expect(upstream).toHaveLength(calls.length);
    const under = (span: OtlpSpan, ancestor: OtlpSpan): boolean => {
      for (let parent = byId.get(span.parentSpanId ?? ''); parent; parent = byId.get(parent.parentSpanId ?? '')) if (parent === ancestor) return true;
      return false;
    };
    for (const span of upstream) expect(under(span, execute)).toBe(true);
    // The second round's transactions are read by a loader batch, under which their calls hang.
    const batches = tree.filter((s) => s.name.startsWith('dataloader.batch'));
    expect(batches.length).toBeGreaterThan(0);
    expect(upstream.some((span) => batches.some((batch) => under(span, batch)))).toBe(true);

    // Each call the bank got carried the traceparent of its own attempt span.
    for (const call of calls) {
      const [, callTrace, parentSpan] = call.traceparent!.split('-');
      expect(callTrace).toBe(traceId);
      const span = byId.get(parentSpan!)!;
      expect(span.kind).toBe(3);
      expect(attribute(span, 'banking.request_id')).toBe(call.requestId);
    }
  });

  it('shows a retried read as two attempt spans', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 503, count: 1, method: 'GET', path: '/svc/api/v1/account/balance' });
    const result = await kit.execute(parse('{ balances { currency } }'), {}, { traceparent: traceparent(2) });
    expect(result.errors).toBeUndefined();
    const tree = await traceOf(traceparent(2).split('-')[1]!, 2);
    const attempts = tree.filter((s) => s.kind === 3 && s.name === 'GET /svc/api/v1/account/balance');
    expect(attempts.map((s) => [attribute(s, 'banking.attempt'), attribute(s, 'http.response.status_code')])).toEqual([
      [1, 503],
      [2, 200],
    ]);
  });

  it("puts the trace id in each error's extensions and in the operation's log line", async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 400, count: 1, method: 'GET', path: '/svc/api/v1/account/balance' });
    const refused = await kit.execute(parse('query Refused { balances { currency } }'), {}, { traceparent: traceparent(5) });
    const traceId = traceparent(5).split('-')[1];
    expect(refused.errors?.length).toBeGreaterThan(0);
    for (const error of refused.errors!) expect(error.extensions?.traceId).toBe(traceId);
    const line = logLines.find((l) => l.msg === 'operation executed' && l.operation === 'Refused');
    expect(line?.traceId).toBe(traceId);
  });

  it('starts a trace of its own for a request without traceparent', async () => {
    const before = new Set(spans.map((s) => s.traceId));
    await kit.execute(parse('{ balances { currency } }'));
    await expect.poll(() => spans.some((s) => !before.has(s.traceId) && s.name === 'query anonymous'), { timeout: 5_000 }).toBe(true);
    const root = spans.find((s) => !before.has(s.traceId) && s.name === 'query anonymous')!;
    expect(root.parentSpanId ?? '').toBe('');
  });
});
