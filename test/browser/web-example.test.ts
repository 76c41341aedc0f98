import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { apiClient, CARD_PATH } from '../../sandbox/test/helpers.ts';

/**
 * The example web client (examples/web), built as a frontend team would build it, in a real
 * Chromium against a gateway that runs only the app's own persisted documents (its codegen's
 * manifest, loaded as is). It shows the demo accounts; its dashboard is live queries (`@live` over
 * graphql-ws), so a deposit's new balance and a card frozen by another user of the bank show on the
 * page within 3 s, and after a dropped connection the page shows what changed meanwhile; a payout
 * with a bad amount shows the field's error.
 */
const APP = fileURLToPath(new URL('../../examples/web/', import.meta.url));
const MANIFEST = join(APP, 'src/gql/persisted-documents.json');
/** The manifest's id of the app's document for an operation: what the page sends in its place. */
const documentIdOf = (operation: string) =>
  Object.entries(JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>).find(([, text]) =>
    text.includes(`query ${operation} `),
  )![0];
/** The amount of a row's balance cell ("Operating ACTIVE 431454.28 USD"), in cents. */
const centsIn = (row: string) => Math.round(Number(/([\d.]+) USD/.exec(row)?.[1]) * 100);
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** The built app, as any static host would serve it. */
function serve(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://app').pathname;
    const file = join(dir, path === '/' ? 'index.html' : path);
    stat(file).then(
      () => {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        createReadStream(file).pipe(res);
      },
      () => {
        res.writeHead(404);
        res.end();
      },
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}

describe('the example web client in Chromium', () => {
  let kit: Kit;
  let app: { server: Server; origin: string };
  let out: string;
  let browser: Browser;
  let page: Page;
  const upgrades: Duplex[] = [];
  const subscribeFrames: string[] = [];

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'example-web-'));
    await build({ root: APP, logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
    app = await serve(out);
    kit = await startKit({
      listen: true,
      // As `npm start` runs: the gateway files its own webhook subscriptions, so bank events reach it.
      reconcileWebhooks: true,
      webhooks: { agentCode: 'sandbox-agent', subagentCode: 'sandbox-subagent', companyCode: 'sandbox-company' },
      auth: { mode: 'none', apiKeys: [], jwt: undefined, allowedOrigins: [app.origin] },
      limits: { trustedDocuments: MANIFEST },
    });
    kit.gateway.server.server.on('upgrade', (_request, socket: Duplex) => upgrades.push(socket));
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('websocket', (socket) =>
      socket.on('framesent', (frame) => {
        if (String(frame.payload).includes('"type":"subscribe"')) subscribeFrames.push(String(frame.payload));
      }),
    );
    await page.goto(`${app.origin}/?trusted&gateway=${encodeURIComponent(`${kit.baseUrl}/graphql`)}`);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    app?.server.close();
    await kit?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('shows the demo accounts with their balances', async () => {
    const usd = page.locator('[data-account="acc_demo_usd"]');
    await usd.waitFor({ timeout: 20_000 });
    expect(await usd.innerText()).toMatch(/ACTIVE\s+[\d.]+ USD/);
    expect(await page.locator('[data-account]').count()).toBe(5);
  });

  it('shows the new balance of a deposit at the bank within 3 s, live', async () => {
    const usd = page.locator('[data-account="acc_demo_usd"]');
    const before = centsIn(await usd.innerText({ timeout: 5_000 }));
    expect(before).toBeGreaterThan(0);
    // The live query is open (its subscribe frame went out) before the bank moves.
    expect(subscribeFrames.some((frame) => frame.includes(documentIdOf('AccountsScreen')))).toBe(true);
    await kit.control('POST', 'deposits', { currency: 'USD', amount: 1250, payer_name: 'Globex' });
    await expect
      .poll(async () => centsIn(await usd.innerText({ timeout: 1_000 })), { timeout: 3_000, interval: 50 })
      .toBe(before + 125_000);
  });

  it('shows a card frozen at the bank by another user within 3 s, live', async () => {
    const badge = page.locator('[data-card="crd_demo_ava_v"] .badge');
    await expect.poll(() => badge.innerText(), { timeout: 20_000 }).toBe('ACTIVE');
    const bank = await apiClient(kit.sandbox);
    const changed = await bank.send('PATCH', CARD_PATH, {
      query: { id: 'crd_demo_ava_v' },
      body: { card_status: 'INACTIVE', updated_by: 'Jordan Miles' },
    });
    expect(changed.status).toBe(200);
    const started = Date.now();
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 3_000, interval: 50 }).toBe('INACTIVE');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('shows after a dropped connection what changed while it was away', async () => {
    const badge = page.locator('[data-card="crd_demo_ava_v"] .badge');
    expect(await badge.getAttribute('data-status')).toBe('INACTIVE');
    // The connection drops (no close frame); while the page is away, the card is activated again.
    for (const socket of upgrades.splice(0)) socket.destroy();
    const bank = await apiClient(kit.sandbox);
    const changed = await bank.send('PATCH', CARD_PATH, {
      query: { id: 'crd_demo_ava_v' },
      body: { card_status: 'ACTIVE', updated_by: 'Jordan Miles' },
    });
    expect(changed.status).toBe(200);
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 15_000, interval: 100 }).toBe('ACTIVE');
    // graphql-ws connected again and sent the live card list again, by its id: its first result is the card as it is now.
    const cardLists = subscribeFrames
      .map((frame) => JSON.parse(frame) as { payload: { query: string } })
      .filter((frame) => frame.payload.query === documentIdOf('CardsScreen'));
    expect(cardLists.length).toBeGreaterThanOrEqual(2);
  });

  it('shows a payout with a bad amount its error next to the amount field', async () => {
    await page.locator('select[name="beneficiary"] option').first().waitFor({ state: 'attached', timeout: 20_000 });
    await page.fill('input[name="sourceAmount"]', '0');
    await page.click('button[type="submit"]');
    const error = page.locator('.field-error[data-field="sourceAmount"]');
    await error.waitFor({ timeout: 10_000 });
    expect((await error.innerText()).trim().length).toBeGreaterThan(3);
    // Nothing reached the bank's payout endpoint.
    expect(kit.calls('/svc/api/v1/transfer/payout', 'POST')).toEqual([]);
  });

  it('shows an amount that is not a number ("abc") as an error of the amount field, not of the form', async () => {
    await page.fill('input[name="sourceAmount"]', 'abc');
    await page.click('button[type="submit"]');
    const error = page.locator('.field-error[data-field="sourceAmount"]');
    await expect.poll(() => error.innerText(), { timeout: 10_000 }).toMatch(/Decimal/);
    expect(await page.locator('input[name="sourceAmount"]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    expect(kit.calls('/svc/api/v1/transfer/quote', 'POST')).toEqual([]);
  });

  it('sends a payout whose answer is lost once: "Retry safely" sends the same one with the same key, and the bank holds one', async () => {
    const payouts = '/svc/api/v1/transfer/payout';
    await kit.control('POST', 'faults', { kind: 'lose', method: 'POST', path: payouts });
    const reference = `Invoice web-${Date.now()}`;
    await page.selectOption('select[name="beneficiary"]', 'ben_demo_de');
    await page.fill('input[name="sourceAmount"]', '250');
    await page.fill('input[name="reference"]', reference);
    await page.click('button[type="submit"]');
    const pending = page.locator('[data-pending-key]');
    await pending.waitFor({ timeout: 10_000 });
    expect(await pending.innerText()).toContain('may have made it');
    expect(await page.locator('button[type="submit"]').innerText()).toBe('Retry safely');
    // The payout is locked while its answer is not definite.
    expect(await page.locator('input[name="sourceAmount"]').isDisabled()).toBe(true);
    const key = await pending.getAttribute('data-pending-key');

    await page.click('button[type="submit"]');
    const done = page.locator('[role="status"]');
    await done.waitFor({ timeout: 10_000 });
    expect(await done.innerText()).toMatch(/^Payout pay_/);
    expect([...kit.sandbox.store.payouts.values()].filter((payout) => payout.reference === reference)).toHaveLength(1);
    // Both sends carried the key made when "send" was first pressed; the bank replayed the first.
    expect(
      kit
        .calls(payouts, 'POST')
        .slice(-2)
        .map((call) => [call.status, call.requestId]),
    ).toEqual([
      [null, key],
      [200, key],
    ]);
    expect(await page.locator('button[type="submit"]').innerText()).toBe('Send payout');
  }, 60_000);
});
