import { readFileSync } from 'node:fs';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/auth/api-keys.ts';
import { useJwtKit } from './jwt-kit.ts';
import { registerSecret } from './leak-scan.ts';

/** docs/permissions.md's examples, run as written: the claims it shows grant what its answers say. */
const doc = readFileSync(new URL('../docs/permissions.md', import.meta.url), 'utf8');

/** The JSON block under `<!-- example: <label> -->`. */
function example(label: string): any {
  const at = doc.indexOf(`<!-- example: ${label} -->`);
  if (at < 0) throw new Error(`docs/permissions.md has no example "${label}"`);
  const block = /```json\n([\s\S]*?)\n\s*```/.exec(doc.slice(at))!;
  return JSON.parse(block[1]!);
}

const VIEWER_KEY = 'gwk_test-permissions-doc-0123456789abcdef';
registerSecret('a caller API key', VIEWER_KEY);
const { kit, bearer } = useJwtKit({ cache: false, apiKeys: [{ name: 'dashboard', sha256: sha256Hex(VIEWER_KEY), roles: ['viewer'], cardholderId: null }] });

const asClaims = ({ sub, ...claims }: { sub: string } & Record<string, unknown>) => bearer(sub, claims);
const run = (query: string, headers: Record<string, string>) => kit.execute(parse(query) as never, {}, headers);
const ME = '{ me { kind name roles mutations cardholderUpstreamId } }';

describe('docs/permissions.md', () => {
  it.each(['treasurer', 'cardholder'])('the %s JWT example: its claims grant what its me answer says', async (who) => {
    const result = (await run(ME, await asClaims(example(`${who} claims`)))) as { data: { me: unknown } };
    expect(result.data.me).toEqual(example(`${who} me`));
  });

  it('the refusal examples are the gateway\u2019s own answers', async () => {
    const payout = await run(
      'mutation { payoutCreate(input: {beneficiaryId: "ben_demo_de", quoteId: "quo_demo_payout", sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "1000", destinationCountry: "DE", feeType: OUR, transferMethod: SWIFT, reference: "Invoice 114", sourceOfFunds: "Revenue"}) { __typename ... on Forbidden { permission message } } }',
      { 'x-api-key': VIEWER_KEY },
    );
    expect(payout).toEqual(example('forbidden mutation'));
    const field = await run('{ me { name } balances { currency } }', await asClaims(example('cardholder claims')));
    // Locations depend on how the document is laid out; the doc leaves them out.
    const { errors, data } = JSON.parse(JSON.stringify(field)) as { errors: { locations?: unknown }[]; data: unknown };
    expect({ errors: errors.map(({ locations: _, ...error }) => error), data }).toEqual(example('forbidden field'));
  });
});
