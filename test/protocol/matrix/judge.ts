import { isDeepStrictEqual } from 'node:util';
import { errorsOf, mergedData, withoutTypenames, type Observed } from './outcome.ts';
import type { Row } from './rows.ts';
import type { Way } from './ways.ts';

/** What a way in should answer to a row: follows from what the row is and what the way carries. */
export type Expected =
  | { kind: 'one' }
  | { kind: 'parts' }
  /** A live query's first result, the stream left open for its pushes. */
  | { kind: 'live' }
  /** A subscription's first event, the stream left open. */
  | { kind: 'event' }
  | { kind: 'refused'; code: string; message?: RegExp | undefined };

const refused = (code: string, message?: RegExp): Expected => ({ kind: 'refused', code, message });
/** A mutation in a GET: a link could make it (docs/errors.md). */
const MUTATION_IN_GET = refused('BAD_REQUEST', /^Can only perform a mutation operation from a POST request/);
const PARTS_NOT_ACCEPTED = refused('INCREMENTAL_DELIVERY_NOT_ACCEPTED', /^An operation with @defer or @stream is answered in parts/);
const STREAM_NOT_ACCEPTED = refused('SUBSCRIPTION_TRANSPORT_NOT_ACCEPTED', /^A subscription is answered as a stream of events/);

export function expected(row: Row, way: Way): Expected {
  const { nature } = row;
  if (typeof nature === 'object') return refused(nature.refused, nature.message);
  const { carries } = way;
  switch (nature) {
    case 'query':
      return { kind: 'one' };
    case 'parts':
      return carries.parts ? { kind: 'parts' } : PARTS_NOT_ACCEPTED;
    case 'live':
      return carries.liveStream ? { kind: 'live' } : { kind: 'one' };
    case 'mutation':
      return carries.mutations ? { kind: 'one' } : MUTATION_IN_GET;
    case 'mutation in parts':
      return !carries.mutations ? MUTATION_IN_GET : carries.parts ? { kind: 'parts' } : PARTS_NOT_ACCEPTED;
    case 'subscription':
      return carries.subscriptions ? { kind: 'event' } : STREAM_NOT_ACCEPTED;
  }
}

/** What the gateway and the bank showed around a cell. */
export interface Around {
  /** Calls the bank saw during the cell. */
  bankCalls: number;
  /** Live queries and subscriptions the gateway held open when the first result arrived. */
  openAtFirst: number;
  /** The data the row's document gives without @defer, @stream and @live, in one JSON answer. */
  reference: unknown;
  /** The APQ cell's hash was registered before (a cell of another client sent the same text). */
  hashKnown: boolean;
}

export interface Verdict {
  /** As the printed matrix shows it: `one`, `parts`, `live`, `event`, or the refusal's code. */
  shown: string;
  /** Empty when the cell answered as expected. */
  problems: string[];
}

/** The refusal a cell saw: reported as an error, or a lone result with errors and no data. */
function refusalOf(observed: Observed): Observed['refusal'] {
  if (observed.refusal) return observed.refusal;
  const [first] = observed.results;
  if (observed.results.length === 1 && first?.errors?.length && (first.data === undefined || first.data === null)) {
    return { code: first.errors[0]!.extensions?.code as string | undefined, message: first.errors[0]!.message, status: observed.status };
  }
  return undefined;
}

export function judge(observed: Observed, want: Expected, around: Around): Verdict {
  const refusal = refusalOf(observed);
  const shown = refusal ? `${refusal.code ?? refusal.message}` : shownOf(observed, want);
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => ok || problems.push(problem);
  if (want.kind === 'refused') {
    check(refusal?.code === want.code, `refused with ${want.code}, got ${refusal ? `${refusal.code}: ${refusal.message}` : shown}`);
    if (refusal && want.message) check(want.message.test(refusal.message), `a message matching ${want.message}, got "${refusal.message}"`);
    check(around.bankCalls === 0, `refused before any bank call, but the bank saw ${around.bankCalls}`);
    return { shown, problems };
  }
  if (refusal) return { shown, problems: [`${want.kind}, got a refusal: ${refusal.code}: ${refusal.message}`] };
  const parts = observed.merged ? (observed.wireResults ?? observed.results.length) : observed.results.length;
  const errors = errorsOf(observed.results);
  check(errors.length === 0, `no errors, got ${JSON.stringify(errors)}`);
  const streams = want.kind === 'live' || want.kind === 'event';
  if (streams) {
    check(observed.leftOpen, 'the stream open after its first result');
    check(around.openAtFirst > 0, 'the gateway holding the stream open at its first result');
    check(
      isDeepStrictEqual(withoutTypenames(observed.results[0]?.data), withoutTypenames(around.reference)),
      `first result ${JSON.stringify(observed.results[0]?.data)}, want ${JSON.stringify(around.reference)}`,
    );
  } else {
    check(!observed.leftOpen, 'the answer complete');
    check(want.kind === 'one' ? parts === 1 : parts > 1, `${want.kind === 'one' ? 'one result' : 'more than one part'}, got ${parts}`);
    const data = mergedData(observed.results, observed.merged);
    check(
      isDeepStrictEqual(withoutTypenames(data), withoutTypenames(around.reference)),
      `data ${JSON.stringify(data)}, want ${JSON.stringify(around.reference)}`,
    );
  }
  if (around.hashKnown && observed.answeredByHashAlone === false)
    problems.push('answered by the hash alone (it was registered), but the text had to be sent');
  return { shown, problems };
}

function shownOf(observed: Observed, want: Expected): string {
  if (observed.leftOpen)
    return observed.results.length === 0 ? 'no answer' : want.kind === 'live' || want.kind === 'event' ? want.kind : 'left open';
  const parts = observed.merged ? (observed.wireResults ?? observed.results.length) : observed.results.length;
  return parts > 1 ? 'parts' : 'one';
}

/** A verdict as the printed matrix names it for an expectation met. */
export function shownFor(want: Expected): string {
  return want.kind === 'refused' ? want.code : want.kind;
}
