/**
 * The floors' reads of the bank (bench/bare-yoga-child.ts, bench/stack-floor-child.ts): undici straight to
 * the sandbox on a pool set up as the gateway's, with its headers. Nothing of src/ or the sandbox is
 * imported, so a floor's process holds only what it measures: what it needs comes in the start request.
 */

import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';

/** The pool's settings, as src/upstream/bank-connection.ts gives its Pool (connections: the concurrency ceiling). */
export interface BarePoolOptions {
  connections: number;
  keepAliveTimeout: number;
  keepAliveMaxTimeout: number;
  connectTimeout: number;
  headersTimeout: number;
  bodyTimeout: number;
}

/** Who the gateway is to the bank (GatewayIdentity of src/upstream/stages/send.ts) and where its endpoints are. */
export interface BareIdentity {
  apiKey: string;
  productId: string;
  userId: string;
  clientId: string;
  serviceSegment: string;
}

/** What a floor's process is started with: where the sandbox is, a bank token of its own, the gateway's identity and pool. */
export interface FloorStart {
  id: number;
  kind: 'start';
  sandboxUrl: string;
  token: string;
  identity: BareIdentity;
  pool: BarePoolOptions;
  /**
   * Serve @defer as the gateway does (graphql-yoga's useDeferStream): bare Yoga's own cost on the
   * @defer screen. Only the process of the @defer phase has it, so every other floor stays the
   * plain server.
   */
  defer?: boolean;
}

/** Which documented header set a call carries (headersFor in src/upstream/stages/send.ts). */
type Family = 'standard' | 'issuing' | 'direct-debit';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bank's JSON, read as is
export type Json = any;

/** The pool a floor reads the bank through, and its one GET. */
interface BankReads {
  pool: Pool;
  /** `/<service segment>`: the prefix of Documents 1 and 2's endpoints. */
  svc: string;
  /** One GET; Documents 1 and 2 answer in an envelope (its `data`), Document 3's direct debit family without. */
  get(family: Family, path: string, query?: Record<string, string | number | undefined>, subject?: Record<string, string>): Promise<Json>;
}

/** The pool to the sandbox `start` names, and GETs through it with the gateway's headers and the start's token. */
export function bankReads(start: FloorStart): BankReads {
  const { token, identity } = start;
  const pool = new Pool(new URL(start.sandboxUrl).origin, start.pool);

  function headersFor(family: Family, subject: Record<string, string> | undefined): Record<string, string> {
    const headers: Record<string, string> =
      family === 'direct-debit'
        ? { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` }
        : {
            'x-api-key': identity.apiKey,
            'content-type': 'application/json',
            accept: 'application/json',
            'x-product-id': identity.productId,
            'x-request-id': randomUUID(),
            ...(family === 'standard' ? { 'x-user-id': identity.userId } : { 'x-client-id': identity.clientId }),
            authorization: `Bearer ${token}`,
          };
    return subject ? Object.assign(headers, subject) : headers;
  }

  async function get(
    family: Family,
    path: string,
    query?: Record<string, string | number | undefined>,
    subject?: Record<string, string>,
  ): Promise<Json> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(name, String(value));
    const search = params.toString();
    const response = await pool.request({ method: 'GET', path: search ? `${path}?${search}` : path, headers: headersFor(family, subject) });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`GET ${path}: HTTP ${response.statusCode} ${text.slice(0, 300)}`);
    const body = JSON.parse(text);
    return family === 'direct-debit' ? body : body.data;
  }

  return { pool, svc: `/${identity.serviceSegment}`, get };
}
