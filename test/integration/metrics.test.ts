import { describe, expect, it } from 'vitest';
import { postGraphql } from '../helpers/http.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { afterAnswer, useKit } from '../helpers/kit.ts';
import { subscribeWs } from '../helpers/subscribe.ts';

/**
 * /metrics in Prometheus text format: operations by name, type and outcome; refusals; HTTP answers;
 * webhook deliveries by outcome; open subscriptions; upstream calls by endpoint and status.
 */
const kit = useKit({ listen: true, metricsToken: 'metrics-secret' });

async function scrape(token = 'metrics-secret'): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(`${kit.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

/** The value of one series, e.g. `gateway_webhook_events_total{outcome="accepted",status="202"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const run = (query: string) => postGraphql(`${kit.baseUrl}/graphql`, { query });

describe('/metrics', () => {
  it('needs the metrics token when one is configured', async () => {
    const refused = await scrape('wrong');
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('gateway_');
    const allowed = await scrape();
    expect(allowed.status).toBe(200);
    expect(allowed.type).toContain('text/plain');
  });

  it('counts operations by name, type and outcome, and refusals before execution', async () => {
    const before = (await scrape()).text;
    const series = 'gateway_operation_duration_seconds_count{operation="Balances",type="query",outcome="ok"}';
    const start = sample(before, series) ?? 0;
    for (let i = 0; i < 3; i++) expect((await run('query Balances { balances { currency } }')).status).toBe(200);
    await run('query Missing { account(id: "acc_nope") { label } }');
    await run('{ noSuchField }');
    // Operations are counted on the turn after their answer.
    await afterAnswer();
    const after = (await scrape()).text;
    expect(sample(after, series)).toBe(start + 3);
    expect(sample(after, 'gateway_operation_duration_seconds_count{operation="Missing",type="query",outcome="ok"}')).toBe(1);
    expect(sample(after, 'gateway_operations_refused_total')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'gateway_http_responses_total{status="200"}')).toBeGreaterThanOrEqual(4);
  });

  it('counts upstream calls by endpoint and status, and shows each breaker closed', async () => {
    await run('{ balances { currency } }');
    const text = (await scrape()).text;
    for (const family of ['auth', 'banking', 'issuing', 'webhooks', 'direct-debit']) {
      expect(sample(text, `gateway_upstream_breaker_state{family="${family}"}`)).toBe(0);
    }
    expect(
      sample(
        text,
        'gateway_upstream_call_duration_seconds_count{endpoint="GET /svc/api/v1/account/balance",family="banking",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
  });

  it("shows each bank host's concurrency limit, the calls in flight and waiting, and how long calls waited for a slot", async () => {
    await run('{ balances { currency } }');
    const text = (await scrape()).text;
    const host = new URL(kit.sandbox.url).host;
    // The limit adapts to the sandbox's answers as tests load it: the metric shows the one in force.
    expect(sample(text, `gateway_upstream_concurrency_limit{host="${host}"}`)).toBe(kit.gateway.upstream.concurrencyLimits()[host]!.limit);
    expect(sample(text, `gateway_upstream_calls_in_flight{host="${host}"}`)).toBe(0);
    expect(sample(text, `gateway_upstream_calls_queued{host="${host}"}`)).toBe(0);
    expect(sample(text, `gateway_upstream_queue_wait_seconds_count{host="${host}"}`)).toBeGreaterThanOrEqual(1);
  });

  it('counts webhook deliveries accepted, duplicated and rejected, and open subscriptions', async () => {
    const subscriber = await subscribeWs(kit, 'subscription { bankEvents { id } }');
    const event = bankEvent('acct_metrics_account.active');
    expect((await deliverEvent(kit.baseUrl, event)).status).toBe(202);
    expect((await deliverEvent(kit.baseUrl, event)).status).toBe(200);
    expect((await deliverEvent(kit.baseUrl, event, { apiKey: 'wrong' })).status).toBe(401);
    await subscriber.next(1);
    const text = (await scrape()).text;
    expect(sample(text, 'gateway_webhook_events_total{outcome="accepted",status="202"}')).toBe(1);
    expect(sample(text, 'gateway_webhook_events_total{outcome="duplicate",status="200"}')).toBe(1);
    expect(sample(text, 'gateway_webhook_events_total{outcome="rejected",status="401"}')).toBe(1);
    expect(sample(text, 'gateway_subscriptions_open')).toBe(1);
    expect(sample(text, 'gateway_subscriptions_started_total{operation="anonymous"}')).toBe(1);
    await subscriber.close();
  });
});
