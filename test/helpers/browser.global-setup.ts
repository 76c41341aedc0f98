import { chromiumPath } from './browser.ts';

/**
 * Unpacks the browser tests' Chromium once, before any test file runs. The test files run in
 * worker threads side by side, and @sparticuz/chromium unpacks on first use: two files starting at
 * once on a fresh machine both wrote /tmp/chromium, and one launched it while the other was still
 * writing (`spawn ETXTBSY`).
 */
export default async function unpackChromium(): Promise<void> {
  await chromiumPath();
}
