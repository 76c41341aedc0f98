/**
 * The bank the gateway calls (UPSTREAM_*): where it is, who the gateway is to it, how long one
 * attempt may take, which answers are checked whole; and the rules that hold its settings together.
 */

import { groupAs, httpUrl, int, oneOfOr, setting, text, unsetIfEmpty, type GroupSettings } from '@banking-gateway/settings';
import { z } from 'zod';
import type { RawEnvironment } from './raw-environment.ts';

/** Which of the bank's answers are also parsed whole, beyond the fields read (src/upstream/contract-checks.ts). */
const CONTRACT_CHECK_MODES = ['all', 'sample', 'off'] as const;

const bankSettings = {
  baseUrl: setting('UPSTREAM_BASE_URL', httpUrl(), "the bank's `{base_url}`; unset runs the embedded sandbox"),
  serviceSegment: setting(
    'UPSTREAM_SERVICE_SEGMENT',
    z
      .preprocess(
        unsetIfEmpty,
        z
          .string()
          .regex(/^[A-Za-z0-9._-]+$/, { error: 'must be a single path segment (letters, digits, . _ -)' })
          .default('svc'),
      )
      .meta({ rule: 'one path segment: letters, digits, . _ -' }),
    "the service's own name, which the documents write as `svc` in paths",
  ),
  directDebitBaseUrl: setting('DIRECT_DEBIT_BASE_URL', httpUrl(), 'base of the direct debit API (Document 3)', 'the upstream base'),
  apiKey: setting('UPSTREAM_API_KEY', text(), '`x-api-key`; required with `UPSTREAM_BASE_URL`', "the sandbox's"),
  productId: setting('UPSTREAM_PRODUCT_ID', text(), '`x-product-id`; required with `UPSTREAM_BASE_URL`', "the sandbox's"),
  userId: setting('UPSTREAM_USER_ID', text(), '`x-user-id`; required with `UPSTREAM_BASE_URL`', "the sandbox's"),
  clientKey: setting(
    'UPSTREAM_CLIENT_KEY',
    text(),
    "client key for the gateway's own login (key, secret and e-mail come as a set)",
    "the sandbox's",
  ),
  clientSecret: setting('UPSTREAM_CLIENT_SECRET', text(), "client secret for the gateway's own login", "the sandbox's"),
  email: setting(
    'UPSTREAM_EMAIL',
    z.preprocess(unsetIfEmpty, z.email({ error: 'must be an e-mail address' }).optional()).meta({ rule: 'e-mail address' }),
    'e-mail of the API user',
    "the sandbox's",
  ),
  clientId: setting('UPSTREAM_CLIENT_ID', text(), '`x-client-id` of the wallet and KYC endpoints (Document 2, 4.3-4.4)', 'the client key'),
  timeoutMs: setting('UPSTREAM_TIMEOUT_MS', int(100, 300_000, 10_000), 'connect, headers and body timeout of one upstream attempt'),
  contractCheck: setting(
    'UPSTREAM_CONTRACT_CHECK',
    oneOfOr(CONTRACT_CHECK_MODES, 'sample'),
    'each answer is parsed field by field as the operation reads it; which answers are also checked whole for drift in fields nobody reads: `sample` (the first of each endpoint, then `UPSTREAM_CONTRACT_SAMPLE_PERCENT`, at least one a minute; a violation is counted and logged, and fails only the fields read), `all` (every answer; a violation anywhere fails the call, as tests run), `off`. See [operations.md](operations.md#contract-drift)',
  ),
  contractSamplePercent: setting(
    'UPSTREAM_CONTRACT_SAMPLE_PERCENT',
    z
      .preprocess(
        (v) => (v === '' || v === undefined ? 1 : v),
        z.coerce.number({ error: 'must be a number' }).min(0, { error: 'must be at least 0' }).max(100, { error: 'must be at most 100' }),
      )
      .meta({ rule: 'number, 0 to 100' }),
    "with `sample`: the share of each endpoint's answers checked whole besides the first and the one a minute, in percent",
  ),
};

/** How every call to the bank goes, and the configured bank; absent, the embedded sandbox is the bank (upstreamFor joins either with the calls' settings). */
function upstreamOf(u: GroupSettings<typeof bankSettings>) {
  const contractCheck = { mode: u.contractCheck, samplePercent: u.contractSamplePercent };
  return { serviceSegment: u.serviceSegment, timeoutMs: u.timeoutMs, contractCheck, bank: bankIdentityOf(u) };
}

/** The configured bank and who the gateway is to it; absent without UPSTREAM_BASE_URL. */
function bankIdentityOf(u: GroupSettings<typeof bankSettings>) {
  if (!(u.baseUrl && u.apiKey && u.productId && u.userId)) return undefined;
  return {
    baseUrl: u.baseUrl,
    directDebitBaseUrl: u.directDebitBaseUrl ?? u.baseUrl,
    apiKey: u.apiKey,
    productId: u.productId,
    userId: u.userId,
    /** Absent: the gateway cannot log in itself and callers must bring a bearer token. */
    credentials:
      u.clientKey && u.clientSecret && u.email ? { clientKey: u.clientKey, clientSecret: u.clientSecret, email: u.email } : undefined,
    /** x-client-id for the wallet and KYC endpoints; defaults to the client key. */
    clientId: u.clientId ?? u.clientKey,
  };
}

/** The bank the gateway calls: where it is, who the gateway is to it, and how long one attempt may take. */
export const bankGroup = groupAs(
  'The bank',
  'Unset `UPSTREAM_BASE_URL` runs the embedded sandbox, and the gateway logs in to it with its demo credentials.',
  bankSettings,
  upstreamOf,
);

/** How every call to the bank goes, with the configured bank if there is one (the upstream group). */
export type UpstreamSettings = ReturnType<typeof upstreamOf>;

/** The configured bank and who the gateway is to it, or the embedded sandbox's (src/start/sandbox-upstream.ts). */
export type BankIdentity = NonNullable<UpstreamSettings['bank']>;

/** The gateway's own login to the bank (UPSTREAM_CLIENT_KEY, UPSTREAM_CLIENT_SECRET, UPSTREAM_EMAIL), or a caller's. */
export type BankLoginCredentials = NonNullable<BankIdentity['credentials']>;

/** Which of the bank's answers are also checked whole, and what a violation then does (UPSTREAM_CONTRACT_CHECK). */
export type ContractCheckConfig = UpstreamSettings['contractCheck'];

/** A real bank needs who the gateway is to it; the embedded sandbox serves direct debit itself. */
export function bankProblems({ set, variable, requiredWith }: RawEnvironment): string[] {
  // A real upstream rejects every call without these, so starting without them would only defer
  // the failure to the first request.
  if (set('upstream.baseUrl'))
    return requiredWith(['upstream.apiKey', 'upstream.productId', 'upstream.userId'], `when ${variable('upstream.baseUrl')} is set`);
  if (set('upstream.directDebitBaseUrl'))
    return [
      `${variable('upstream.directDebitBaseUrl')} needs ${variable('upstream.baseUrl')} (the embedded sandbox serves direct debit itself)`,
    ];
  return [];
}

/** The gateway's own login: its client key, secret and e-mail come as a set. */
export function bankLoginProblems({ set, variable, requiredWith }: RawEnvironment): string[] {
  const credentials = ['upstream.clientKey', 'upstream.clientSecret', 'upstream.email'];
  const given = credentials.filter(set);
  return given.length > 0 ? requiredWith(credentials, `with ${given.map(variable).join(' and ')} (client credentials come as a set)`) : [];
}
