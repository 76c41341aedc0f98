import { describeError } from '../transport/errors.ts';
import type { UpstreamFamily } from '../upstream/families.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import type { BreakerState } from '../upstream/observer.ts';

/**
 * Readiness (/readyz): whether this instance should get traffic, with every part it needs named: the
 * bank, and the parts the gateway adds (Redis when configured, the coverage of its own webhook
 * subscriptions). It is asked often (every few seconds by each load balancer), so it must be cheap:
 * breaker states and the parts' own states are read from memory; the bank counts as up when it
 * answered a real call lately (ReadinessTiming), and only an idle gateway probes it (one call,
 * shared by concurrent checks and reused for a few seconds).
 */

/**
 * One part's verdict: `detail` says what is wrong (or right) in words an operator can act on. A part
 * that is not `essential` (default: essential) makes the answer `degraded` but still 200: the
 * instance serves what it can and should stay in rotation.
 */
interface ReadinessPart {
  ok: boolean;
  detail: string;
  essential?: boolean;
  [more: string]: unknown;
}

export type ReadinessCheck = () => ReadinessPart | Promise<ReadinessPart>;

export interface Readiness {
  ready: boolean;
  body: {
    status: 'ready' | 'degraded' | 'not ready';
    /** The failing parts, each named, or that all are fine. */
    detail: string;
    /** Each upstream family's circuit breaker (upstream/family-breakers.ts). */
    breakers: Record<UpstreamFamily, BreakerState>;
    /** Every part's verdict: `bank` always, then the gateway's own parts. */
    checks: Record<string, ReadinessPart>;
  };
}

/** The family every account, balance and payout call belongs to: without it the gateway is of no use. */
const ESSENTIAL_FAMILY: UpstreamFamily = 'banking';
const PROBE_TIMEOUT_MS = 3_000;

/** How fresh the evidence about the bank must be. */
export interface ReadinessTiming {
  /** A real call answered this recently proves the bank up without a probe. */
  recentAnswerMs: number;
  /** A probe's verdict is reused this long (load balancers ask every few seconds). */
  probeReuseMs: number;
}

const DEFAULT_READINESS_TIMING: ReadinessTiming = { recentAnswerMs: 10_000, probeReuseMs: 5_000 };

const probes = new WeakMap<UpstreamRuntime, { at: number; result: Promise<ReadinessPart> }>();

export async function readiness(
  upstream: UpstreamRuntime,
  baseUrl: string,
  checks: Record<string, ReadinessCheck> = {},
  timing: ReadinessTiming = DEFAULT_READINESS_TIMING,
): Promise<Readiness> {
  const breakers = upstream.breakerStates();
  const parts: [string, ReadinessPart][] = await Promise.all([
    bankPart(upstream, baseUrl, breakers, timing).then((part): [string, ReadinessPart] => ['bank', part]),
    ...Object.entries(checks).map(async ([name, check]): Promise<[string, ReadinessPart]> => [name, await safely(check)]),
  ]);
  const failing = parts.filter(([, part]) => !part.ok);
  const ready = !failing.some(([, part]) => part.essential !== false);
  return {
    ready,
    body: {
      status: !ready ? 'not ready' : failing.length > 0 ? 'degraded' : 'ready',
      detail:
        failing.length === 0
          ? `ready: ${parts.map(([name]) => name).join(', ')} ok`
          : failing.map(([name, part]) => `${name}: ${part.detail}`).join('; '),
      breakers,
      checks: Object.fromEntries(parts),
    },
  };
}

/** A part whose check throws is reported as failing, with the reason, rather than failing /readyz. */
async function safely(check: ReadinessCheck): Promise<ReadinessPart> {
  try {
    return await check();
  } catch (error) {
    return { ok: false, detail: `could not be checked: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function bankPart(
  upstream: UpstreamRuntime,
  baseUrl: string,
  breakers: Record<UpstreamFamily, BreakerState>,
  timing: ReadinessTiming,
): Promise<ReadinessPart> {
  if (breakers[ESSENTIAL_FAMILY] === 'open') {
    return { ok: false, detail: `the ${ESSENTIAL_FAMILY} circuit breaker is open: the bank is failing` };
  }
  const answeredAt = upstream.lastAnsweredAt(ESSENTIAL_FAMILY);
  if (answeredAt !== undefined && Date.now() - answeredAt < timing.recentAnswerMs) {
    return { ok: true, detail: `the bank answered a call ${Math.round((Date.now() - answeredAt) / 1000)} s ago` };
  }
  return sharedProbe(upstream, baseUrl, timing);
}

function sharedProbe(upstream: UpstreamRuntime, baseUrl: string, timing: ReadinessTiming): Promise<ReadinessPart> {
  const cached = probes.get(upstream);
  if (cached && performance.now() - cached.at < timing.probeReuseMs) return cached.result;
  const result = probe(upstream, baseUrl);
  probes.set(upstream, { at: performance.now(), result });
  return result;
}

/**
 * The bank answers now. With the gateway's own login: one balance read, the cheapest call that
 * proves the token too (a cached token alone proves nothing about the bank). Without it (callers
 * bring tokens): a HEAD of the base address, where any answer under 500 proves it is reachable.
 */
async function probe(upstream: UpstreamRuntime, baseUrl: string): Promise<ReadinessPart> {
  try {
    if (upstream.tokens) {
      await upstream
        .forRequest({ gatewayLogin: true, deadline: Date.now() + PROBE_TIMEOUT_MS, correlationId: 'readiness-probe', bypassCache: true })
        .accounts.balances();
      return { ok: true, detail: 'the bank answered a probe (balance read with the gateway token)' };
    }
    const response = await fetch(baseUrl, { method: 'HEAD', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    if (response.status >= 500) return { ok: false, detail: `the bank answers HTTP ${response.status}` };
    return { ok: true, detail: `the bank is reachable (HTTP ${response.status}); no gateway credentials, callers send tokens` };
  } catch (error) {
    // In the words a GraphQL caller would get: /readyz may be reachable from outside too.
    return { ok: false, detail: describeError(error)?.message ?? 'the bank could not be reached' };
  }
}
