import { signatureFor } from '../../src/events/intake.ts';
import { KIT_WEBHOOKS } from './kit-secrets.ts';

export interface DeliveryOverrides {
  apiKey?: string;
  timestamp?: number;
  signature?: string;
  raw?: string;
  /** Gives up waiting for the answer (as the bank's delivery timeout does). */
  signal?: AbortSignal;
}

/** POSTs one bank event to a listening gateway's /webhooks, signed as the kit's sandbox signs. */
export async function deliverEvent(baseUrl: string | undefined, body: unknown, overrides: DeliveryOverrides = {}) {
  const raw = overrides.raw ?? JSON.stringify(body);
  const timestamp = String(overrides.timestamp ?? Math.floor(Date.now() / 1000));
  const response = await fetch(`${baseUrl}/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': overrides.apiKey ?? KIT_WEBHOOKS.apiKey,
      'x-timestamp': timestamp,
      'x-signature': overrides.signature ?? signatureFor(KIT_WEBHOOKS.signingSecret, timestamp, raw),
    },
    body: raw,
    signal: overrides.signal,
  });
  const retryAfter = response.headers.get('retry-after');
  return {
    status: response.status,
    ...(retryAfter ? { retryAfter } : {}),
    body: (await response.json()) as { status?: string; error?: string },
  };
}

/** A bank event envelope as Document 3 shows it. */
export function bankEvent(id: string, name = 'account.active', data: Record<string, unknown> = {}) {
  return { id, name, account_id: 'sandbox-user', data, created_at: '2026-11-21T10:00:00+0000', version: '2025-02-14' };
}
