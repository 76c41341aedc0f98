import { z } from 'zod';
import { sha256Hex } from '../platform/secrets.ts';
import { currencyCode, decimal, optionalText, orNull, upstreamDateTime } from '../upstream/models.ts';

/**
 * Document 3, sections 2.3 and 6: the event envelope and the payloads the gateway understands, each
 * parsed by zod into one small, typed shape per kind. Fields the document marks "not shown" that the
 * sandbox adds to link an event (card_id, cardholder_id) are optional here, with fallbacks from the
 * event id (`<resourceId>_<eventName>` or `<resourceId>_<STATUS>`).
 */

const envelopeModel = z.object({
  id: z.string().min(1, 'id must not be empty'),
  name: z.string().min(1, 'name must not be empty'),
  account_id: optionalText,
  data: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((d) => d ?? {}),
  // Always sent per section 2.3; a delivery without it is still taken (see occurrenceKey).
  created_at: orNull(upstreamDateTime),
  version: optionalText,
});
type EventEnvelope = z.output<typeof envelopeModel>;

/**
 * What tells one occurrence of an event from another. Section 2.3's ids repeat whenever a transition
 * repeats (a card blocked, unblocked, blocked again: `crd_x_issuing.card.blocked` twice), so the id
 * alone names the transition, not the occurrence; its `created_at` tells the occurrences apart, and a
 * retried delivery of one occurrence carries the same one. Without `created_at`, the raw body is
 * what a retry repeats. Two occurrences of the same transition within the same second are
 * indistinguishable (created_at has whole seconds): the second is taken for a retry.
 * Hashed: the key names Redis keys, and ids are the bank's text of any length.
 */
export function occurrenceKey(event: Pick<BankEvent, 'name' | 'id' | 'createdAt'>, rawBody: string): string {
  const basis = event.createdAt === null ? `body\n${rawBody}` : `event\n${event.name}\n${event.id}\n${event.createdAt}`;
  return sha256Hex(basis);
}

/** The resource an event is about: the part of the id before `_<eventName>` or `_<STATUS>`. */
function resourceIdOf(envelope: Pick<EventEnvelope, 'id' | 'name'>): string {
  const byName = `_${envelope.name}`;
  if (envelope.id.endsWith(byName)) return envelope.id.slice(0, -byName.length);
  const cut = envelope.id.lastIndexOf('_');
  return cut > 0 ? envelope.id.slice(0, cut) : envelope.id;
}

const amount = orNull(decimal);
const text = optionalText;

/** One entry per kind: the names it covers and how its payload reads. */
const kinds = {
  cardStatus: {
    names: ['issuing.card.active', 'issuing.card.blocked'],
    details: (e: EventEnvelope) =>
      z.object({ card_id: text, cardholder_id: text, card_status: text }).transform((d) => ({
        cardId: d.card_id ?? resourceIdOf(e),
        cardholderId: d.cardholder_id,
        status: d.card_status ?? (e.name === 'issuing.card.active' ? 'ACTIVE' : 'INACTIVE'),
      })),
  },
  cardTransaction: {
    names: ['issuing.transaction.succeeded'],
    details: (e: EventEnvelope) =>
      z
        .object({
          card_id: text,
          cardholder_id: text,
          transaction_id: text,
          transaction_type: text,
          transaction_amount: amount,
          transaction_currency: orNull(currencyCode),
          status: text,
          merchant: orNull(z.object({ name: text, category_code: text })),
        })
        .transform((d) => ({
          cardId: d.card_id ?? resourceIdOf(e),
          cardholderId: d.cardholder_id,
          transactionId: d.transaction_id,
          transactionType: d.transaction_type,
          amount: d.transaction_amount,
          currency: d.transaction_currency,
          status: d.status,
          merchantName: d.merchant?.name ?? null,
        })),
  },
  cardholderStatus: {
    names: ['issuing.cardholder.pending', 'issuing.cardholder.ready', 'issuing.cardholder.deleted'],
    details: (e: EventEnvelope) =>
      z.object({ cardholder_id: text, status: text, email: text, type: text }).transform((d) => ({
        cardholderId: d.cardholder_id ?? resourceIdOf(e),
        status: d.status ?? (e.name.endsWith('deleted') ? 'DELETED' : e.name.split('.').at(-1)!.toUpperCase()),
        email: d.email,
        type: d.type,
      })),
  },
  deposit: {
    names: ['ga.new', 'deposit.settled', 'deposit.rejected', 'balance.ga.top_up'],
    details: (e: EventEnvelope) =>
      z
        .object({
          deposit_id: text,
          id: text,
          global_account_id: text,
          amount,
          ccy: orNull(currencyCode),
          currency: orNull(currencyCode),
          process_status: text,
          status: text,
          balance: amount,
          settlement_info: orNull(z.object({ payer_name: text, beneficiary_account_number: text })),
          payer: orNull(z.object({ name: text })),
          transaction_reference: orNull(z.object({ deposit_id: text, global_account_id: text, payer_name: text })),
        })
        .transform((d) => ({
          depositId: d.deposit_id ?? d.transaction_reference?.deposit_id ?? d.id ?? resourceIdOf(e),
          globalAccountId: d.global_account_id ?? d.transaction_reference?.global_account_id ?? null,
          // ga.new names the receiving account by its number only (Document 3, 6).
          accountNumber: d.settlement_info?.beneficiary_account_number ?? null,
          amount: d.amount,
          currency: d.currency ?? d.ccy,
          status: d.process_status ?? d.status ?? (e.name === 'balance.ga.top_up' ? 'TOPPED_UP' : null),
          balanceAfter: d.balance,
          payerName: d.settlement_info?.payer_name ?? d.payer?.name ?? d.transaction_reference?.payer_name ?? null,
        })),
  },
  conversion: {
    names: ['conversion.scheduled', 'conversion.settled', 'conversion.cancelled', 'conversion.overdue'],
    details: (e: EventEnvelope) =>
      z
        .object({
          conversion_id: text,
          status: text,
          buy_currency: orNull(currencyCode),
          buy_amount: amount,
          sell_currency: orNull(currencyCode),
          sell_amount: amount,
          client_rate: amount,
          conversion_date: text,
        })
        .transform((d) => ({
          conversionId: d.conversion_id ?? resourceIdOf(e),
          status: d.status ?? e.name.split('.').at(-1)!.toUpperCase(),
          buyCurrency: d.buy_currency,
          buyAmount: d.buy_amount,
          sellCurrency: d.sell_currency,
          sellAmount: d.sell_amount,
          rate: d.client_rate,
          conversionDate: d.conversion_date,
        })),
  },
  payoutFunding: {
    names: ['payout.transfer.funding.scheduled', 'payout.transfer.funding.funded'],
    details: (e: EventEnvelope) =>
      z
        .object({
          id: text,
          status: text,
          funding: orNull(z.object({ status: text })),
          transfer_amount: amount,
          transfer_currency: orNull(currencyCode),
          amount_payer_pays: amount,
          source_currency: orNull(currencyCode),
          reference: text,
        })
        .transform((d) => ({
          payoutId: d.id ?? resourceIdOf(e),
          // A funded event's top-level status can still read SCHEDULED: the funding status is the news.
          fundingStatus: d.funding?.status ?? e.name.split('.').at(-1)!.toUpperCase(),
          status: d.status,
          transferAmount: d.transfer_amount,
          transferCurrency: d.transfer_currency,
          amountPayerPays: d.amount_payer_pays,
          sourceCurrency: d.source_currency,
          reference: d.reference,
        })),
  },
  accountStatus: {
    names: ['account.submitted', 'account.active', 'account.suspended'],
    details: (e: EventEnvelope) =>
      z.object({ status: text }).transform((d) => ({ status: d.status ?? e.name.split('.').at(-1)!.toUpperCase() })),
  },
  rfi: {
    names: ['rfi.action_required'],
    details: (e: EventEnvelope) => z.object({ id: text, type: text }).transform((d) => ({ rfiId: d.id ?? resourceIdOf(e), type: d.type })),
  },
  directDebit: {
    names: ['direct_debit.status_changed'],
    details: (e: EventEnvelope) =>
      z
        .object({ transaction_id: text, mandate_id: text, global_account_id: text, status: text, amount, currency: orNull(currencyCode) })
        .transform((d) => ({
          transactionId: d.transaction_id ?? resourceIdOf(e),
          mandateId: d.mandate_id,
          globalAccountId: d.global_account_id,
          status: d.status,
          amount: d.amount,
          currency: d.currency,
        })),
  },
} as const;

export type EventKind = keyof typeof kinds | 'other';

/** Every kind the gateway has a model for ('other' is an event it has none for). */
export type ModelledEventKind = keyof typeof kinds;
export const EVENT_KINDS = Object.keys(kinds) as ModelledEventKind[];
type Details<K extends keyof typeof kinds> = z.output<ReturnType<(typeof kinds)[K]['details']>>;

/** What the gateway publishes: JSON-safe (it may travel through Redis), with the raw data kept. */
export type BankEvent = {
  id: string;
  name: string;
  accountId: string | null;
  /** created_at as an ISO time; null when the delivery had none. */
  createdAt: string | null;
  version: string | null;
  data: Record<string, unknown>;
} & ({ [K in keyof typeof kinds]: { kind: K; details: Details<K> } }[keyof typeof kinds] | { kind: 'other'; details: null });

const KIND_OF_NAME = new Map<string, keyof typeof kinds>(
  Object.entries(kinds).flatMap(([kind, entry]) => entry.names.map((name) => [name, kind as keyof typeof kinds])),
);

export type EventReading = { ok: true; event: BankEvent } | { ok: false; reason: string };

function issuesText(error: z.ZodError, prefix: string): string {
  return error.issues.map((issue) => `${[prefix, ...issue.path].filter(Boolean).join('.')}: ${issue.message}`).join('; ');
}

/** A delivered body → the event to publish, or the reason it is refused. Unknown names pass as `other`. */
export function readEvent(body: unknown): EventReading {
  const envelope = envelopeModel.safeParse(body);
  if (!envelope.success) return { ok: false, reason: issuesText(envelope.error, '') };
  const e = envelope.data;
  const base = {
    id: e.id,
    name: e.name,
    accountId: e.account_id,
    createdAt: e.created_at?.toISOString() ?? null,
    version: e.version,
    data: e.data,
  };
  const kind = KIND_OF_NAME.get(e.name);
  if (!kind) return { ok: true, event: { ...base, kind: 'other', details: null } };
  const details = (kinds[kind].details as (e: EventEnvelope) => z.ZodType)(e).safeParse(e.data);
  if (!details.success) return { ok: false, reason: issuesText(details.error, 'data') };
  return { ok: true, event: { ...base, kind, details: details.data } as BankEvent };
}
