import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { startTracing, type Tracing } from '../../src/observability/tracing-sdk.ts';
import { DashboardDocument, OneCallBalancesDocument } from '../generated/graphql.ts';
import { afterAnswer, startKit, type Kit } from '../helpers/kit.ts';
import { record } from '../helpers/leak-scan.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';

/**
 * Issue 18, part 3: OpenTelemetry. With an OTLP endpoint the gateway exports one trace per
 * operation: the operation's span, its parse, validate and execute, each loader batch, and each
 * HTTP attempt to the bank, which carries the attempt's traceparent. A small OTLP/HTTP receiver
 * stands in for the collector; the sandbox's request log says what the bank received.
 */

const BALANCE = '/svc/api/v1/account/balance';
const SPAN_KIND = { server: 2, client: 3 };
const STATUS_ERROR = 2;

const lines: Record<string, unknown>[] = [];
const logger = createLogger('info', {
  write: (line: string) => {
    record('gateway log', line);
    lines.push(JSON.parse(line) as Record<string, unknown>);
  },
});

let receiver: OtlpReceiver;
let tracing: Tracing;
let kit: Kit;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = startTracing({ endpoint: receiver.url, serviceName: 'gateway-under-test' }, logger);
  kit = await startKit({ tracer: tracing.tracer, logger });
});
afterAll(async () => {
  await kit?.close();
  await tracing?.shutdown();
  await receiver?.close();
});
beforeEach(async () => {
  await kit.fresh();
  lines.length = 0;
});

/** Every span of the trace, once the gateway has exported what it holds. */
async function traceOf(traceId: string): Promise<ReceivedSpan[]> {
  await tracing.flush();
  return receiver.spans.filter((span) => span.traceId === traceId);
}

/** The trace of the one operation named `name` exported since `before` spans were received. */
async function operationTrace(name: string, before: number): Promise<{ operation: ReceivedSpan; spans: ReceivedSpan[] }> {
  await tracing.flush();
  const operations = receiver.spans.slice(before).filter((span) => span.name === `graphql.operation ${name}`);
  expect(operations).toHaveLength(1);
  const operation = operations[0]!;
  return { operation, spans: await traceOf(operation.traceId) };
}

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) => spans.filter((span) => span.parentSpanId === parent.spanId);
const one = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0]!;
};
const attemptsIn = (spans: ReceivedSpan[]) => spans.filter((span) => span.attributes['gateway.upstream.endpoint'] !== undefined);
const traceparentOf = (span: ReceivedSpan) => `00-${span.traceId}-${span.spanId}-01`;

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it("exports the dashboard's span tree: the operation, its phases, the loader batches and every attempt the bank logged, each sent with its own traceparent", async () => {
    const before = receiver.spans.length;
    const result = await kit.execute(DashboardDocument);
    expect(result.errors).toBeUndefined();
    const calls = kit.calls();
    const { operation, spans } = await operationTrace('Dashboard', before);

    // One trace, started here (no traceparent came in), with the operation at its root.
    expect(operation).toMatchObject({ parentSpanId: '', kind: SPAN_KIND.server, service: 'gateway-under-test' });
    expect(operation.attributes).toMatchObject({ 'graphql.operation.name': 'Dashboard', 'graphql.operation.type': 'query' });
    expect(operation.attributes['gateway.request.id']).toEqual(calls[0]!.correlationId);
    const phases = childrenOf(spans, operation)
      .map((span) => span.name)
      .sort();
    expect(phases).toEqual(['graphql.execute', 'graphql.parse', 'graphql.validate']);
    const execute = one(spans, 'graphql.execute');

    // The payout's beneficiary is read through its loader: a batch span under execute.
    const batches = spans.filter((span) => span.name.startsWith('dataloader.batch '));
    expect(batches.map((span) => span.name)).toEqual(['dataloader.batch Beneficiary']);
    expect(batches[0]!.parentSpanId).toBe(execute.spanId);
    expect(batches[0]!.attributes).toMatchObject({ 'dataloader.name': 'Beneficiary', 'dataloader.batch.size': 1 });

    // Each call the bank logged is one client span of this trace, and it sent that span as its parent.
    const attempts = attemptsIn(spans);
    expect(calls.length).toBeGreaterThanOrEqual(9);
    expect(attempts).toHaveLength(calls.length);
    for (const call of calls) {
      const attempt = attempts.find((span) => span.attributes['gateway.upstream.request_id'] === call.requestId);
      expect(attempt, `the span of ${call.method} ${call.path}`).toBeDefined();
      expect(call.traceparent).toBe(traceparentOf(attempt!));
      expect(attempt!.kind).toBe(SPAN_KIND.client);
      expect(attempt!.attributes).toMatchObject({
        'http.request.method': call.method,
        'url.path': call.path,
        'http.response.status_code': call.status,
        'gateway.upstream.attempt': 1,
      });
    }
    const beneficiary = attempts.filter((span) => String(span.attributes['url.path']).includes('/beneficiary'));
    expect(beneficiary.map((span) => span.parentSpanId)).toEqual([batches[0]!.spanId]);
    expect(attempts.filter((span) => span.parentSpanId === execute.spanId)).toHaveLength(calls.length - 1);
    // No secret in what is exported: no query string, no header values.
    expect(JSON.stringify(spans)).not.toMatch(/authorization|bearer|x-api-key/i);
  });

  it("continues a caller's trace: the operation is the child of the traceparent it sent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const result = await kit.execute(OneCallBalancesDocument, {}, { traceparent: `00-${traceId}-${parent}-01` });
    expect(result.errors).toBeUndefined();
    const spans = await traceOf(traceId);
    const operation = one(spans, 'graphql.operation OneCallBalances');
    expect(operation.parentSpanId).toBe(parent);
    const [attempt] = attemptsIn(spans);
    expect(kit.calls(BALANCE).map((call) => call.traceparent)).toEqual([traceparentOf(attempt!)]);
  });

  it('shows a read the bank failed once and then answered as two attempt spans, the first an error', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 503, count: 1, method: 'GET', path: BALANCE });
    const before = receiver.spans.length;
    const result = await kit.execute(OneCallBalancesDocument);
    expect(result.errors).toBeUndefined();
    const { spans } = await operationTrace('OneCallBalances', before);
    const execute = one(spans, 'graphql.execute');
    const attempts = attemptsIn(spans).sort(
      (a, b) => Number(a.attributes['gateway.upstream.attempt']) - Number(b.attributes['gateway.upstream.attempt']),
    );
    expect(
      attempts.map((span) => [span.attributes['gateway.upstream.attempt'], span.attributes['http.response.status_code'], span.status]),
    ).toEqual([
      [1, 503, STATUS_ERROR],
      [2, 200, 0],
    ]);
    expect(attempts[1]!.attributes['http.request.resend_count']).toBe(1);
    expect(attempts.every((span) => span.parentSpanId === execute.spanId)).toBe(true);
    const calls = kit.calls(BALANCE);
    expect(calls.map((call) => [call.status, call.traceparent])).toEqual(
      attempts.map((span) => [span.attributes['http.response.status_code'], traceparentOf(span)]),
    );
  });

  it("puts the trace id in each error's extensions and in the operation's log line", async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 503, count: 10, method: 'GET', path: BALANCE });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const result = await kit.execute(OneCallBalancesDocument, {}, { traceparent: `00-${traceId}-b7ad6b7169203331-01` });
    expect(result.errors?.map((error) => [error.extensions?.code, error.extensions?.traceId])).toEqual([['UPSTREAM_UNAVAILABLE', traceId]]);
    await afterAnswer();
    const logged = lines.filter((line) => line.msg === 'operation executed');
    expect(logged.map((line) => [line.operation, line.outcome, line.traceId])).toEqual([['OneCallBalances', 'partial', traceId]]);
    const operation = one(await traceOf(traceId), 'graphql.operation OneCallBalances');
    expect(operation.status).toBe(STATUS_ERROR);
    expect(operation.attributes['gateway.graphql.error.codes']).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('gives a request refused at validation a trace of its own, named in its errors', async () => {
    const before = receiver.spans.length;
    const response = await kit.gateway.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query Typo { balancez { currency } }' }),
    });
    const { errors } = (await response.json()) as { errors: { message: string; extensions: { traceId?: string } }[] };
    expect(errors[0]!.message).toContain('balancez');
    const { operation, spans } = await operationTrace('Typo', before);
    expect(errors.map((error) => error.extensions.traceId)).toEqual([operation.traceId]);
    expect(one(spans, 'graphql.validate').status).toBe(STATUS_ERROR);
    expect(spans.some((span) => span.name === 'graphql.execute')).toBe(false);
  });
});

/** `npm start` as an operator runs it, with the OTel variables set. */
function npmStart(env: Record<string, string>) {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: new URL('../../', import.meta.url),
    env: { ...process.env, LOG_LEVEL: 'info', PORT: '0', SANDBOX_PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  npm.stderr.on('data', () => {});
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  const logLines = () =>
    out
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as Record<string, any>);
  return { npm, exited, logLines };
}

async function queryOnce(started: ReturnType<typeof npmStart>): Promise<unknown> {
  let url: string | undefined;
  await expect
    .poll(() => (url = started.logLines().find((line) => line.msg === 'gateway ready')?.url), { timeout: 30_000, interval: 100 })
    .toBeDefined();
  const response = await fetch(url!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"query":"query Started { balances { currency } }"}',
  });
  return response.json();
}

describe('npm start with tracing', () => {
  it('exports with the service name it is given, and flushes what it holds on SIGTERM', async () => {
    const collector = await startOtlpReceiver();
    try {
      const started = npmStart({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'gateway-eu' });
      expect(await queryOnce(started)).toMatchObject({ data: { balances: expect.any(Array) } });
      started.npm.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      // The batch would wait 5 s; the stop sends it at once.
      const operation = collector.spans.find((span) => span.name === 'graphql.operation Started');
      expect(operation?.service).toBe('gateway-eu');
      expect(
        collector.spans.filter((span) => span.traceId === operation?.traceId && span.name === 'GET /svc/api/v1/account/balance'),
      ).toHaveLength(1);
    } finally {
      await collector.close();
    }
  }, 60_000);

  it('answers as usual when the collector cannot be reached, and says the spans were dropped', async () => {
    const gone = await startOtlpReceiver();
    await gone.close();
    const started = npmStart({ OTEL_EXPORTER_OTLP_ENDPOINT: gone.url });
    expect(await queryOnce(started)).toMatchObject({ data: { balances: expect.any(Array) } });
    started.npm.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(started.logLines().filter((line) => line.msg === 'trace export failed: spans dropped').length).toBeGreaterThan(0);
  }, 60_000);
});
