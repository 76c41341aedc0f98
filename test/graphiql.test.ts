import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { startKit, type Kit } from './kit.ts';

/**
 * GraphiQL must work with no internet: the page is opened in headless Chromium (test/browser.ts)
 * with every request off this machine refused, a query is run, and its result must show.
 */
describe('GraphiQL in headless Chromium', () => {
  let kit: Kit;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    kit = await startKit();
    const { port } = await kit.gateway.server.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await kit.gateway.server.stop(1_000);
    await kit.sandbox.close();
  });

  it('runs the default query offline and shows the result', async () => {
    const page = await browser.newPage();
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
});
