import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClientSchema, getIntrospectionQuery, parse, print, visit, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withGenerated } from '../../src/tools/generated-part.ts';
import { WAYS_IN } from '../../src/transport/ways-in.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { expected, judge, shownFor, type Verdict } from './matrix/judge.ts';
import { matrixTable, printedMatrix, type CellRecord } from './matrix/print.ts';
import { placementsOf, requiredPlacements } from './matrix/placements.ts';
import { probeWaysIn } from './matrix/probe.ts';
import { ROWS, type Row, type RowSetup } from './matrix/rows.ts';
import { clientTexts, FORMS, WAYS, type Cell, type Form, type Way } from './matrix/ways.ts';
import { persistedQuery, sha256 } from './matrix/wire.ts';
import { postGraphql } from '../helpers/http.ts';
import { until } from '../helpers/wait.ts';

/**
 * No feature takes another away: every document a client may send (each directive in every place a
 * client writes it, combined, beside the limits) crossed with every way in the gateway serves,
 * driven by the client that defines it at its defaults, and every form a document arrives in (its
 * text, an automatic persisted query's hash, a trusted document's id). Each cell is judged against
 * what the row is and what the way carries (matrix/judge.ts): answered in one result or in parts,
 * a live query or a subscription held open after its first result, or refused with its code before
 * any bank call. `npm run test -- matrix` prints the matrix with its verdicts.
 *
 * The record cache is off, so a cell that ran calls the bank and a refused cell's zero calls mean
 * it was refused before anything ran.
 */

/** What the setup reads the first event's cursor with; in the manifest too. */
const SETUP_SUBSCRIPTION = 'subscription { bankEvents { cursor } }';

const directory = mkdtempSync(join(tmpdir(), 'matrix-manifest-'));
const manifest = join(directory, 'persisted-query-manifest.json');
writeFileSync(
  manifest,
  JSON.stringify({
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: [...new Set([...ROWS.flatMap(clientTexts), SETUP_SUBSCRIPTION])].map((body) => ({
      id: sha256(body),
      body,
      name: 'matrix',
      type: 'query',
    })),
  }),
);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const text = useKit({ listen: true, cache: false });
const trusted = useKit({ listen: true, cache: false, limits: { trustedDocuments: manifest } });
const kitFor = (form: Form): Kit => (form === 'trusted' ? trusted : text);

const setups = new Map<Kit, RowSetup>();
const references = new Map<string, unknown>();
const records: CellRecord[] = [];
/** The SHA-256 of every client text the text gateway kept as an APQ: a cell's hash alone must be answered. */
const registered = new Set<string>();

beforeAll(async () => {
  for (const kit of [text, trusted]) setups.set(kit, { cursor: await eventsLogged(kit) });
  for (const body of new Set(ROWS.flatMap(clientTexts))) if (await registers(body)) registered.add(sha256(body));
}, 60_000);

/**
 * Whether the text gateway keeps a document offered with its hash: asked with the hash alone after
 * the offer. Only a document that validates is kept; an APQ cell of one that is must be answered
 * from the hash alone, on every way.
 */
async function registers(body: string): Promise<boolean> {
  const url = `${text.baseUrl}/graphql`;
  const accept = { accept: 'application/json' };
  await postGraphql(url, { query: body, extensions: persistedQuery(body) }, accept);
  const byHash = await postGraphql(url, { extensions: persistedQuery(body) }, accept);
  return !JSON.stringify(byHash.body ?? null).includes('PERSISTED_QUERY_NOT_FOUND');
}

afterAll(() => {
  console.log(printedMatrix(ROWS, WAYS, records));
});

/**
 * Two bank events in the gateway's log; the cursor of the first. Every subscription row resumes
 * after it, so the second is its first event, replayed from the log at once.
 */
async function eventsLogged(kit: Kit): Promise<string> {
  const abort = new AbortController();
  const response = await kit.gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(kit === trusted ? { documentId: `sha256:${sha256(SETUP_SUBSCRIPTION)}` } : { query: SETUP_SUBSCRIPTION }),
    signal: abort.signal,
  });
  await until('the setup subscription to open', () => kit.gateway.events.activeSubscriptions() === 1);
  expect((await deliverEvent(kit.baseUrl, { ...bankEvent('evt_matrix_first'), created_at: '2026-12-01T10:00:00+0000' })).status).toBe(202);
  let received = '';
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  while (!/"cursor":"([^"]+)"/.test(received)) received += (await reader.read()).value ?? '';
  await reader.cancel();
  abort.abort();
  await until('the setup subscription to end', () => kit.gateway.events.activeSubscriptions() === 0);
  expect((await deliverEvent(kit.baseUrl, { ...bankEvent('evt_matrix_second'), created_at: '2026-12-01T10:00:01+0000' })).status).toBe(202);
  return /"cursor":"([^"]+)"/.exec(received)![1]!;
}

/** The row's document without @defer, @stream and @live (and the variables only they used): what its answer must add up to. */
function plain(document: string): string {
  const stripped = visit(parse(document), {
    Directive: (node) => (['defer', 'stream', 'live'].includes(node.name.value) ? null : undefined),
  });
  const used = new Set<string>();
  visit(stripped, { VariableDefinition: () => false, Variable: (node) => void used.add(node.name.value) });
  return print(visit(stripped, { VariableDefinition: (node) => (used.has(node.variable.name.value) ? undefined : null) }));
}

/**
 * What the row answers in one JSON result (a subscription: its first event over SSE), asked of the
 * gateway that takes text: both gateways' banks hold the same demo data and the same two events.
 */
async function referenceOf(row: Row): Promise<unknown> {
  const kit = text;
  const key = `${row.group}|${row.name}`;
  const variables = row.variables?.(setups.get(kit)!);
  if (references.has(key)) return references.get(key);
  const subscription = row.nature === 'subscription';
  const abort = new AbortController();
  const response = await kit.gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: subscription ? 'text/event-stream' : 'application/graphql-response+json' },
    body: JSON.stringify({ query: plain(row.document), variables, operationName: row.operationName }),
    signal: abort.signal,
  });
  let data: unknown;
  if (subscription) {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    while (!/^data: (.+)$/m.test(received)) received += (await reader.read()).value ?? '';
    data = (JSON.parse(/^data: (.+)$/m.exec(received)![1]!) as { data: unknown }).data;
    await reader.cancel();
    abort.abort();
  } else {
    const body = (await response.json()) as { data?: unknown; errors?: unknown };
    expect(body.errors, `the reference answer of ${row.group} ${row.name}`).toBeUndefined();
    data = body.data;
  }
  references.set(key, data);
  return data;
}

async function runCell(row: Row, way: Way, form: Form): Promise<Verdict> {
  const kit = kitFor(form);
  const variables = row.variables?.(setups.get(kit)!);
  const want = expected(row, way);
  const reference = want.kind === 'refused' ? undefined : await referenceOf(row);
  const hashKnown = form === 'apq' && registered.has(sha256(way.sentText(row.document)));
  await kit.resetCounts();
  let openAtFirst = 0;
  const cell: Cell = {
    row,
    form,
    baseUrl: kit.baseUrl!,
    query: row.document,
    variables,
    operationName: row.operationName,
    stream: want.kind === 'live' || want.kind === 'event',
    first: () => void (openAtFirst = kit.gateway.live.stats().open + kit.gateway.events.activeSubscriptions()),
  };
  const observed = await way.run(cell);
  await until(
    'the cell to let go of its stream',
    () => kit.gateway.live.stats().open === 0 && kit.gateway.events.activeSubscriptions() === 0,
    { timeoutMs: 5_000 },
  );
  const verdict = judge(observed, want, { bankCalls: kit.calls().length, openAtFirst, reference, hashKnown });
  return verdict;
}

for (const form of FORMS) {
  describe(`the document arrives as ${form === 'text' ? 'its text' : form === 'apq' ? 'an APQ hash' : "a trusted document's id"}`, () => {
    for (const row of ROWS) {
      describe(`${row.group}: ${row.name}`, () => {
        for (const way of WAYS) {
          const why = way.cannot(row, form);
          if (why) {
            records.push({ row, way, form, notApplicable: why });
            continue;
          }
          it(`${way.name}: ${shownFor(expected(row, way))}`, async () => {
            const verdict = await runCell(row, way, form);
            records.push({ row, way, form, verdict });
            expect(verdict.problems, `${way.name} (${way.client})`).toEqual([]);
          });
        }
      });
    }
  });
}

const FRONTEND = new URL('../../docs/frontend.md', import.meta.url);
const MARKERS = {
  begin: '<!-- matrix: begin (test/protocol/matrix.test.ts writes it: MATRIX_WRITE=1 npm run test -- matrix) -->',
  end: '<!-- matrix: end -->',
};

describe('the matrix leaves nothing out', () => {
  it('has rows for every executable directive the schema declares, in every place the directive may be written', async () => {
    const response = await fetch(`${text.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    });
    const schema = buildClientSchema(((await response.json()) as { data: IntrospectionQuery }).data);
    const covered = placementsOf(ROWS.map((row) => parse(row.document)));
    const missing = schema.getDirectives().flatMap((directive) =>
      requiredPlacements(directive.locations)
        .filter((place) => !covered.get(directive.name)?.has(place))
        .map((place) => `@${directive.name} ${place}`),
    );
    expect(missing).toEqual([]);
  });

  it('has a column for every way in the gateway serves, and the gateway serves no way it does not list', async () => {
    expect([...new Set(WAYS.map((way) => way.id))].sort()).toEqual(WAYS_IN.map((way) => way.id).sort());
    const served = await probeWaysIn(text.baseUrl!);
    expect(served.filter((way) => way.id === undefined)).toEqual([]);
    expect([...new Set(served.map((way) => way.id))].sort()).toEqual(WAYS_IN.map((way) => way.id).sort());
  });

  it('is shown in docs/frontend.md as it ran', (context) => {
    const cells = FORMS.flatMap((form) => ROWS.flatMap((row) => WAYS.map((way) => ({ row, way, form }))));
    // Only after every cell ran (not under a filter), and passed: the doc shows what works.
    const ran = records.filter((record) => record.verdict);
    if (records.length < cells.length || ran.some((record) => record.verdict!.problems.length > 0)) return context.skip();
    const doc = readFileSync(FRONTEND, 'utf8');
    const wanted = withGenerated(doc, MARKERS, matrixTable(ROWS, WAYS, records), 'docs/frontend.md');
    if (process.env.MATRIX_WRITE) return writeFileSync(FRONTEND, wanted);
    expect(doc, 'docs/frontend.md shows another matrix: MATRIX_WRITE=1 npm run test -- matrix writes this one').toBe(wanted);
  });
});
