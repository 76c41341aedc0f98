import autocannon from 'autocannon';
import { createGateway } from '../src/gateway.ts';
import { silentLogger } from '../src/logger.ts';
import { startSandbox } from '../src/sandbox/index.ts';
import { sandboxUpstreamConfig } from '../src/sandbox/upstream-config.ts';

/**
 * `npm run bench`: the gateway over the sandbox on loopback, under autocannon. Prints throughput,
 * latency, upstream calls per operation and memory. Figures, not pass/fail: compare runs by eye.
 * BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 20), SANDBOX_LATENCY_MS (default 5, a
 * nearby bank) tune it.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const latencyMs = Number(process.env.SANDBOX_LATENCY_MS ?? 5);

const sandbox = await startSandbox({ port: 0, latencyMs });
const gateway = createGateway({ logger: silentLogger, upstream: sandboxUpstreamConfig(sandbox) });
const { port } = await gateway.server.listen(0, '127.0.0.1');
const url = `http://127.0.0.1:${port}/graphql`;

const scenarios: { name: string; query: string }[] = [
  { name: 'balances', query: '{ balances { currency available { amount currency } } }' },
  {
    name: 'accounts + 20 transactions each',
    query:
      '{ accounts(first: 10) { nodes { upstreamId status transactions(first: 20) { nodes { upstreamId amount { amount currency } createdAt } } } } }',
  },
  {
    name: 'four accounts by id (batched)',
    query:
      '{ a: account(id: "acc_demo_usd") { label } b: account(id: "acc_demo_eur") { label } c: account(id: "acc_demo_gbp") { label } d: account(id: "acc_demo_sgd") { label } }',
  },
  {
    name: 'beneficiaries page + upcoming payouts',
    query:
      '{ beneficiaries(first: 20) { nodes { upstreamId companyName bankDetails { accountNumber } } } upcomingPayouts(first: 10) { nodes { status sourceAmount { amount currency } beneficiary { companyName } } } }',
  },
  { name: 'fx rate', query: '{ fxRate(sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "1000") { rate destinationAmount { amount } } }' },
];

function row(cells: (string | number)[]): string {
  return cells.map((cell, i) => String(cell).padEnd(i === 0 ? 42 : 12)).join('');
}

console.log(`gateway bench: ${seconds}s per scenario, ${connections} connections, sandbox latency ${latencyMs} ms, Node ${process.version}`);
console.log(row(['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'calls/op', 'rss MB']));
const rssAtStart = Math.round(process.memoryUsage().rss / 1024 / 1024);
for (const scenario of scenarios) {
  const body = JSON.stringify({ query: scenario.query });
  // One operation alone, on a warm token and a quiet upstream: how many upstream calls it costs.
  await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await fetch(`${sandbox.url}/sandbox/requests`, { method: 'DELETE' });
  const probe = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()) as { errors?: unknown };
  if (probe.errors) throw new Error(`${scenario.name} failed: ${JSON.stringify(probe.errors)}`);
  const callsPerOp = sandbox.requests().length;

  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: seconds,
  });
  const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
  console.log(
    row([scenario.name, Math.round(result.requests.average), result.latency.p50, result.latency.p99, result.errors + result.non2xx, callsPerOp, rssMb]),
  );
}

console.log(`rss at start ${rssAtStart} MB (gateway, sandbox and autocannon share this process)`);
await gateway.server.stop(1_000);
await sandbox.close();
