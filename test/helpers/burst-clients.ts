/**
 * Clients that come in a burst and all leave, each on its own connection, from a process of their
 * own as an attacker's (or 200 people's browsers) would: their connections close as that process
 * closes them, not between two turns of the gateway's event loop, so the gateway sees them go one
 * after another while it works. test/processes/aborted-burst.test.ts runs it:
 *
 *   node test/helpers/burst-clients.ts <graphql url> <clients> <request body as JSON>
 *
 * It sends the requests, and on a line `leave` on stdin aborts them all; once every request has
 * settled it prints `{"leftAt": <epoch ms after the last abort>, "answered": <requests answered>}`.
 */
import { createInterface } from 'node:readline';

const [url, count, body] = process.argv.slice(2);
if (!url || !count || !body) throw new Error('usage: node test/helpers/burst-clients.ts <graphql url> <clients> <request body as JSON>');

const clients = Array.from({ length: Number(count) }, () => new AbortController());
const requests = clients.map((client) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: client.signal }).then(
    async (response) => (await response.text(), true),
    () => false,
  ),
);

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'leave') continue;
  for (const client of clients) client.abort();
  const leftAt = Date.now();
  const answered = (await Promise.all(requests.map((request) => request.catch(() => false)))).filter(Boolean).length;
  process.stdout.write(`${JSON.stringify({ leftAt, answered })}\n`);
  break;
}
