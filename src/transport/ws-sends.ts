import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** What a socket may hold unsent before a send waits for it to reach the kernel (as ws's callback says). */
export const MAX_UNSENT_BYTES = 64 * 1024;

type SendCallback = (error?: Error) => void;
type SendOptions = Parameters<WebSocket['send']>[1];

const ignore = (): void => {};

/**
 * The messages one socket is sent in one turn of the event loop after its first leave in one write.
 * graphql-ws waits for each message's write before it takes the subscription's next event, so a
 * burst of events costs a system call per event and subscriber (most of a fan-out's time). Here a
 * send is reported done as soon as ws has it while the socket holds less than `maxUnsent` bytes
 * unsent, so the subscription's next event is taken in the same turn; the turn's first message
 * leaves at once (the client reads it while the gateway serves the others: a single event's fan-out
 * is not held back), the later ones are corked until the turn's work is done and leave together.
 * A client that stops reading fills its buffer; its sends then wait for the kernel again, so its own
 * queue (events/fanout.ts) grows and ends it, as before. ws has no option for this.
 */
export function coalesceSends(socket: WebSocket, maxUnsent = MAX_UNSENT_BYTES): void {
  const raw = (socket as unknown as { _socket?: Socket })._socket;
  if (!raw) return;
  const send = socket.send.bind(socket) as (data: unknown, options: SendOptions, callback?: SendCallback) => void;
  let turn: 'idle' | 'sent' | 'corked' = 'idle';
  const endTurn = (): void => {
    if (turn === 'corked') raw.uncork();
    turn = 'idle';
  };
  socket.send = ((data: unknown, optionsOrCallback?: SendOptions | SendCallback, maybeCallback?: SendCallback) => {
    const [options, callback] =
      typeof optionsOrCallback === 'function' ? [{}, optionsOrCallback] : [optionsOrCallback ?? {}, maybeCallback];
    if (!callback || socket.readyState !== socket.OPEN || socket.bufferedAmount >= maxUnsent) return send(data, options, callback);
    if (turn === 'idle') {
      turn = 'sent';
      process.nextTick(endTurn);
    } else if (turn === 'sent') {
      turn = 'corked';
      raw.cork();
    }
    // A failed write errors and closes the socket, which ends its operations (ws.ts).
    send(data, options, ignore);
    queueMicrotask(callback);
  }) as WebSocket['send'];
}
