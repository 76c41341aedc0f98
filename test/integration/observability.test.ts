import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import type { CallerAuthConfig } from '../../src/settings/index.ts';
import { createMetricsRegistry } from '../../src/platform/metrics-registry.ts';
import { postGraphql } from '../helpers/http.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';
import { readExposition, readPromql, type Exposition } from '../helpers/promql.ts';
import { REDIS_URL, redisAnswers } from '../helpers/redis.ts';
import { mustSkip } from '../helpers/skip.ts';
import { subscribeWs } from '../helpers/subscribe.ts';

/**
 * The operators' dashboard and alerting rules (deploy/observability/) name only what a running
 * gateway exports: every metric, and every label a selector, a by/without/on clause, a legend or an
 * annotation reads, is held to the /metrics of a real gateway (with Redis, the per-client limit and
 * an audit destination that fails, so that each labelled series exists), after traffic of every
 * kind. Node's process metrics come from the registry npm start uses (createMetricsRegistry(true)):
 * test gateways leave them out. promtool, which would check the rules' syntax, is not installed
 * here; the rules are read as YAML and each expression by test/helpers/promql.ts.
 */

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** Labels Prometheus puts on every series it scrapes, and the series it makes itself. */
const TARGET_LABELS = ['job', 'instance'];
const PROMETHEUS_SERIES: Exposition = new Map([['up', new Set<string>()]]);

const KEYS = { operator: 'gwk_observability-operator-0123456789abcdef', flood: 'gwk_observability-flood-0123456789abcdef' };
for (const key of Object.values(KEYS)) registerSecret('a caller API key', key);
const AUTH: CallerAuthConfig = {
  mode: 'service',
  apiKeys: Object.entries(KEYS).map(([name, key]) => ({ name, sha256: sha256Hex(key), roles: ['admin'], cardholderId: null })),
  jwt: undefined,
  allowedOrigins: [],
};
const OPERATIONS_PER_WINDOW = 8;
const QUOTE =
  'mutation Lock { quoteCreate(input: {quoteType: CONVERSION, lockPeriod: MINUTES_15, conversionSchedule: NEXT_DAY, sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "10"}, idempotencyKey: "observability-1") { __typename } }';

const haveRedis = await redisAnswers(REDIS_URL);
const skip = mustSkip(
  haveRedis || Boolean(process.env.CI),
  `the dashboard and alerts against /metrics: no Redis at ${REDIS_URL} (CI has it)`,
);

describe.skipIf(skip)('the dashboard and the alerting rules name only what the gateway exports', () => {
  const prefix = `observability-test-${randomUUID()}`;
  let kit: Kit;
  let exported: Exposition;

  beforeAll(async () => {
    // A file where the audit trail wants a directory: each record it misses is counted by destination.
    const blocker = join(mkdtempSync(join(tmpdir(), 'observability-')), 'not-a-directory');
    writeFileSync(blocker, 'a file where the audit trail wants a directory');
    kit = await startKit({
      listen: true,
      metricsToken: 'observability-metrics-token',
      auth: AUTH,
      redis: { url: REDIS_URL },
      // One replica asked for of a Redis that has none: every event is answered 503 (replicas_short),
      // the one refusal of the event log there is to make without stopping Redis.
      eventDurability: { minReplicasAck: 1, replicaAckTimeoutMs: 50 },
      redisKeyPrefix: prefix,
      auditRedisKey: `${prefix}:audit`,
      clientRateLimit: { operations: OPERATIONS_PER_WINDOW, windowSeconds: 60 },
      clientRateLimitKeyPrefix: `${prefix}:client-operations`,
      audit: { destination: { kind: 'file', path: join(blocker, 'audit.jsonl') }, redisMaxLen: 100 },
    });
    await driveTraffic(kit);
    const scraped = await fetch(`${kit.baseUrl}/metrics`, { headers: { authorization: 'Bearer observability-metrics-token' } });
    expect(scraped.status).toBe(200);
    const processMetrics = await createMetricsRegistry(true).metrics();
    exported = new Map([...readExposition(await scraped.text()), ...readExposition(processMetrics), ...PROMETHEUS_SERIES]);
  });
  afterAll(async () => {
    await kit?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('the traffic made every labelled series the checks below rely on', () => {
    for (const [series, label] of [
      ['gateway_operation_duration_seconds_bucket', 'outcome'],
      ['gateway_upstream_call_duration_seconds_count', 'family'],
      ['gateway_webhook_events_total', 'status'],
      ['gateway_events_unlogged_total', 'reason'],
      ['gateway_subscriptions_started_total', 'operation'],
      ['gateway_callers_refused_total', 'reason'],
      ['gateway_client_limit_refusals_total', 'reason'],
      ['gateway_audit_write_failures_total', 'destination'],
      ['gateway_record_cache_reads_total', 'result'],
      ['gateway_upstream_contract_violations_total', 'path'],
    ] as const) {
      expect(exported.get(series), series).toContain(label);
    }
    expect(exported.has('gateway_redis_up')).toBe(true);
    expect(exported.has('gateway_client_rate_limit_shared')).toBe(true);
  });

  it('every panel query and variable of the dashboard', () => {
    const dashboard = JSON.parse(read('deploy/observability/grafana/dashboards/gateway.json')) as Dashboard;
    const queries = panelsOf(dashboard).flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr, legend: target.legendFormat })),
    );
    expect(queries.length).toBeGreaterThan(30);
    const problems = queries.flatMap(({ where, expr, legend }) =>
      problemsOf(exported, where, expr, labelsIn(legend ?? '', /\{\{\s*(\w+)\s*\}\}/g)),
    );
    for (const variable of dashboard.templating.list.filter((v) => v.type === 'query')) {
      const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
      const [, selector, label] = /^label_values\((.+),\s*(\w+)\)$/.exec(query) ?? [];
      expect(selector, `variable ${variable.name}: label_values(<selector>, <label>)`).toBeDefined();
      problems.push(...problemsOf(exported, `variable ${variable.name}`, selector!, [label!]));
    }
    expect(problems).toEqual([]);
  });

  it('every alerting rule, its annotations included', () => {
    const problems = rulesOf().flatMap((rule) =>
      problemsOf(
        exported,
        `alert ${rule.alert}`,
        rule.expr,
        Object.values(rule.annotations).flatMap((text) => labelsIn(text, /\$labels\.(\w+)/g)),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('a misspelt metric, a label no series has, or an unknown function is caught', () => {
    expect(problemsOf(exported, 'x', 'rate(gateway_operation_duration_seconds_totl[5m])', [])).toEqual([
      expect.stringContaining('gateway_operation_duration_seconds_totl'),
    ]);
    expect(problemsOf(exported, 'x', 'gateway_operation_duration_seconds{type="query"}', [])).toEqual([
      expect.stringContaining('histogram'),
    ]);
    expect(problemsOf(exported, 'x', 'sum by (tenant) (gateway_redis_up{instance=~".+"})', [])).toEqual([
      expect.stringContaining('tenant'),
    ]);
    expect(problemsOf(exported, 'x', 'gateway_webhook_events_total{route="shared"}', [])).toEqual([expect.stringContaining('route')]);
    expect(problemsOf(exported, 'x', 'gateway_redis_up', ['family'])).toEqual([expect.stringContaining('family')]);
    expect(() => readPromql('sum(rated(gateway_redis_up[5m]))')).toThrow('rated() is no PromQL function');
  });
});

describe('the dashboard', () => {
  const dashboard = JSON.parse(read('deploy/observability/grafana/dashboards/gateway.json')) as Dashboard;
  const panels = panelsOf(dashboard);

  it('has unique panel ids, each panel placed, and picks its Prometheus through a data-source variable', () => {
    const ids = panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
    for (const panel of panels) {
      expect(panel.gridPos, panel.title).toEqual({
        h: expect.any(Number),
        w: expect.any(Number),
        x: expect.any(Number),
        y: expect.any(Number),
      });
      if (panel.type === 'row') continue;
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? [])
        expect(target.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
    }
  });

  it('filters every query by the job and instance variables', () => {
    const unfiltered = panels
      .flatMap((panel) => panel.targets ?? [])
      .filter((target) => readPromql(target.expr).selectors.some((s) => !s.labels.includes('instance')));
    expect(unfiltered.map((target) => target.expr)).toEqual([]);
  });
});

describe('the alerting rules', () => {
  const rules = rulesOf();
  const operations = read('docs/operations.md');

  it('parse as Prometheus rule groups: every rule with its expression, a for, a severity, a summary and a description', () => {
    expect(rules.length).toBeGreaterThanOrEqual(10);
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule, rule.alert).toEqual({
        alert: expect.stringMatching(/^[A-Z][A-Za-z]+$/),
        expr: expect.any(String),
        for: expect.stringMatching(/^\d+[smh]$/),
        labels: { severity: expect.stringMatching(/^(critical|warning)$/) },
        annotations: { summary: expect.any(String), description: expect.any(String), runbook_url: expect.any(String) },
      });
    }
  });

  it('link each to its runbook in docs/operations.md, and every runbook there to its alert', () => {
    const anchors = new Set([...operations.matchAll(/^#{2,4} (.+)$/gm)].map((heading) => githubAnchor(heading[1]!)));
    for (const rule of rules) {
      expect(rule.annotations.runbook_url, rule.alert).toBe(`docs/operations.md#${githubAnchor(rule.alert)}`);
      expect(anchors, rule.alert).toContain(githubAnchor(rule.alert));
    }
    const runbooks = operations.slice(operations.indexOf('\n## Runbooks\n'));
    const section = runbooks.slice(0, runbooks.indexOf('\n## ', 1) > 0 ? runbooks.indexOf('\n## ', 1) : undefined);
    expect([...section.matchAll(/^### (\w+)$/gm)].map((heading) => heading[1]).sort()).toEqual(rules.map((rule) => rule.alert).sort());
  });

  it('watch the job the shipped Prometheus scrapes', () => {
    const prometheus = parse(read('deploy/observability/prometheus/prometheus.yml')) as { scrape_configs: { job_name: string }[] };
    const jobs = rules.flatMap((rule) => [...rule.expr.matchAll(/job="([^"]+)"/g)].map((m) => m[1]));
    expect(jobs.length).toBeGreaterThan(0);
    expect(new Set(jobs)).toEqual(new Set(prometheus.scrape_configs.map((config) => config.job_name)));
  });
});

// ---------------------------------------------------------------------------------------------

interface Target {
  expr: string;
  legendFormat?: string;
  datasource?: unknown;
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: unknown;
  datasource?: unknown;
  targets?: Target[];
  panels?: Panel[];
}
interface Dashboard {
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: string | { query: string } }[] };
}
interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** Every panel, those inside collapsed rows included. */
function panelsOf(dashboard: Dashboard): Panel[] {
  return dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
}

function rulesOf(): Rule[] {
  const file = parse(read('deploy/observability/prometheus/alerts.yml')) as { groups: { name: string; rules: Rule[] }[] };
  return file.groups.flatMap((group) => group.rules);
}

function labelsIn(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/**
 * What `expr` names that the gateway does not export: a metric (a classic histogram's own name is
 * not a series: only its _bucket, _sum and _count are), a matcher's label the metric has no series
 * with, or a label that `by`/`on`/... or `shown` (legends, annotations) reads and none of its
 * metrics has.
 */
function problemsOf(exported: Exposition, where: string, expr: string, shown: string[]): string[] {
  const reading = readPromql(expr);
  const problems: string[] = [];
  const available = new Set(TARGET_LABELS);
  for (const { metric, labels } of reading.selectors) {
    const series = metric === undefined ? undefined : exported.get(metric);
    if (!series) {
      const histogram = metric !== undefined && exported.has(`${metric}_bucket`);
      problems.push(
        `${where}: ${metric ?? 'a selector without a metric name'} ${histogram ? 'is a histogram: select its _bucket, _sum or _count' : 'is not exported'}`,
      );
      continue;
    }
    for (const label of series) available.add(label);
    for (const label of labels)
      if (!series.has(label) && !TARGET_LABELS.includes(label)) problems.push(`${where}: ${metric} has no label ${label}`);
  }
  for (const label of [...reading.groupingLabels, ...shown])
    if (!available.has(label)) problems.push(`${where}: no metric of ${expr} has the label ${label}`);
  return problems;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A query, a mutation, a refused caller, an answer that breaks its contract, a client over its window, a bank event (refused) and a subscription. */
async function driveTraffic(kit: Kit): Promise<void> {
  const as = (key: string) => ({ 'x-api-key': key });
  const subscription = await subscribeWs(kit, 'subscription { bankEvents { id } }', {}, as(KEYS.operator));
  for (let i = 0; i < 2; i++)
    expect(
      (await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ balances { currency } }' }, as(KEYS.operator))).body.errors,
    ).toBeUndefined();
  expect((await postGraphql(`${kit.baseUrl}/graphql`, { query: QUOTE }, as(KEYS.operator))).body.data.quoteCreate.__typename).toBe(
    'QuoteCreateSuccess',
  );
  expect(
    (await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ node(id: "not-an-id") { id } }' }, as(KEYS.operator))).body.errors,
  ).toBeDefined();
  // An answer that breaks its contract: the drift metric's endpoint and path.
  await kit.control('POST', 'faults', { kind: 'contract', method: 'GET', path: '/svc/api/v1/account' });
  expect(
    (await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ accounts(first: 1) { nodes { upstreamId } } }' }, as(KEYS.operator))).body
      .errors[0].extensions.code,
  ).toBe('UPSTREAM_CONTRACT_ERROR');
  expect((await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ balances { currency } }' })).status).toBe(401);
  const flood = [];
  for (let i = 0; i <= OPERATIONS_PER_WINDOW; i++)
    flood.push((await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ balances { currency } }' }, as(KEYS.flood))).status);
  expect(flood.at(-1)).toBe(429);
  expect((await deliverEvent(kit.baseUrl, bankEvent(`observability-${randomUUID()}`))).status).toBe(503);
  await subscription.close();
  // The file destination fails after the mutation's answer (its writes are asynchronous).
  await vi.waitFor(async () =>
    expect(await kit.gateway.metrics.registry.getSingleMetricAsString('gateway_audit_write_failures_total')).toContain(
      'destination="file"',
    ),
  );
}
