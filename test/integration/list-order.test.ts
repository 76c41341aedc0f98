import { isObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { BANK_ORDER } from '../../src/schema/list-order.ts';
import { buildSchema } from '../../src/schema/index.ts';
import { rawUpstream, useKit } from '../helpers/kit.ts';

/**
 * List order as the descriptions say it: the documents give no order for any list, so paged lists
 * say they come in the bank's order, and the two lists the bank answers whole are sorted by the
 * gateway as described.
 */

const kit = useKit();

/** The only list fields whose description may promise an order: the gateway sorts them itself. */
const SORTED_BY_GATEWAY = new Set(['Query.conversions', 'Query.upcomingPayouts', 'Cardholder.wallets']);
const ORDER_CLAIM = /\b(newest|oldest|soonest|latest|earliest)[^.]*\bfirst\b/i;

describe('list order', () => {
  it('promises an order only on lists the gateway sorts; every other list says it keeps the bank order', () => {
    const schema = buildSchema();
    const claims: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        if (ORDER_CLAIM.test((field.description ?? '').replace(BANK_ORDER, ''))) claims.push(`${type.name}.${field.name}`);
      }
    }
    expect(claims.filter((name) => !SORTED_BY_GATEWAY.has(name))).toEqual([]);
    expect(new Set(claims)).toEqual(SORTED_BY_GATEWAY);
  });

  it('sorts conversions newest first, whatever order the bank lists them in', async () => {
    const raw = await rawUpstream(kit, 'GET', '/svc/api/v1/transfer/conversionlist');
    const [template] = raw.body.data[0].conversions as Record<string, unknown>[];
    expect(template).toBeDefined();
    const shuffled = [
      { ...template, id: 'cnv_middle', createdTime: '2026-02-01T10:00:00+0000' },
      { ...template, id: 'cnv_undated', createdTime: null },
      { ...template, id: 'cnv_oldest', createdTime: '2026-01-01T10:00:00+0000' },
      { ...template, id: 'cnv_newest', createdTime: '2026-03-01T10:00:00+0000' },
    ];
    await kit.control('POST', 'faults', {
      kind: 'contract',
      method: 'GET',
      path: '/svc/api/v1/transfer/conversionlist',
      body: { ...raw.body, data: [{ conversions: shuffled }] },
    });
    const result = await kit.execute(parse('{ conversions(first: 100) { nodes { upstreamId createdAt } } }'));
    const nodes = (result.data as { conversions: { nodes: { upstreamId: string; createdAt: string | null }[] } }).conversions.nodes;
    // Newest first; the one the bank sent without a creation time comes last.
    expect(nodes.map((n) => n.upstreamId)).toEqual(['cnv_newest', 'cnv_middle', 'cnv_oldest', 'cnv_undated']);
  });

  it('sorts upcoming payouts soonest first, whatever order the bank lists them in', async () => {
    const raw = await rawUpstream(kit, 'GET', '/svc/api/v1/transfer/upcomingpayouts');
    const [first] = raw.body.data as Record<string, unknown>[];
    expect(first).toBeDefined();
    const items = [
      { ...first, id: 'pyt_late', scheduledPayoutDate: '2099-03-01' },
      { ...first, id: 'pyt_soon', scheduledPayoutDate: '2099-01-01' },
      { ...first, id: 'pyt_mid', scheduledPayoutDate: '2099-02-01' },
    ];
    await kit.control('POST', 'faults', {
      kind: 'contract',
      method: 'GET',
      path: '/svc/api/v1/transfer/upcomingpayouts',
      body: { ...raw.body, data: items },
    });
    const result = await kit.execute(parse('{ upcomingPayouts(first: 10) { nodes { upstreamId scheduledDate } } }'));
    expect(result.errors).toBeUndefined();
    const nodes = (result.data as { upcomingPayouts: { nodes: { upstreamId: string }[] } }).upcomingPayouts.nodes;
    expect(nodes.map((n) => n.upstreamId)).toEqual(['pyt_soon', 'pyt_mid', 'pyt_late']);
  });
});
