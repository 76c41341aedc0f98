import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from '../../headers.ts';
import { ApiError } from '../../http.ts';
import type { SandboxStore } from '../../store.ts';
import { CONNECTED_ACCOUNT_ID } from './global-accounts.ts';
import type { DirectDebitRecord, GlobalAccountRecord, MandateRecord } from './types.ts';

/**
 * Who a call acts for (section 4.2): the platform itself (null), or the connected account
 * named by x-on-behalf-of. A caller sees only the global accounts it holds, and the mandates
 * and payouts under them; anything else is answered as unknown (404), not as forbidden.
 */
export type Holder = string | null;

export function holderOf(headers: IncomingHttpHeaders): Holder {
  const id = headerValue(headers, 'x-on-behalf-of');
  if (id === undefined) return null;
  if (id !== CONNECTED_ACCOUNT_ID) throw new ApiError(403, `x-on-behalf-of ${id} is not a connected account`);
  return id;
}

/** Section 7's code for an operation the resource does not allow; HTTP 400. */
export function invalidOperation(message: string): ApiError {
  return new ApiError(400, message, { code: 'invalid_operation' });
}

export function notFound(resource: string, id: string): ApiError {
  return new ApiError(404, `${resource} ${id} not found`);
}

export function visibleAccounts(store: SandboxStore, holder: Holder): GlobalAccountRecord[] {
  return [...store.globalAccounts.values()].filter((record) => record.ownerId === holder);
}

export function findGlobalAccount(store: SandboxStore, id: string, holder: Holder): GlobalAccountRecord {
  const record = store.globalAccounts.get(id);
  if (record === undefined || record.ownerId !== holder) throw notFound('Global account', id);
  return record;
}

/** A global account whose mandates may be asked for: it must support direct debit. */
export function directDebitAccount(store: SandboxStore, id: string, holder: Holder): GlobalAccountRecord {
  const record = findGlobalAccount(store, id, holder);
  if (!record.account.capability.support_direct_debit) throw invalidOperation(`Global account ${id} does not support direct debit`);
  return record;
}

export function findMandate(store: SandboxStore, account: GlobalAccountRecord, id: string): MandateRecord {
  const mandate = store.mandates.get(id);
  if (mandate === undefined || mandate.globalAccountId !== account.id) throw notFound('Mandate', id);
  return mandate;
}

export function findDirectDebit(store: SandboxStore, id: string, holder: Holder): DirectDebitRecord {
  const record = store.directDebits.get(id);
  if (record === undefined || store.globalAccounts.get(record.globalAccountId)?.ownerId !== holder) throw notFound('Direct debit', id);
  return record;
}
