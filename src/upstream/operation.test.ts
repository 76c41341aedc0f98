import { describe, expect, it } from 'vitest';
import { OperationAbandonedError } from './errors.ts';
import { abandonment, startOperation } from './operation.ts';

describe('startOperation', () => {
  it('fires both signals at the deadline, with a TimeoutError, and counts nothing', async () => {
    let abandoned = 0;
    const operation = startOperation({ deadline: Date.now() + 20, client: new AbortController().signal, onAbandoned: () => abandoned++ });
    await new Promise((resolve) => operation.signal.addEventListener('abort', resolve));
    expect(operation.signal.reason).toMatchObject({ name: 'TimeoutError' });
    expect(operation.deadlineSignal?.aborted).toBe(true);
    expect(abandonment(operation.signal)).toBeUndefined();
    expect(abandoned).toBe(0);
  });

  it('fires the operation signal alone when the client leaves, with the abandonment, counted once', () => {
    let abandoned = 0;
    const client = new AbortController();
    const operation = startOperation({
      deadline: Date.now() + 60_000,
      client: client.signal,
      correlationId: 'req-1',
      onAbandoned: () => abandoned++,
    });
    client.abort();
    expect(abandonment(operation.signal)).toBeInstanceOf(OperationAbandonedError);
    expect(operation.signal.reason).toMatchObject({ reason: 'DEADLINE_EXCEEDED', requestId: 'req-1' });
    // A write on the wire listens to the deadline alone: the client leaving does not cut it.
    expect(operation.deadlineSignal?.aborted).toBe(false);
    expect(abandoned).toBe(1);
    operation.end();
  });

  it("tells the executor of the client leaving, with the client's reason, and never of the deadline", async () => {
    const staying = startOperation({ deadline: Date.now() + 20, client: new AbortController().signal });
    await new Promise((resolve) => staying.signal.addEventListener('abort', resolve));
    expect(staying.clientLeft.aborted).toBe(false);
    const client = new AbortController();
    const leaving = startOperation({ deadline: Date.now() + 60_000, client: client.signal });
    const reason = new Error('connection closed');
    client.abort(reason);
    expect(leaving.clientLeft.reason).toBe(reason);
    expect(startOperation({ deadline: undefined, client: AbortSignal.abort(reason) }).clientLeft.reason).toBe(reason);
    leaving.end();
  });

  it('takes a client already gone as gone', () => {
    const operation = startOperation({ deadline: undefined, client: AbortSignal.abort() });
    expect(abandonment(operation.signal)).toBeInstanceOf(OperationAbandonedError);
  });

  it('once ended, neither fires at the deadline nor counts the client leaving', async () => {
    let abandoned = 0;
    const client = new AbortController();
    const operation = startOperation({ deadline: Date.now() + 20, client: client.signal, onAbandoned: () => abandoned++ });
    operation.end();
    client.abort();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(operation.signal.aborted).toBe(false);
    expect(abandoned).toBe(0);
  });

  it('has no deadline signal for a subscription, whose life is its client', () => {
    const operation = startOperation({ deadline: undefined, client: undefined });
    expect([operation.deadline, operation.deadlineSignal, operation.signal.aborted]).toEqual([undefined, undefined, false]);
  });
});
