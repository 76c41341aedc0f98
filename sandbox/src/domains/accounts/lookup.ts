import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from '../../headers.ts';
import { found } from '../../http.ts';
import type { SandboxStore } from '../../store.ts';
import type { AccountRecord } from './types.ts';

/** The account named by x-account-id (presence is already checked by the pipeline). */
export function accountFromHeader(store: SandboxStore, headers: IncomingHttpHeaders): AccountRecord {
  const id = headerValue(headers, 'x-account-id') ?? '';
  return found(store.accounts.get(id), 'Account', id);
}
