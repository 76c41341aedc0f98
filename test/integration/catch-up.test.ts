import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { BankEventsDocument } from '../generated/graphql.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';

/**
 * Catch-up after a reconnect, one instance (the memory log): a client that lost its connection
 * subscribes again with `after` set to the last cursor it saw and gets what it missed, in order,
 * then live events, with nothing twice; a cursor past the retention is refused with the oldest one
 * still held.
 */
const kit = useKit({ listen: true, eventLog: { maxEvents: 4 } });

const ALL = print(BankEventsDocument);
let sequence = 0;

/** Delivers one new account.suspended occurrence; returns its id. */
async function deliverNew(target: Kit, name = 'account.suspended'): Promise<string> {
  const id = `acct_${++sequence}_${name}`;
  const status = name === 'account.suspended' ? 'SUSPENDED' : 'ACTIVE';
  expect((await deliverEvent(target.baseUrl, bankEvent(id, name, { status }))).status).toBe(202);
  return id;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 250));
const ids = (results: any[]) => results.map((r) => r.data.bankEvents.upstreamId);

describe('catch-up after a reconnect', () => {
  it('sends the missed events in order, then live ones, none twice, over graphql-ws and SSE', async () => {
    const first = await subscribeWs(kit, ALL);
    const a = await deliverNew(kit);
    const [received] = await first.next(1);
    const lastSeen = received.data.bankEvents.cursor as string;
    await first.close();

    const b = await deliverNew(kit);
    const c = await deliverNew(kit);
    const overWs = await subscribeWs(kit, ALL, { after: lastSeen });
    const overSse = await subscribeSse(kit, ALL, { after: lastSeen });
    await overWs.next(2);
    await overSse.next(2);
    const d = await deliverNew(kit);
    await overWs.next(3);
    await overSse.next(3);
    await settle();
    expect(ids(overWs.received)).toEqual([b, c, d]);
    expect(ids(overSse.received)).toEqual([b, c, d]);
    expect(a).not.toBe(b);
    await overWs.close();
    await overSse.close();
  });

  it('resumes a typed stream with only its own kind of event', async () => {
    const status = 'subscription ($after: String) { accountStatusChanged(after: $after) { status event { upstreamId cursor } } }';
    const first = await subscribeWs(kit, ALL);
    await deliverNew(kit);
    const [received] = await first.next(1);
    await first.close();
    await deliverEvent(
      kit.baseUrl,
      bankEvent(`rfi_${++sequence}_rfi.action_required`, 'rfi.action_required', { id: 'rfi_1', type: 'KYC' }),
    );
    const active = await deliverNew(kit, 'account.active');

    const resumed = await subscribeWs(kit, status, { after: received.data.bankEvents.cursor });
    const [update] = await resumed.next(1);
    expect(update.data.accountStatusChanged).toMatchObject({ status: 'ACTIVE', event: { upstreamId: active } });
    await settle();
    expect(resumed.received).toHaveLength(1);
    await resumed.close();
  });

  it('resumes after the newest event with nothing to replay, then live', async () => {
    const first = await subscribeWs(kit, ALL);
    await deliverNew(kit);
    const [received] = await first.next(1);
    await first.close();
    const resumed = await subscribeWs(kit, ALL, { after: received.data.bankEvents.cursor });
    await settle();
    expect(resumed.received).toEqual([]);
    const live = await deliverNew(kit);
    await resumed.next(1);
    expect(ids(resumed.received)).toEqual([live]);
    await resumed.close();
  });

  it('refuses a cursor past the retention, naming the oldest cursor held', async () => {
    const first = await subscribeWs(kit, ALL);
    await deliverNew(kit);
    const [old] = await first.next(1);
    await first.close();
    // The log holds 4: five more push the old event and the one after it out.
    for (let i = 0; i < 5; i++) await deliverNew(kit);

    const refused = await subscribeWs(kit, ALL, { after: old.data.bankEvents.cursor }, {}, { registered: false });
    const [answer] = await refused.next(1);
    expect(answer.errors[0].extensions).toMatchObject({ code: 'CURSOR_EXPIRED', oldestCursor: expect.any(String) });
    expect(answer.errors[0].message).toContain('refetch');

    // The oldest cursor named resumes: the 3 events after it.
    const resumed = await subscribeWs(kit, ALL, { after: answer.errors[0].extensions.oldestCursor });
    await resumed.next(3);
    await settle();
    expect(resumed.received).toHaveLength(3);
    await refused.close();
    await resumed.close();
  });

  it('refuses text that is not a cursor, naming the argument', async () => {
    const refused = await subscribeSse(kit, ALL, { after: 'not-a-cursor' }, {}, { registered: false });
    const [answer] = await refused.next(1);
    expect(answer.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'after' } });
    expect(answer.errors[0].message).toMatch(/^after: /);
    await refused.close();
  });
});

describe('catch-up: retention by age', () => {
  const young = useKit({ listen: true, eventLog: { maxAgeMs: 300 } });

  it('refuses a cursor when an event after it has aged out, and accepts one with nothing lost after it', async () => {
    const first = await subscribeWs(young, ALL);
    await deliverNew(young);
    await deliverNew(young);
    const [a, b] = await first.next(2);
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 400));

    const refused = await subscribeWs(young, ALL, { after: a.data.bankEvents.cursor }, {}, { registered: false });
    const [answer] = await refused.next(1);
    expect(answer.errors[0].extensions).toEqual({ code: 'CURSOR_EXPIRED', oldestCursor: null });
    await refused.close();

    // Everything up to b aged out, but nothing after it did: b's cursor still resumes.
    const resumed = await subscribeWs(young, ALL, { after: b.data.bankEvents.cursor });
    const live = await deliverNew(young);
    await resumed.next(1);
    expect(ids(resumed.received)).toEqual([live]);
    await resumed.close();
  });
});
