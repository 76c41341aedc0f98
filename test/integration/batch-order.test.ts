import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CARDS_ON_SCREEN, extraCardMutation, OPERATIONS } from '../../bench/operations.ts';
import { useKit } from '../helpers/kit.ts';
import { postGraphql } from '../helpers/http.ts';

/**
 * Within a round of upstream calls the smaller loader batches go out first (src/upstream/batch-order.ts):
 * on the cards screen the cardholders, whose answers the wallet reads of the next round wait for,
 * must not queue behind the 50 card details at the bank. Read in the order the gateway hands its
 * requests to the HTTP client (undici's diagnostics channel), which is the order they leave.
 */
const kit = useKit({ cache: false });
const CARDS_SCREEN = OPERATIONS.find((operation) => operation.operationName === 'CardsScreen')!;

let sent: string[] = [];
const onCreate = (message: unknown) => {
  sent.push((message as { request: { path: string } }).request.path);
};
beforeEach(() => {
  sent = [];
  subscribe('undici:request:create', onCreate);
});
afterEach(() => {
  unsubscribe('undici:request:create', onCreate);
});

async function run(query: string, variables?: Record<string, unknown>) {
  const { body } = await postGraphql('http://gateway.test/graphql', { query, variables }, {}, { fetch: kit.gateway.yoga.fetch });
  expect(body.errors).toBeUndefined();
}

describe('loader batches of one round', () => {
  it('go out smallest first: the cards screen sends its 2 cardholder reads before its 50 card details', async () => {
    for (let i = 1; i < CARDS_ON_SCREEN; i++) {
      const { query, variables } = extraCardMutation(i);
      await run(query, variables);
    }
    sent = [];
    await run(CARDS_SCREEN.query, CARDS_SCREEN.variables);
    const kinds = sent.map((path) =>
      path.includes('/card/cardholder') ? 'cardholder' : path.includes('/card/detail') ? 'detail' : path.split('?')[0]!,
    );
    const firstDetail = kinds.indexOf('detail');
    const cardholders = kinds.flatMap((kind, index) => (kind === 'cardholder' ? [index] : []));
    expect(kinds.filter((kind) => kind === 'detail')).toHaveLength(CARDS_ON_SCREEN);
    expect(cardholders).toHaveLength(2);
    expect(Math.max(...cardholders)).toBeLessThan(firstDetail);
  });
});
