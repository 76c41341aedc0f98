import { found, ok } from '../../http.ts';
import { newestFirst } from '../../paging.ts';
import type { Route } from '../../routes.ts';

/**
 * Endpoint 44, GET /svc/api/v1/user: the profile of the configured user (x-user-id names
 * it), with the envelope status `Success` the document shows for this endpoint.
 */
const userProfile: Route = {
  method: 'GET',
  path: '/svc/api/v1/user',
  headers: 'standard',
  handler: ({ runtime }) => {
    const { userId } = runtime.credentials;
    const profile = found(runtime.store.userProfile.get('profile'), 'User', userId);
    return ok([{ id: userId, ...profile }], 'User details retrieved successfully', 'Success');
  },
};

/** Endpoint 45, GET /svc/api/v1/user/rfi: every RFI, active and historical, newest first. */
const accountRfis: Route = {
  method: 'GET',
  path: '/svc/api/v1/user/rfi',
  headers: 'standard',
  handler: ({ runtime }) => {
    const account_id = runtime.credentials.userId;
    const records = newestFirst(runtime.store.accountRfis.values(), (record) => record.createdAt);
    const items = records.map((record) => ({ account_id, ...record.rfi }));
    return ok([{ items }], 'RFIs retrieved successfully');
  },
};

export const onboardingRoutes: readonly Route[] = [userProfile, accountRfis];
