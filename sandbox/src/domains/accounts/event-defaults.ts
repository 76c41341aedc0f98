import type { EventDefault } from '../../events/defaults.ts';
import { depositRejectedData, depositSettledData, gaNewData, topUpData, type Deposit } from './deposit-events.ts';
import { incomingDeposit } from './deposits.ts';

// A 1,000 USD deposit on the first ACTIVE USD account; no balance moves.
const depositDefault = (build: (deposit: Deposit) => object): EventDefault => ({
  idPrefix: 'dep',
  data: ({ store, id, at }) => build(incomingDeposit(store, { currency: 'USD', amount: 1000 }, id, at)),
});

/** What POST /sandbox/events sends for the deposit events when the caller gives no data. */
export const depositEventDefaults = {
  'balance.ga.top_up': depositDefault((data) => topUpData(data, data.amount)),
  'deposit.rejected': depositDefault(depositRejectedData),
  'deposit.settled': depositDefault(depositSettledData),
  'ga.new': depositDefault((data) => gaNewData(data, 'NEW')),
} satisfies Record<string, EventDefault>;
