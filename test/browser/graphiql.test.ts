import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { startKit, type Kit } from '../helpers/kit.ts';

/**
 * GraphiQL must work with no internet: the page is opened in headless Chromium (test/helpers/browser.ts)
 * with every request off this machine refused, a query is run, and its result must show. A live
 * query (`@live`) streams in it: the result pane shows each push. A query whose @defer sits in a
 * named fragment comes in parts, which the pane shows merged.
 */
describe('GraphiQL in headless Chromium', () => {
  let kit: Kit;
  let browser: Browser;
  let context: BrowserContext;
  let base: string;

  beforeAll(async () => {
    // As `npm start` runs: the gateway files its own webhook subscriptions, so bank events reach it.
    kit = await startKit({
      listen: true,
      reconcileWebhooks: true,
      webhooks: { agentCode: 'sandbox-agent', subagentCode: 'sandbox-subagent', companyCode: 'sandbox-company' },
    });
    base = kit.baseUrl!;
    browser = await launchChromium();
    // Chromium runs as one process (test/helpers/browser.ts): closing a browser context would end it, so
    // every page is opened in this one.
    context = await browser.newContext();
  }, 60_000);

  /**
   * Opens GraphiQL with `query` in its editor (its `?query=` parameter), runs it, and gives back the
   * result pane. The editor is ready once the operation's first line shows in it.
   */
  async function runInGraphiQL(page: Page, query: string) {
    await page.goto(`${base}/graphql?query=${encodeURIComponent(query)}`, { waitUntil: 'load' });
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ state: 'visible', timeout: 30_000 });
    await page
      .getByText(query.slice(0, query.indexOf(' {')))
      .first()
      .waitFor({ timeout: 30_000 });
    await run.click();
    return page.locator('.graphiql-response');
  }

  afterAll(async () => {
    await browser?.close();
    await kit?.close();
  });

  it('runs the default query offline and shows the result', async () => {
    const page = await context.newPage();
    const external: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
      external.push(url);
      return route.abort();
    });
    await page.goto(`${base}/graphql`, { waitUntil: 'load' });
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ state: 'visible', timeout: 30_000 });
    // The editor is ready once the default query is in it.
    await page.getByText('query Overview').first().waitFor({ timeout: 30_000 });
    await run.click();
    const response = page.locator('.graphiql-response');
    // The response editor renders only its visible lines: the top of the result is enough.
    await expect.poll(async () => response.innerText(), { timeout: 30_000 }).toContain('"accounts"');
    // Monaco renders spaces as non-breaking ones.
    const text = (await response.innerText()).replace(/\u00a0/g, ' ');
    expect(text).toContain('"data"');
    expect(text).toMatch(/"upstreamId": "[^"]+"/);
    expect(text).not.toContain('"errors"');
    await page.screenshot({ path: process.env.GRAPHIQL_SCREENSHOT ?? '/tmp/graphiql.png' });
    expect(external).toEqual([]);
    await page.close();
  }, 90_000);

  it('runs a live query and shows each push: the new balance after a deposit', async () => {
    const page = await context.newPage();
    const streams: string[] = [];
    page.on('request', (request) => {
      if (request.headers().accept?.includes('text/event-stream')) streams.push(request.url());
    });
    const response = await runInGraphiQL(page, 'query Dashboard @live { balances(currency: "USD") { currency available { amount } } }');
    // Monaco renders spaces as non-breaking ones; amounts are decimal text.
    const shownCents = async () => {
      const amount = /"amount": "([\d.]+)"/.exec((await response.innerText({ timeout: 1_000 })).replace(/\u00a0/g, ' '))?.[1];
      return amount === undefined ? undefined : Math.round(Number(amount) * 100);
    };
    // Read inside the poll: GraphiQL re-renders the pane as a result arrives, and a read of it alone
    // could find it gone for a moment.
    let before = Number.NaN;
    await expect.poll(async () => (before = (await shownCents()) ?? Number.NaN), { timeout: 30_000 }).not.toBeNaN();
    // It went out as server-sent events (GraphiQL streams a query with @live) and is open at the gateway.
    expect(streams).toHaveLength(1);
    expect(kit.gateway.live.stats().open).toBe(1);

    await kit.control('POST', 'deposits', { currency: 'USD', amount: 1250, payer_name: 'Globex' });
    await expect.poll(shownCents, { timeout: 5_000, interval: 50 }).toBe(before + 125_000);
    // Closing the page ends the stream: the gateway lets the live query go. The bound is on the
    // browser closing its connection, which took more than 5 s once, the whole suite and a busy loop
    // sharing two cores with Chromium's processes; the gateway lets go as soon as the socket closes.
    await page.close();
    await expect.poll(() => kit.gateway.live.stats().open, { timeout: 20_000 }).toBe(0);
  }, 90_000);

  it('runs a query whose @defer sits in a named fragment and shows the whole result, sent in parts', async () => {
    const page = await context.newPage();
    const answers: string[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') answers.push(`${response.status()} ${response.headers()['content-type'] ?? ''}`);
    });
    const response = await runInGraphiQL(
      page,
      'query Screen { accounts(first: 2) { nodes { upstreamId } } ...Later } fragment Later on Query { ... @defer { balances(currency: "USD") { currency } } }',
    );
    const shown = async () => (await response.innerText({ timeout: 1_000 })).replace(/\u00a0/g, ' ');
    // The deferred part merged into the result the pane shows.
    await expect.poll(shown, { timeout: 30_000 }).toContain('"currency": "USD"');
    const text = await shown();
    expect(text).toContain('"upstreamId": "acc_demo_usd"');
    expect(text).not.toContain('"errors"');
    expect(answers.filter((answer) => answer.startsWith('200 multipart/mixed'))).toHaveLength(1);
    await page.close();
  }, 90_000);
});
