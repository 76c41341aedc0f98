import { z } from 'zod';
import { badRequest, found, ok } from '../../http.ts';
import { limitOffsetShape, newestFirst } from '../../paging.ts';
import type { Route } from '../../routes.ts';
import type { SandboxStore } from '../../store.ts';
import { validate } from '../../validation.ts';
import { countryCode, currencyCode } from '../../codes.ts';
import { TRANSFER_METHODS } from '../../codes.ts';
import { fieldsAfterUpdate, fieldsToCreate } from './body.ts';
import { ACCOUNT_CURRENCIES, BANK_COUNTRIES } from './lists.ts';
import { rulesFor } from './rules.ts';
import { ENTITY_TYPES, type BeneficiaryRecord } from './types.ts';
import { beneficiaryView, listEntry, writeResult } from './wire.ts';

const schemaQuery = z.object({
  account_currency: currencyCode.pipe(
    z.string().refine((code) => ACCOUNT_CURRENCIES.includes(code), 'is not a supported account currency'),
  ),
  bank_country_code: countryCode.pipe(z.string().refine((code) => BANK_COUNTRIES.includes(code), 'is not a supported bank country')),
  entity_type: z.enum(ENTITY_TYPES),
  transfer_method: z.enum(TRANSFER_METHODS),
});

// No status filter: the documents define no beneficiary status.
const listQuery = z.object({ ...limitOffsetShape, currency: currencyCode.optional() });

const BASE = '/svc/api/v1/transfer';

function findBeneficiary(store: SandboxStore, id: string): BeneficiaryRecord {
  return found(store.beneficiaries.get(id), 'Beneficiary', id);
}

/** Endpoint 8, POST /svc/api/v1/transfer/beneficiary. */
const createBeneficiary: Route = {
  method: 'POST',
  path: `${BASE}/beneficiary`,
  headers: 'standard',
  handler: ({ body, runtime }) => {
    const fields = fieldsToCreate(body);
    const { store, clock } = runtime;
    const record: BeneficiaryRecord = { id: store.newId('ben'), payer_entity_type: 'COMPANY', createdAt: clock.now().getTime(), ...fields };
    store.beneficiaries.set(record.id, record);
    return ok(writeResult(record.id), 'Beneficiary created successfully');
  },
};

/** Endpoint 9, GET /svc/api/v1/transfer/beneficiaryschema. */
const beneficiarySchema: Route = {
  method: 'GET',
  path: `${BASE}/beneficiaryschema`,
  headers: 'standard',
  handler: ({ query }) => {
    const input = validate(schemaQuery, query);
    const combination = {
      bankCountry: input.bank_country_code,
      currency: input.account_currency,
      entityType: input.entity_type,
      transferMethod: input.transfer_method,
    };
    return ok(rulesFor(combination), 'Beneficiary schema retrieved successfully');
  },
};

/** Endpoint 10, PATCH /svc/api/v1/transfer/beneficiary/{BeneficiaryID}. */
const updateBeneficiary: Route = {
  method: 'PATCH',
  path: `${BASE}/beneficiary/:id`,
  headers: 'standard',
  handler: ({ body, params, runtime }) => {
    const record = findBeneficiary(runtime.store, params.id ?? '');
    Object.assign(record, fieldsAfterUpdate(record, body));
    return ok(writeResult(record.id), 'Beneficiary updated successfully');
  },
};

/** Endpoint 11, GET /svc/api/v1/transfer/beneficiarylist: newest first, limit/offset paging. */
const listBeneficiaries: Route = {
  method: 'GET',
  path: `${BASE}/beneficiarylist`,
  headers: 'standard',
  handler: ({ query, runtime }) => {
    const { limit, offset, currency } = validate(listQuery, query);
    const matching = [...runtime.store.beneficiaries.values()].filter(
      (record) => currency === undefined || record.beneficiary.bank_details.account_currency === currency,
    );
    const page = newestFirst(matching, (record) => record.createdAt).slice(offset, offset + limit);
    return ok(page.map(listEntry), 'Beneficiaries retrieved successfully');
  },
};

/** Endpoint 12, GET /svc/api/v1/transfer/beneficiarylist/{BeneficiaryID}. */
const getBeneficiary: Route = {
  method: 'GET',
  path: `${BASE}/beneficiarylist/:id`,
  headers: 'standard',
  handler: ({ params, runtime }) =>
    ok([beneficiaryView(findBeneficiary(runtime.store, params.id ?? ''))], 'Beneficiary retrieved successfully'),
};

/** Endpoint 13, DELETE /svc/api/v1/transfer/beneficiary/{BeneficiaryID}: not while a payout to it is pending. */
const deleteBeneficiary: Route = {
  method: 'DELETE',
  path: `${BASE}/beneficiary/:id`,
  headers: 'standard',
  handler: ({ params, runtime }) => {
    const { store } = runtime;
    const record = findBeneficiary(store, params.id ?? '');
    const pending = [...store.payouts.values()].some((payout) => payout.beneficiaryId === record.id && payout.status === 'PENDING');
    if (pending) throw badRequest(`Beneficiary ${record.id} has pending payouts`);
    store.beneficiaries.delete(record.id);
    return ok(null, 'Beneficiary deleted successfully');
  },
};

export const beneficiaryRoutes: readonly Route[] = [
  createBeneficiary,
  beneficiarySchema,
  updateBeneficiary,
  listBeneficiaries,
  getBeneficiary,
  deleteBeneficiary,
];
