import { describe, expect, it } from 'vitest';
import { directToken } from '../../bench/bank-client.ts';
import { CARDS_ON_SCREEN, extraCardMutation, OPERATIONS } from '../../bench/operations.ts';
import { checkSameAnswers } from '../../bench/same-answers.ts';
import { StackFloorProcess } from '../../bench/floor-servers.ts';
import { useKit } from '../helpers/kit.ts';
import { postGraphql } from '../helpers/http.ts';

/**
 * The stack floor (bench/stack-floor.ts) stands for the gateway's screens only while it answers them
 * as the gateway does: checkSameAnswers throws on another JSON shape or other upstream calls. The
 * gateway's record cache is off, as in the benchmark's process, so both make every call each run.
 */
const kit = useKit({ listen: true, cache: false });

describe('the stack floor', () => {
  it("answers every screen in the gateway's shape, with the gateway's upstream calls", async () => {
    for (let i = 1; i < CARDS_ON_SCREEN; i++) {
      const { query, variables } = extraCardMutation(i);
      expect((await postGraphql(`${kit.baseUrl}/graphql`, { query, variables })).body.errors).toBeUndefined();
    }
    const floor = await StackFloorProcess.start(kit.sandbox.url, await directToken(kit.sandbox.url), []);
    try {
      const checks = await checkSameAnswers(`${kit.baseUrl}/graphql`, floor.graphqlUrl, kit.sandbox.url, OPERATIONS, 'the stack floor');
      expect(checks.map((check) => check.calls)).toEqual(OPERATIONS.map((operation) => operation.minimumCalls));
    } finally {
      await floor.close();
    }
  }, 30_000);
});
