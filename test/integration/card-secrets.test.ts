import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { CardActivateDocument, CardAssignDocument, CardFullDocument, CardPinResetDocument, CardsDocument } from '../generated/graphql.ts';
import { useKit } from '../helpers/kit.ts';

/**
 * Card secrets go to the bank and nowhere else: run every operation that carries one, including
 * failing ones, with the gateway and the sandbox logging at trace level, and look for them.
 */
const lines: string[] = [];
const kit = useKit({ logger: createLogger('trace', { write: (line) => void lines.push(line) }) });

const PAN = '5555555555554444';
const PINS = ['730517', '194862'];
const AVA = encodeGlobalID('Cardholder', 'chd_demo_ava');

describe('card secrets', () => {
  it('never appear in a response or a log line: full card number, PIN, activation code', async () => {
    const responses: unknown[] = [];
    const run = async <R, V>(doc: Parameters<typeof kit.execute<R, V>>[0], variables: V) => {
      const result = await kit.execute(doc, variables);
      responses.push(result);
      return result;
    };

    const assigned = await run(CardAssignDocument, {
      input: { cardholderId: AVA, cardNumber: PAN, currency: 'USD', createdBy: 'Jane Doe' },
    });
    const outcome = assigned.data!.cardAssign;
    if (outcome.__typename !== 'CardAssignSuccess') throw new Error(JSON.stringify(assigned));
    const card = outcome.result.card!;
    // Assigning the same number again fails upstream; its error must not carry the number either.
    await run(CardAssignDocument, { input: { cardholderId: AVA, cardNumber: PAN, currency: 'USD', createdBy: 'Jane Doe' } });

    const emails = (await kit.control('GET', 'emails')) as { cardId: string; activationCode: string }[];
    const code = emails.find((e) => e.cardId === card.upstreamId)!.activationCode;
    await run(CardActivateDocument, { input: { cardId: card.id, activationCode: `${code.slice(0, 5)}9`, pin: PINS[0] } });
    await run(CardActivateDocument, { input: { cardId: card.id, activationCode: code, pin: PINS[0] } });
    await run(CardPinResetDocument, { input: { cardId: card.id, pin: PINS[1]! } });
    await run(CardPinResetDocument, { input: { cardId: card.id, pin: '12345' } });
    await run(CardFullDocument, { id: card.id });
    await run(CardsDocument, { first: 50 });

    // Log timestamps are long digit runs that could hold a 6-digit secret by chance: leave them out.
    const logged = lines.map((line) => line.replace(/"time":\d+,/, ''));
    const seen = [...responses.map((r) => JSON.stringify(r)), ...logged].join('\n');
    expect(lines.length).toBeGreaterThan(10);
    expect(seen).toContain('555555******4444');
    expect(seen).not.toContain(PAN);
    expect(seen).not.toContain(code);
    for (const pin of PINS) expect(seen).not.toContain(pin);
  });
});
