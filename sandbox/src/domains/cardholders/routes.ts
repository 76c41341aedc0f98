import { z } from 'zod';
import { ApiError, done, ok, requiredQueryId } from '../../http.ts';
import { pageNumShape, pageOf } from '../../paging.ts';
import type { Route } from '../../routes.ts';
import type { SandboxStore } from '../../store.ts';
import { validate } from '../../validation.ts';
import { enrolCardholder } from './factory.ts';
import { toAddress } from '../../address.ts';
import { nameChanged, toIndividual } from './fields.ts';
import { findCardholder } from './lookup.ts';
import { startScreening, stopScreening } from './review.ts';
import { createCardholderBody, updateCardholderBody } from './schemas.ts';
import { CARDHOLDER_STATUSES } from './types.ts';
import { cardholderView } from './wire.ts';

const PATH = '/svc/api/v1/card/cardholder';

const listQuery = z.object({ ...pageNumShape, status: z.enum(CARDHOLDER_STATUSES).optional() });

/**
 * Endpoint 33. The optional agent-code and subagent-code headers are accepted and not used:
 * the document gives them no effect.
 */
const createCardholder: Route = {
  method: 'POST',
  path: PATH,
  headers: 'standard',
  handler: ({ body, runtime }) => {
    const input = validate(createCardholderBody, body);
    const { store } = runtime;
    const now = runtime.clock.now().getTime();
    const fields = {
      email: input.email,
      type: input.type,
      mobile_number: input.mobile_number,
      country_code: input.country_code ?? null,
      postal_address: input.postal_address == null ? null : toAddress(input.postal_address),
      created_by: input.created_by,
      individual: input.individual == null ? null : toIndividual(input.individual, null, now),
    };
    const record = enrolCardholder(store, fields, { id: store.newId('chd'), createdAt: now });
    return ok([{ id: record.id }], 'Cardholder created successfully');
  },
};

/** Endpoints 34 and 35 share the path: without `id` a page of the list, with it one cardholder. */
const readCardholders: Route = {
  method: 'GET',
  path: PATH,
  headers: 'standard',
  handler: ({ query, runtime }) => {
    const { store } = runtime;
    if (query.id !== undefined) {
      const record = findCardholder(store, requiredQueryId(query));
      return ok([cardholderView(record, { list: false })], 'Cardholder retrieved successfully');
    }
    const { page_num, page_size, status } = validate(listQuery, query);
    const matching = [...store.cardholders.values()].filter((record) => status === undefined || record.status === status);
    const page = pageOf(matching, (record) => record.createdAt, { page: page_num, size: page_size });
    return ok(
      page.map((record) => cardholderView(record, { list: true })),
      'Cardholders retrieved successfully',
    );
  },
};

/** Endpoint 36. Without the id in the URL: 404, as the document warns ("may result in 404"). */
const updateCardholder: Route = {
  method: 'PATCH',
  path: PATH,
  headers: 'standard',
  handler: ({ body, query, runtime }) => {
    if (!query.id?.trim()) throw new ApiError(404, 'Not found');
    const input = validate(updateCardholderBody, body);
    const { store } = runtime;
    const record = findCardholder(store, query.id.trim());
    const now = runtime.clock.now().getTime();
    let rename = false;
    if (input.individual !== undefined) {
      if (record.individual === null) throw new ApiError(400, 'individual must not be given for a DELEGATE cardholder');
      const individual = toIndividual(input.individual, record.individual.identification, now);
      rename = nameChanged(record.individual.name, individual.name);
      record.individual = individual;
    }
    if (input.mobile_number !== undefined) record.mobile_number = input.mobile_number;
    if (input.country_code !== undefined) record.country_code = input.country_code;
    if (input.postal_address !== undefined) record.postal_address = input.postal_address === null ? null : toAddress(input.postal_address);
    // After every change, so the pending event shows the cardholder as updated.
    if (rename) startScreening(store, record, now);
    return done('Cardholder updated successfully');
  },
};

/** Endpoint 37: permanent. The cardholder's cards close (the cards domain hears of it); its wallet stays readable. */
const deleteCardholder: Route = {
  method: 'DELETE',
  path: PATH,
  headers: 'standard',
  handler: ({ query, runtime }) => {
    const { store } = runtime;
    const record = findCardholder(store, requiredQueryId(query));
    removeCardholder(store, record.id, runtime.clock.now().getTime());
    return done('Cardholder deleted successfully');
  },
};

function removeCardholder(store: SandboxStore, id: string, now: number): void {
  stopScreening(store, id);
  store.kyc.delete(id);
  store.cardholders.delete(id);
  store.events.emit('issuing.cardholder.deleted', { cardholder_id: id, deleted: true }, id, now);
}

export const cardholderRoutes: readonly Route[] = [createCardholder, readCardholders, updateCardholder, deleteCardholder];
