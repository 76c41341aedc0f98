import { decodeGlobalID } from '@pothos/plugin-relay';
import { builder, refusalForType } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { AccountNode } from './accounts.ts';
import { BeneficiaryNode } from './beneficiaries.ts';
import { CardholderNode } from './cardholders.ts';
import { CardNode } from './cards.ts';
import { DirectDebitNode, GlobalAccountNode, MandateNode } from './direct-debit.ts';
import { BankEventType } from './events.ts';
import { ConversionNode, QuoteNode } from './fx.ts';
import { PayoutNode } from './payouts.ts';
import { WalletType } from './wallets.ts';

/**
 * The graph's entities for Apollo Federation 2: the types with an identity at the bank, which
 * another subgraph of a company's supergraph can reference and add fields to. A router reads them
 * through `_entities`, which reaches the same loaders as `node` and `nodes` (N representations cost
 * the bank what N node lookups cost) and the same authorization. Which types are entities, by which
 * keys, and why some have `id` alone or are `resolvable: false`: docs/federation.md.
 */

/** What a loadable node ref offers: its per-request loader, by the key its `id` encodes. */
interface Loadable {
  getDataloader(context: GatewayContext): { load(key: string): Promise<unknown> };
}

/** A representation as a router sends it: `__typename` and one of the keys. */
interface Reference {
  upstreamId?: string;
  id?: string;
}

const byUpstreamId = builder.selection<{ upstreamId: string }>('upstreamId');
const byId = builder.selection<{ id: string }>('id');

/**
 * The record a representation names, read as `node` reads it; null when the key names nothing this
 * caller may see (a global ID of another type included).
 */
async function referenced(ref: Loadable, typename: string, reference: Reference, context: GatewayContext): Promise<unknown> {
  const refusal = refusalForType(typename, context);
  if (refusal) throw refusal;
  const key = reference.id !== undefined ? keyOfGlobalId(reference.id, typename) : reference.upstreamId;
  if (key === undefined) return null;
  return ref.getDataloader(context).load(key);
}

function keyOfGlobalId(id: string, typename: string): string | undefined {
  try {
    const decoded = decodeGlobalID(id);
    return decoded.typename === typename ? decoded.id : undefined;
  } catch {
    return undefined;
  }
}

/** A bank record any subgraph may reference by either key. */
function entity(ref: Loadable & Parameters<typeof builder.asEntity>[0], typename: string, keys: readonly ('upstreamId' | 'id')[]): void {
  builder.asEntity(ref, {
    key: keys.map((key) => (key === 'id' ? byId : byUpstreamId)) as (typeof byId)[],
    resolveReference: (reference: Reference, context: GatewayContext) => referenced(ref, typename, reference, context) as never,
  });
}

const BOTH = ['upstreamId', 'id'] as const;
entity(AccountNode, 'Account', BOTH);
entity(BeneficiaryNode, 'Beneficiary', BOTH);
entity(CardholderNode, 'Cardholder', BOTH);
entity(CardNode, 'Card', BOTH);
entity(PayoutNode, 'Payout', BOTH);
entity(QuoteNode, 'Quote', BOTH);
entity(ConversionNode, 'Conversion', BOTH);
entity(GlobalAccountNode, 'GlobalAccount', ['id']);
entity(MandateNode, 'Mandate', ['id']);
entity(DirectDebitNode, 'DirectDebit', ['id']);

/** Keys other subgraphs resolve themselves: this one has no read for them by that key alone. */
for (const ref of [WalletType, BankEventType]) {
  builder.asEntity(ref, {
    key: builder.keyDirective(byUpstreamId, false),
    resolveReference: () => null as never,
  });
}
