import { describeError } from './errors.ts';
import type { UpstreamFamily } from './upstream/guards.ts';
import type { UpstreamRuntime } from './upstream/index.ts';
import type { BreakerState } from './upstream/observer.ts';

/**
 * Readiness (/readyz): whether this instance should get traffic. It is asked often (every few
 * seconds by each load balancer), so it must be cheap: the breaker states are read from memory, an
 * open banking breaker answers at once without touching the bank, and the upstream probe (our token,
 * or a HEAD without credentials) is shared by concurrent checks and reused for PROBE_REUSE_MS.
 */
export interface Readiness {
  ready: boolean;
  body: {
    status: 'ready' | 'not ready';
    detail: string;
    /** Each upstream family's circuit breaker (upstream/guards.ts). */
    breakers: Record<UpstreamFamily, BreakerState>;
  };
}

/** The family every account, balance and payout call belongs to: without it the gateway is of no use. */
const ESSENTIAL_FAMILY: UpstreamFamily = 'banking';
const PROBE_REUSE_MS = 1_000;
const HEAD_TIMEOUT_MS = 3_000;

type Probe = { ready: boolean; detail: string };
const probes = new WeakMap<UpstreamRuntime, { at: number; result: Promise<Probe> }>();

export async function readiness(upstream: UpstreamRuntime, baseUrl: string): Promise<Readiness> {
  const breakers = upstream.breakerStates();
  const answer = ({ ready, detail }: Probe): Readiness => ({ ready, body: { status: ready ? 'ready' : 'not ready', detail, breakers } });
  if (breakers[ESSENTIAL_FAMILY] === 'open') {
    return answer({ ready: false, detail: `the ${ESSENTIAL_FAMILY} circuit breaker is open: the bank is failing` });
  }
  return answer(await sharedProbe(upstream, baseUrl));
}

function sharedProbe(upstream: UpstreamRuntime, baseUrl: string): Promise<Probe> {
  const cached = probes.get(upstream);
  if (cached && performance.now() - cached.at < PROBE_REUSE_MS) return cached.result;
  const result = probe(upstream, baseUrl);
  probes.set(upstream, { at: performance.now(), result });
  return result;
}

/** The upstream answers and a token can be had (ours, when we have credentials). */
async function probe(upstream: UpstreamRuntime, baseUrl: string): Promise<Probe> {
  try {
    if (upstream.tokens) {
      await upstream.tokens.get();
      return { ready: true, detail: 'upstream reachable, token obtained' };
    }
    // Without credentials any HTTP answer proves reachability; callers bring their own tokens.
    const response = await fetch(baseUrl, { method: 'HEAD', signal: AbortSignal.timeout(HEAD_TIMEOUT_MS) });
    await response.body?.cancel();
    return { ready: true, detail: `upstream reachable (HTTP ${response.status}); no gateway credentials, callers send tokens` };
  } catch (error) {
    // In the words a GraphQL caller would get: /readyz may be reachable from outside too.
    return { ready: false, detail: `upstream not ready: ${describeError(error)?.message ?? 'the bank could not be reached'}` };
  }
}
