import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

/**
 * The headless Chromium of the browser tests. `CHROMIUM_PATH` (or `CHROME_PATH`) picks a browser
 * of your own; otherwise the one inside the `@sparticuz/chromium` devDependency, unpacked to the
 * temp directory on first use, so `npm ci && npm test` needs no apt step and no download beyond
 * the npm registry.
 */
export async function launchChromium(): Promise<Browser> {
  const own = ownChromium();
  if (own !== undefined) return chromium.launch({ executablePath: own, args: ['--no-sandbox', '--disable-gpu', ...QUIET] });
  return chromium.launch({ executablePath: await chromiumPath(), args: [...sparticuz.args, ...QUIET] });
}

const ownChromium = () => {
  const own = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH;
  return own === undefined || own === '' ? undefined : own;
};

/** The Chromium to launch: one's own, or @sparticuz/chromium's, unpacked if it was not (test/helpers/browser.global-setup.ts does it first). */
export async function chromiumPath(): Promise<string> {
  return ownChromium() ?? (await sparticuz.executablePath());
}

// Nothing reaches off the machine on its own: no component updates, sync or QUIC probes.
const QUIET = ['--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
