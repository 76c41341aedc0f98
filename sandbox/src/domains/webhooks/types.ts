import type { EventName } from '../../events/catalogue.ts';

/** Document 3, section 4.1 and 8: `w` webhook, `n` e-mail notification. */
export const SUBSCRIPTION_TYPES = ['w', 'n'] as const;
type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

/** The fields that identify a subscription: one per event and company. */
export interface SubscriptionIdentity {
  event_name: EventName;
  agent_code: string;
  subagent_code: string;
  program_code: string;
  company_code: string;
}

/** Section 2.1 as stored; the wire adds HTTP-date times and the list position. */
export interface SubscriptionRecord extends SubscriptionIdentity {
  subscription_type: SubscriptionType;
  webhook_url: string | null;
  sender_email: string | null;
  /** The key deliveries carry in x-api-key; kept and shown in full (the gateway masks it). */
  x_api_key: string | null;
  created_by: string;
  updated_by: string | null;
  createdAt: number;
  updatedAt: number;
}

export function identityKey(identity: SubscriptionIdentity): string {
  return JSON.stringify([identity.event_name, identity.agent_code, identity.subagent_code, identity.program_code, identity.company_code]);
}

/** The domain's collections in the store, fresh for each store. */
export function webhookCollections() {
  return {
    /** Document 3's webhook subscriptions, keyed by their identity. */
    webhookSubscriptions: new Map<string, SubscriptionRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof webhookCollections> {}
}
