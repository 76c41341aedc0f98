import { formatApiTime } from '../../time.ts';
import type { WalletRecord } from './types.ts';

/**
 * Section 2.5. The sandbox sets no wallet limits: 0 means none. The holding amount is the
 * amount, in the wallet's one currency.
 */
export function walletView(wallet: WalletRecord) {
  return {
    id: wallet.id,
    currency: wallet.currency,
    amount: wallet.amount,
    holdingCurrency: wallet.currency,
    holdingAmount: wallet.amount,
    dailyLimitAmount: 0,
    weeklyLimitAmount: 0,
    monthlyLimitAmount: 0,
    yearlyLimitAmount: 0,
    totalLimitAmount: 0,
    status: 'ACTIVE',
    createdAt: formatApiTime(wallet.createdAt),
  };
}
