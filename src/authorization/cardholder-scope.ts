import { InputValidationError } from '@pothos/plugin-validation';
import { PermissionDeniedError, type Permission } from './permissions.ts';
import { LinkedRecordNotFoundError } from '../upstream/errors.ts';
import { withDomains, type Upstream } from '../upstream/index.ts';

/**
 * A caller bound to one cardholder (the mobile card app) reaches that cardholder's records through
 * this upstream and nothing else: its cards, their details and transactions, its record, wallets,
 * wallet history and KYC state. Lists are narrowed at the bank where the documents allow it (GET
 * /card takes cardholder_id, Document 2, 4.1) and here otherwise; a read of someone else's record
 * answers as the bank does for a record that does not exist (null, or an empty list), so nothing
 * tells a record that exists from one that does not. Card writes the binding allows (activate, PIN,
 * update) first make sure the card is the cardholder's own, with the same narrowed read, so the
 * answer for someone else's card is the answer for no card. The permissions (permissions.ts) decide
 * which of these a bound caller may call at all; the writes its role never holds are refused here
 * too, so a mistake in one place is not a hole.
 */
export function boundToCardholder(upstream: Upstream, cardholderId: string): Upstream {
  return withDomains(upstream, {
    cards: boundCards(upstream.cards, cardholderId),
    cardholders: boundCardholders(upstream.cardholders, cardholderId),
    wallets: boundWallets(upstream.wallets, cardholderId),
    kyc: boundKyc(upstream.kyc, cardholderId),
  });
}

/** The answer to a card write naming a card that is not the caller's: the same whether it exists or not. */
function notOwnCard(): InputValidationError {
  return new InputValidationError({ issues: [{ path: ['input', 'cardId'], message: 'names no card of this cardholder' }] });
}

/** `call`, made once `allowed(id)` says the record is the caller's; otherwise `refusal(id)` is thrown. */
function checkedFirst<A extends unknown[], R>(
  allowed: (id: string) => boolean | Promise<boolean>,
  refusal: (id: string) => Error,
  call: (id: string, ...rest: A) => Promise<R>,
): (id: string, ...rest: A) => Promise<R> {
  return async (id, ...rest) => {
    if (!(await allowed(id))) throw refusal(id);
    return call(id, ...rest);
  };
}

function refused(permission: Permission, what: string): () => Promise<never> {
  return () => Promise.reject(new PermissionDeniedError(permission, what));
}

function boundCards(cards: Upstream['cards'], cardholderId: string): Upstream['cards'] {
  // The cards the bank listed as this cardholder's in this request: no second read to trust them.
  const own = new Set<string>();
  const listOwn: Upstream['cards']['list'] = async (filter) => {
    const listed = await cards.list({ ...filter, cardholderId });
    for (const card of listed) own.add(card.cardHashId);
    return listed;
  };
  const owns = async (id: string) => own.has(id) || (await listOwn({ id })).length > 0;
  const ownOnly = <A extends unknown[], R>(write: (id: string, ...rest: A) => Promise<R>) => checkedFirst(owns, notOwnCard, write);
  return {
    ...cards,
    list: async (filter) => (filter.cardholderId != null && filter.cardholderId !== cardholderId ? [] : listOwn(filter)),
    detail: async (id) => {
      if (!(await owns(id))) return null;
      const detail = await cards.detail(id);
      // The card list said it is theirs; a detail naming another cardholder is not shown either way.
      const named = detail?.cardholder?.cardholderId ?? null;
      return detail && (named === null || named === cardholderId) ? detail : null;
    },
    transactions: async (id, page) => ((await owns(id)) ? cards.transactions(id, page) : { hasMore: false, items: [] }),
    activate: ownOnly(cards.activate),
    pinReset: ownOnly(cards.pinReset),
    update: ownOnly(cards.update),
    create: refused('cards:write', 'issuing a card'),
    assign: refused('cards:write', 'assigning a card'),
    recharge: refused('cards:write', 'loading a card'),
  };
}

function boundCardholders(cardholders: Upstream['cardholders'], cardholderId: string): Upstream['cardholders'] {
  return {
    ...cardholders,
    get: async (id) => (id === cardholderId ? cardholders.get(id) : null),
    // The bank's list has no id filter: the list of one, read by id.
    list: async (filter = {}) => {
      if ((filter.page ?? 1) > 1) return [];
      const record = await cardholders.get(cardholderId);
      return record && (filter.status == null || record.status === filter.status) ? [record] : [];
    },
    create: refused('cardholders:write', 'creating a cardholder'),
    update: refused('cardholders:write', 'changing a cardholder'),
    delete: refused('cardholders:write', 'deleting a cardholder'),
  };
}

function boundWallets(wallets: Upstream['wallets'], cardholderId: string): Upstream['wallets'] {
  return {
    ...wallets,
    list: async (id) => (id === cardholderId ? wallets.list(id) : []),
    history: async (wallet, page) => (wallet.cardholderId === cardholderId ? wallets.history(wallet, page) : []),
    create: refused('wallets:write', 'creating a wallet'),
  };
}

function boundKyc(kyc: Upstream['kyc'], cardholderId: string): Upstream['kyc'] {
  // Reached only through a cardholder the caller sees; another is one that does not exist.
  const own = <A extends unknown[], R>(read: (id: string, ...rest: A) => Promise<R>) =>
    checkedFirst(
      (id) => id === cardholderId,
      (id) => new LinkedRecordNotFoundError('Cardholder', id),
      read,
    );
  return { ...kyc, status: own(kyc.status), rfi: own(kyc.rfi), rfiResponseLink: own(kyc.rfiResponseLink) };
}
