/**
 * Why a subscription cannot resume where a client asked (`after`). src/transport/errors.ts gives each its
 * GraphQL code: CURSOR_INVALID (BAD_USER_INPUT), CURSOR_EXPIRED, EVENT_LOG_UNAVAILABLE.
 */

/** The text given as `after` is not a cursor this gateway hands out. */
export class InvalidCursorError extends Error {
  constructor() {
    super('after: is not an event cursor of this gateway (use the `cursor` of an event you received, unchanged)');
    this.name = 'InvalidCursorError';
  }
}

/**
 * Events after the cursor are no longer all retained (older than the retention, past its count, or
 * the log was lost with a Redis or gateway restart): the client must refetch what it shows.
 */
export class CursorExpiredError extends Error {
  /** The oldest cursor still retained; null when the log holds no event. */
  readonly oldestCursor: string | null;
  constructor(oldestCursor: string | null) {
    super(
      `after: the events after this cursor are no longer all retained, so some would be missed: refetch the state you show, then subscribe again${
        oldestCursor ? ` (the oldest cursor still retained is ${oldestCursor})` : ' (no events are retained now)'
      }`,
    );
    this.name = 'CursorExpiredError';
    this.oldestCursor = oldestCursor;
  }
}

/** The shared log (Redis) cannot be read now and this instance does not hold the cursor itself. */
export class EventLogUnavailableError extends Error {
  constructor(reason: string) {
    super(`The event log cannot be read right now (${reason}), so the events after this cursor cannot be sent: retry in a few seconds`);
    this.name = 'EventLogUnavailableError';
  }
}

/**
 * The subscriber did not take its events as fast as they came (a stalled connection) and fell too
 * far behind: its stream ends here. Nothing is lost: resuming after `resumeAfter` sends the rest.
 */
export class SubscriberFellBehindError extends Error {
  /** The cursor of the last event this subscriber was given; null if it was given none. */
  readonly resumeAfter: string | null;
  constructor(resumeAfter: string | null) {
    super(
      `This subscription fell too far behind the events and was ended: subscribe again${resumeAfter ? ` with after: "${resumeAfter}"` : ''} to get the rest`,
    );
    this.name = 'SubscriberFellBehindError';
    this.resumeAfter = resumeAfter;
  }
}
