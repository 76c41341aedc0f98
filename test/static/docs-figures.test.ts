import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DELIVERIES_PER_TURN } from '../../src/events/bus.ts';
import { MAX_PENDING } from '../../src/events/fanout.ts';
import { MAX_UNSENT_BYTES } from '../../src/transport/ws-sends.ts';
import { CONTRACT_ENDPOINTS } from '../helpers/contract.ts';

/**
 * The figures the docs copy from the code or the documents, held to their source: a number typed by
 * hand in prose goes stale silently when its source changes.
 */
const doc = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe('figures in the docs', () => {
  it('frontend.md gives the subscriber backlog that cuts a subscription as fanout.ts has it', () => {
    expect(doc('docs/frontend.md')).toContain(`falls ${MAX_PENDING.toLocaleString('en-US')} events behind`);
    expect(doc('docs/frontend.md')).toContain(`and ${MAX_UNSENT_BYTES / 1024} KB in the gateway`);
  });

  it('architecture.md gives the deliveries a turn of the fan-out takes as bus.ts has it', () => {
    expect(doc('docs/architecture.md')).toContain(`turns of about ${DELIVERIES_PER_TURN.toLocaleString('en-US')} deliveries`);
  });

  it('sandbox.md counts the endpoints the contract numbers', () => {
    const count = CONTRACT_ENDPOINTS.length;
    expect(doc('docs/sandbox.md')).toContain(`the ${count} endpoints numbered as the documents list`);
    expect(doc('docs/sandbox.md')).toContain(`all ${count} endpoints`);
  });
});
