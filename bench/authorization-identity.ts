/**
 * What authorization costs a request besides the scope checks, each timed alone in this process: an
 * API key's check, a JWT's (on its first request and on a later one), a mutation's audit record.
 */

import { setImmediate as turn } from 'node:timers/promises';
import { parse, type GraphQLResolveInfo } from 'graphql';
import { recordAttempt } from '../src/audit/attempts.ts';
import { useMutationAudit } from '../src/audit/plugin.ts';
import { createAuditTrail } from '../src/audit/trail.ts';
import { createAuthenticator, type Authenticator } from '../src/authentication/authenticate.ts';
import type { CallerIdentity } from '../src/authentication/identity.ts';
import type { Presented } from '../src/authentication/credentials.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { accessOf } from '../src/authorization/permissions.ts';
import { JWT_AUDIENCE, JWT_ISSUER, startJwks } from '../test/helpers/jwks.ts';
import { benchApiKey, CONFIGURED_API_KEYS, serviceAuthConfig } from './authorization-context.ts';
import { extraCardMutation } from './operations.ts';
import { spreadOf } from './stats.ts';

export interface PerCall {
  /** Calls in each timed batch, and batches. */
  batch: number;
  batches: number;
  /** CPU ms per call (the whole process: a JWT's signature is checked on libuv's thread pool). */
  cpu: { p50: number; p95: number };
  /** Elapsed ms per call, awaited one after another. */
  wall: { p50: number; p95: number };
}

export interface IdentityCosts {
  apiKeys: number;
  apiKey: PerCall;
  /** A JWT the gateway verified within the last minute: every request of a frontend after its first. */
  jwt: PerCall;
  /** A JWT's first request: its signature checked (RS256, the JWKS already fetched). */
  jwtFirst: PerCall;
}

interface Measure {
  batch: number;
  once: () => Promise<unknown> | void;
  cpu: number[];
  wall: number[];
}

const measure = (batch: number, once: Measure['once']): Measure => ({ batch, once, cpu: [], wall: [] });

/**
 * Timed in batches, a batch's time over its calls, so the clock's own cost and resolution vanish; the
 * measures take turns batch by batch, the order rotated each round, so a busy spell of the machine
 * falls on all alike. The event loop gets a turn between batches only; the first half of the rounds warms up.
 */
async function timeInTurns(measures: Measure[], rounds: number): Promise<void> {
  for (let round = 0; round < 2 * rounds; round++) {
    for (let k = 0; k < measures.length; k++) {
      const m = measures[(round + k) % measures.length]!;
      await turn();
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < m.batch; i++) await m.once();
      const elapsed = performance.now() - started;
      const used = process.cpuUsage(cpuBefore);
      // The first half warms up.
      if (round < rounds) continue;
      m.cpu.push((used.user + used.system) / 1000 / m.batch);
      m.wall.push(elapsed / m.batch);
    }
  }
}

function perCall(m: Measure): PerCall {
  const { p50, p95 } = spreadOf(m.cpu);
  const wall = spreadOf(m.wall);
  return { batch: m.batch, batches: m.cpu.length, cpu: { p50, p95 }, wall: { p50: wall.p50, p95: wall.p95 } };
}

async function authenticated(authenticator: Authenticator, presented: Presented): Promise<CallerIdentity> {
  const caller = await authenticator.authenticate(presented);
  if (!caller.access.permissions.has('accounts:read')) throw new Error(`the ${caller.kind} caller came out without the admin role`);
  return caller;
}

/**
 * One mutation's audit record, as the gateway makes it without the bank: the audit plugin's
 * onExecute (the operation found to be a mutation, its attempts watched), and what the Pothos audit
 * plugin does when a resolver returns (recordAttempt: the record built and handed to the trail). The trail writes to stdout as AUDIT_LOG's default does, through its test writer, which
 * discards the line: JSON, the card-number scan and the hand-over are in, the write to the file
 * descriptor (sonic-boom's, asynchronous) is not.
 */
function auditMeasure(): { measure: Measure; check(): void; close(): Promise<void> } {
  const written = { lines: 0, last: '' };
  const discard = (line: string) => {
    written.lines++;
    written.last = line;
    return true;
  };
  const trail = createAuditTrail({ destination: { kind: 'stdout' }, stdout: { write: discard }, logger: silentLogger });
  const plugin = useMutationAudit(trail, { codeOf: () => undefined });
  const { query, variables } = extraCardMutation(1);
  const document = parse(query);
  const caller: CallerIdentity = { kind: 'api-key', name: 'bench-5', access: accessOf({ roles: ['admin'] }) };
  const info = { fieldName: 'cardCreate', path: { key: 'cardCreate', prev: undefined, typename: 'Mutation' } } as GraphQLResolveInfo;
  const card = { id: 'crd_bench_audit', status: 'ACTIVE', type: 'VIRTUAL' };
  let requests = 0;
  const once = () => {
    const contextValue = { caller, requestId: `bench-audit-${++requests}` };
    // Synchronous (useMutationAudit's hook returns nothing), though a hook's type allows a promise.
    void plugin.onExecute!({ args: { document, operationName: 'BenchCardCreate', contextValue } } as never);
    recordAttempt(contextValue, info, variables, { value: card });
  };
  return {
    measure: measure(200, once),
    // Every mutation wrote its one record, and it says what happened.
    check: () => {
      const record = JSON.parse(written.last) as { field: string; outcome: string; result: string };
      if (written.lines !== requests || record.field !== 'cardCreate' || record.outcome !== 'success' || record.result !== card.id) {
        throw new Error(`the audit trail wrote ${written.lines} records for ${requests} mutations, the last ${written.last}`);
      }
    },
    close: () => trail.close(),
  };
}

/** JWTs per timed batch of first requests. */
const FRESH_JWT_BATCH = 10;

async function freshTokens(jwks: Awaited<ReturnType<typeof startJwks>>, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) tokens.push(await jwks.sign({ subject: `svc-bench-${i}` }, { roles: ['admin'] }));
  return tokens;
}

export async function measurePerRequest(rounds: number): Promise<{ identity: IdentityCosts; audit: PerCall }> {
  const jwks = await startJwks();
  const audit = auditMeasure();
  try {
    const authenticator = createAuthenticator(
      serviceAuthConfig({ jwksUrl: jwks.url, issuer: JWT_ISSUER, audience: JWT_AUDIENCE }),
      silentLogger,
    );
    const apiKey: Presented = { kind: 'api-key', key: benchApiKey(CONFIGURED_API_KEYS) };
    const bearer: Presented = { kind: 'bearer', token: await jwks.sign({ subject: 'svc-bench' }, { roles: ['admin'] }) };
    // The first JWT fetches the JWKS: production does that once per 10 minutes, not per request.
    await authenticated(authenticator, bearer);
    const fetches = jwks.fetches;
    // Tokens never seen before, signed ahead so that signing is not timed: each one's signature is checked.
    const fresh = await freshTokens(jwks, FRESH_JWT_BATCH * 2 * rounds);
    const byKey = measure(200, () => authenticated(authenticator, apiKey));
    const byJwt = measure(200, () => authenticated(authenticator, bearer));
    const byFreshJwt = measure(FRESH_JWT_BATCH, () => authenticated(authenticator, { kind: 'bearer', token: fresh.pop()! }));
    await timeInTurns([byKey, byJwt, byFreshJwt, audit.measure], rounds);
    if (jwks.fetches !== fetches) throw new Error('the JWKS was fetched again while JWTs were timed');
    audit.check();
    return {
      identity: { apiKeys: CONFIGURED_API_KEYS, apiKey: perCall(byKey), jwt: perCall(byJwt), jwtFirst: perCall(byFreshJwt) },
      audit: perCall(audit.measure),
    };
  } finally {
    await audit.close();
    await jwks.close();
  }
}
