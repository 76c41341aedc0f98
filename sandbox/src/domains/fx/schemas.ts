import { z } from 'zod';
import type { TradeFields } from '../../trade.ts';
import { FX_CURRENCIES } from '../../rates.ts';

/** A currency the rate table prices. */
export const fxCurrency = z.enum(FX_CURRENCIES);

/** Field names of the rate query and the quote body. */
export const PRICING_FIELDS: TradeFields = {
  sourceAmount: 'sourceAmount',
  destinationAmount: 'destinationAmount',
  sourceCurrency: 'sourceCurrencyCode',
  destinationCurrency: 'destinationCurrencyCode',
};
