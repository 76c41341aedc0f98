import { z } from 'zod';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { CardholderNode } from './cardholders.ts';
import { AllowedTransactionCount, CardNode, CardStatus, CardType, IssuanceAction, LimitInterval } from './cards.ts';
import { AddressInput } from './addresses.ts';
import { MUTATION_ERRORS, validationErrors } from './mutation-errors.ts';
import { idempotencyKeyArg, notBlank } from './mutation-inputs.ts';
import { bankIdIn, recordIdDescription } from './record-ids.ts';
import type { CardUpdateRequest } from '../upstream/cards.ts';
import { luhn } from '../upstream/models.ts';

/**
 * Document 2, section 4.1 writes. Secrets (PIN, activation code, the full number given to assign)
 * go to the bank and nowhere else: no result field returns them and the logger redacts them.
 */

const positiveDecimal = z.string().refine((v) => Number(v) > 0, 'must be greater than 0');
const pin = z.string().regex(/^\d{6}$/, 'must be 6 digits');
const name = notBlank.max(200, 'must be at most 200 characters');

const CardLimitInput = builder.inputType('CardLimitInput', {
  description: 'A spending limit.',
  fields: (t) => ({
    interval: t.field({ type: LimitInterval, required: true, description: 'Period of the limit.' }),
    amount: t.field({ type: 'Decimal', required: true, description: 'Limit amount, greater than 0.', validate: positiveDecimal }),
  }),
});

const CardCreateInput = builder.inputType('CardCreateInput', {
  description: 'A card for a READY cardholder. Physical cards need a postal address and personalisation.',
  fields: (t) => ({
    cardholderId: t.id({ required: true, description: recordIdDescription('Cardholder', 'A READY cardholder') }),
    type: t.field({ type: CardType, required: true, description: 'VIRTUAL (active at once) or PHYSICAL (activate on receipt).' }),
    issuanceAction: t.field({ type: IssuanceAction, defaultValue: 'NEW', description: 'NEW (default) or REPLACEMENT.' }),
    personalized: t.boolean({ required: true, description: 'Personalised card; required for physical cards and digital wallets.' }),
    allowedTransactionCount: t.field({ type: AllowedTransactionCount, required: true, description: 'SINGLE (one successful debit) or MULTIPLE.' }),
    limitCurrency: t.field({ type: 'Currency', required: true, description: 'Currency of the limits (and of the card).' }),
    limits: t.field({
      type: [CardLimitInput],
      required: true,
      description: 'Spending limits; at least one.',
      validate: z.array(z.unknown()).min(1, 'must list at least one limit'),
    }),
    postalAddress: t.field({ type: AddressInput, description: 'Delivery address; required for physical cards.' }),
    createdBy: t.string({ required: true, description: 'Full legal name of the person requesting the card.', validate: name }),
  }),
});

/** Section 4.1: a physical card needs a delivery address, and only personalised cards can be physical. */
function physicalCardIssues(input: { type: string; personalized: boolean; postalAddress?: unknown }) {
  if (input.type !== 'PHYSICAL') return [];
  return [
    ...(input.postalAddress == null ? [{ path: ['input', 'postalAddress'], message: 'is required for a physical card' }] : []),
    ...(input.personalized ? [] : [{ path: ['input', 'personalized'], message: 'must be true: only personalized cards can be physical' }]),
  ];
}

/** A card write answers no data (or only an id): the card is read again when the result asks for it. */
function refreshed(context: GatewayContext, cardId: string): string {
  CardNode.getDataloader(context).clear(cardId);
  return cardId;
}

const cardResult = (fieldName: string) => ({ types: MUTATION_ERRORS, dataField: { name: 'card', description: `The card after ${fieldName}.` } });

builder.mutationField('cardCreate', (t) =>
  t.field({
    authScopes: { permission: 'cards:write' },
    type: CardNode,
    nullable: false,
    description: 'Issues a card. The idempotencyKey is also sent as the body\u2019s request_id, so a retry issues one card.',
    errors: cardResult('issuing'),
    args: { input: t.arg({ type: CardCreateInput, required: true, description: 'The card.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const issues = physicalCardIssues(input);
      if (issues.length > 0) throw validationErrors(issues);
      const { id } = await context.upstream.cards.create(
        { ...input, cardholderId: bankIdIn(input.cardholderId, ['input', 'cardholderId'], 'Cardholder'), issuanceAction: input.issuanceAction ?? 'NEW' },
        idempotencyKey,
      );
      return refreshed(context, id);
    },
  }),
);

const CardAssignInput = builder.inputType('CardAssignInput', {
  description: 'A pre-issued physical card to give to a cardholder (Cards program). The activation code is e-mailed to them.',
  fields: (t) => ({
    cardholderId: t.id({ required: true, description: recordIdDescription('Cardholder', 'A READY cardholder') }),
    cardNumber: t.string({
      required: true,
      description: 'The full number printed on the card. Sent to the bank only; never returned, echoed or logged.',
      validate: z
        .string()
        .transform((v) => v.replace(/[\s-]/g, ''))
        .refine((v) => /^\d{13,19}$/.test(v) && luhn(v), 'must be a valid 13 to 19 digit card number'),
    }),
    currency: t.field({ type: 'Currency', required: true, description: 'Card currency.' }),
    createdBy: t.string({ required: true, description: 'Full legal name of the person assigning the card.', validate: name }),
  }),
});

const CardAssigned = builder
  .objectRef<{ cardholderId: string; last4: string }>('CardAssigned')
  .implement({
    description: 'The card is assigned and inactive until the cardholder activates it with the e-mailed code.',
    fields: (t) => ({
      cardholder: t.field({ type: CardholderNode, description: 'Who received it.', resolve: (a) => a.cardholderId }),
      card: t.field({
        type: CardNode,
        description: 'The assigned card (found among the cardholder\u2019s physical cards by its last digits).',
        resolve: async (a, _args, context) => {
          const cards = await context.upstream.cards.list({ cardholderId: a.cardholderId, status: 'INACTIVE' });
          return cards.find((c) => c.cardType === 'PHYSICAL' && c.maskedCardNumber.endsWith(a.last4)) ?? null;
        },
      }),
    }),
  });

builder.mutationField('cardAssign', (t) =>
  t.field({
    authScopes: { permission: 'cards:write' },
    type: CardAssigned,
    nullable: false,
    description: 'Assigns a pre-issued physical card with a prepaid (SINGLE) mode to a cardholder. Cards program only.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'result', description: 'What was assigned.' } },
    args: { input: t.arg({ type: CardAssignInput, required: true, description: 'The assignment.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const cardholderId = bankIdIn(input.cardholderId, ['input', 'cardholderId'], 'Cardholder');
      await context.upstream.cards.assign({ ...input, cardholderId, mode: 'SINGLE' }, idempotencyKey);
      return { cardholderId, last4: input.cardNumber.slice(-4) };
    },
  }),
);

const cardIdField = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) =>
  t.id({ required: true, description: recordIdDescription('Card', 'The card') });

const CardActivateInput = builder.inputType('CardActivateInput', {
  description: 'Activation of an inactive physical card. Cards assigned with cardAssign need both the e-mailed code and a new PIN.',
  fields: (t) => ({
    cardId: cardIdField(t),
    activationCode: t.string({ description: 'The code e-mailed at assignment. Never returned or logged.' }),
    pin: t.string({ description: 'The PIN to set: 6 digits. Never returned or logged.', validate: pin }),
  }),
});

/**
 * An activation makes a card ACTIVE: by anyone but its cardholder, a change of status like any other;
 * by its bound cardholder, allowed only on a card that awaits its first activation or is its own
 * freeze (authorization/card-freezes.ts), so activating cannot lift someone else's block. Its own card is
 * made sure of first (the narrowed list): another cardholder's card answers as no card, whatever the
 * gateway knows of its freezes.
 */
async function activation(context: GatewayContext, cardId: string, send: () => Promise<unknown>): Promise<unknown> {
  const cardholderId = context.caller.access.cardholderId;
  if (cardholderId === null) return context.cardFreezes.change(cardId, 'ACTIVE', send);
  const own = (await context.upstream.cards.list({ id: cardId })).length > 0;
  return own ? context.cardFreezes.lift(cardId, cardholderId, 'activation', send) : send();
}

builder.mutationField('cardActivate', (t) =>
  t.field({
    authScopes: { permission: 'cards:control' },
    type: CardNode,
    nullable: false,
    description: 'Activates a physical card.',
    errors: cardResult('activation'),
    args: { input: t.arg({ type: CardActivateInput, required: true, description: 'The activation.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const cardId = bankIdIn(input.cardId, ['input', 'cardId'], 'Card');
      await activation(context, cardId, () => context.upstream.cards.activate(cardId, input, idempotencyKey));
      return refreshed(context, cardId);
    },
  }),
);

const CardPinResetInput = builder.inputType('CardPinResetInput', {
  description: 'A new PIN for an assigned physical card (Cards program).',
  fields: (t) => ({
    cardId: cardIdField(t),
    pin: t.string({ required: true, description: 'The new PIN: 6 digits. Never returned or logged.', validate: pin }),
  }),
});

builder.mutationField('cardPinReset', (t) =>
  t.field({
    authScopes: { permission: 'cards:control' },
    type: CardNode,
    nullable: false,
    description: 'Sets a new PIN on an assigned physical card.',
    errors: cardResult('the PIN reset'),
    args: { input: t.arg({ type: CardPinResetInput, required: true, description: 'The new PIN.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const cardId = bankIdIn(input.cardId, ['input', 'cardId'], 'Card');
      await context.upstream.cards.pinReset(cardId, input.pin, idempotencyKey);
      return refreshed(context, cardId);
    },
  }),
);

const CardAuthorizationControlsInput = builder.inputType('CardAuthorizationControlsInput', {
  description: 'When, in which currencies and at which merchants the card may be used.',
  fields: (t) => ({
    activeFrom: t.field({ type: 'DateTime', description: 'Usable from (ISO 8601).' }),
    activeTo: t.field({ type: 'DateTime', description: 'Usable until (ISO 8601).' }),
    allowedCurrencies: t.field({ type: ['Currency'], description: 'Currencies allowed (ISO 4217).' }),
    allowedMerchantCategories: t.stringList({
      description: 'Merchant category codes allowed, 4 digits each.',
      validate: z.array(z.string().regex(/^\d{4}$/, 'must be a 4-digit merchant category code')),
    }),
  }),
  validate: z.custom<{ activeFrom?: Date | null; activeTo?: Date | null }>().refine(
    (c) => !c.activeFrom || !c.activeTo || c.activeFrom < c.activeTo,
    { path: ['activeTo'], message: 'must be after activeFrom' },
  ),
});

const CardUpdateInput = builder.inputType('CardUpdateInput', {
  description: 'Changes to a card; what is not given stays as it is.',
  fields: (t) => ({
    cardId: cardIdField(t),
    status: t.field({ type: CardStatus, description: 'New status; CLOSED is final.' }),
    currency: t.field({ type: 'Currency', description: 'Currency of the limits; required with limits.' }),
    limits: t.field({ type: [CardLimitInput], description: 'New spending limits.' }),
    authorizationControls: t.field({ type: CardAuthorizationControlsInput, description: 'New authorisation controls.' }),
    updatedBy: t.string({ required: true, description: 'Who makes the change.', validate: name }),
  }),
});

/**
 * Freezing and unfreezing: a change of status alone, between ACTIVE and INACTIVE. The cardholder on
 * their phone may do that much to their own card (cards:control); limits, controls and closing a
 * card for good need cards:write.
 */
function freezesOnly(input: { status?: string | null; currency?: unknown; limits?: unknown; authorizationControls?: unknown }): boolean {
  return (input.status === 'ACTIVE' || input.status === 'INACTIVE') && input.currency == null && input.limits == null && input.authorizationControls == null;
}

/**
 * A change of status, through the freezes' origins (authorization/card-freezes.ts): a bound cardholder's
 * unfreeze is decided from them alone, before any bank call; its freeze is always sent, and is its
 * own only if the card was ACTIVE before. That read takes a query no other read makes (`status`
 * with `id`), so no answer kept by the record cache for another screen stands in for the bank; and
 * every card write drops the cards the cache keeps.
 */
function statusChange(context: GatewayContext, cardId: string, status: CardUpdateRequest['status'], send: () => Promise<unknown>): Promise<unknown> {
  const { cardFreezes, caller, upstream } = context;
  const cardholderId = caller.access.cardholderId;
  if (status == null) return send();
  if (cardholderId === null || status === 'CLOSED') return cardFreezes.change(cardId, status, send);
  if (status === 'ACTIVE') return cardFreezes.lift(cardId, cardholderId, 'unfreeze', send);
  const wasActive = async () => (await upstream.cards.list({ id: cardId, status: 'ACTIVE' })).length > 0;
  return cardFreezes.freeze(cardId, cardholderId, wasActive, send);
}

builder.mutationField('cardUpdate', (t) =>
  t.field({
    authScopes: (_card, args) => ({ permission: freezesOnly(args.input) ? 'cards:control' : 'cards:write' }),
    // The docs' permission table reads this; the function above is what decides.
    extensions: { permission: { needs: 'cards:write', or: 'cards:control', when: 'the input only changes status between ACTIVE and INACTIVE' } },
    type: CardNode,
    nullable: false,
    description: 'Changes a card\u2019s status, limits or authorisation controls.',
    errors: cardResult('the update'),
    args: { input: t.arg({ type: CardUpdateInput, required: true, description: 'The changes.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      if (input.limits && !input.currency) throw validationErrors([{ path: ['input', 'currency'], message: 'is required when limits are given' }]);
      const cardId = bankIdIn(input.cardId, ['input', 'cardId'], 'Card');
      await statusChange(context, cardId, input.status, () => context.upstream.cards.update(cardId, input, idempotencyKey));
      return refreshed(context, cardId);
    },
  }),
);

const CardRechargeInput = builder.inputType('CardRechargeInput', {
  description: 'Funds to load onto a card (programs with loading enabled).',
  fields: (t) => ({
    cardId: cardIdField(t),
    amount: t.field({ type: 'Decimal', required: true, description: 'Amount in the card currency, greater than 0.', validate: positiveDecimal }),
  }),
});

builder.mutationField('cardRecharge', (t) =>
  t.field({
    authScopes: { permission: 'cards:write' },
    type: CardNode,
    nullable: false,
    description: 'Loads funds onto a card from the business balance in the card currency.',
    errors: cardResult('loading'),
    args: { input: t.arg({ type: CardRechargeInput, required: true, description: 'The load.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const cardId = bankIdIn(input.cardId, ['input', 'cardId'], 'Card');
      await context.upstream.cards.recharge(cardId, input.amount, idempotencyKey);
      return refreshed(context, cardId);
    },
  }),
);
