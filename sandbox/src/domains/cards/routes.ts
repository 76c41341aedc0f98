import { z } from 'zod';
import { dateRangeRule, dayParam, inDateRange, toDateRange } from '../../date-range.ts';
import { ok, requiredQueryId } from '../../http.ts';
import { pageNumShape, pageOf, pageWithMore } from '../../paging.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { activateCard, resetPin } from './activation.ts';
import { assignCard } from './assign.ts';
import { createCard } from './create.ts';
import { findCard } from './lookup.ts';
import { rechargeCard } from './recharge.ts';
import { updateCard } from './update.ts';
import { cardDetail, cardListItem } from './wire.ts';

const CARD = '/svc/api/v1/card';

// CLOSED is no filter value: closed cards show only in an unfiltered list.
const listQuery = z.object({
  ...pageNumShape,
  cardholder_id: z.string().optional(),
  id: z.string().optional(),
  status: z.enum(['ACTIVE', 'INACTIVE']).optional(),
});

// No maximum range is documented for card transactions.
const CREATED_RANGE = { from: 'from_created_at', to: 'to_created_at' };
const transactionsQuery = z
  .object({ ...pageNumShape, from_created_at: dayParam.optional(), to_created_at: dayParam.optional() })
  .superRefine(dateRangeRule(null, CREATED_RANGE));

const route = (method: Route['method'], path: string, handler: Route['handler']): Route => ({ method, path, headers: 'standard', handler });

/** Endpoint 26, GET /card: the user's cards, newest first. */
const listCards = route('GET', CARD, ({ query, runtime }) => {
  const filter = validate(listQuery, query);
  const matching = [...runtime.store.cards.values()].filter(
    (card) =>
      (filter.cardholder_id === undefined || card.cardholderId === filter.cardholder_id) &&
      (filter.id === undefined || card.id === filter.id) &&
      (filter.status === undefined || card.status === filter.status),
  );
  const page = pageOf(matching, (card) => card.createdAt, { page: filter.page_num, size: filter.page_size });
  return ok(page.map(cardListItem), 'Cards retrieved successfully');
});

/** Endpoint 27, GET /card/detail?id=. */
const cardDetails = route('GET', `${CARD}/detail`, ({ query, runtime }) => {
  const card = findCard(runtime.store, requiredQueryId(query));
  const detail = cardDetail(runtime.store, runtime.program.current(), card, runtime.clock.now().getTime());
  return ok([detail], 'Card details retrieved successfully');
});

/** Endpoint 32, GET /card/transaction?id=: data is an object, { has_more, items }, newest first. */
const cardTransactions = route('GET', `${CARD}/transaction`, ({ query, runtime }) => {
  const { store } = runtime;
  const card = findCard(store, requiredQueryId(query));
  const input = validate(transactionsQuery, query);
  const range = toDateRange(input, CREATED_RANGE);
  const own = [...store.cardTransactions.values()].filter((record) => record.cardId === card.id && inDateRange(record.createdAt, range));
  const page = pageWithMore(own, (record) => record.createdAt, { page: input.page_num, size: input.page_size });
  return ok({ has_more: page.hasMore, items: page.items.map((record) => record.transaction) }, 'Card transactions retrieved successfully');
});

export const cardRoutes: readonly Route[] = [
  route('POST', CARD, createCard),
  route('POST', `${CARD}/assign`, assignCard),
  listCards,
  cardDetails,
  route('POST', `${CARD}/activate`, activateCard),
  route('POST', `${CARD}/pin`, resetPin),
  route('PATCH', CARD, updateCard),
  route('POST', `${CARD}/recharge`, rechargeCard),
  cardTransactions,
];
