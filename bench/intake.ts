/** `npx node bench/intake.ts`: the webhook intake flood alone, on a sandbox of its own, printed as report/intake.ts renders it. */

import { randomBytes } from 'node:crypto';
import { measureIntakeFlood } from './intake-flood.ts';
import { intakeLines } from './report/intake.ts';
import { readSettings } from './settings.ts';
import { startSandboxProcess, stopSandboxProcess } from './setup.ts';
import { SubscriberClients } from './subscriber-clients.ts';

const webhooks = { apiKey: randomBytes(16).toString('hex'), signingSecret: randomBytes(16).toString('hex') };
const { child, url: sandboxUrl } = await startSandboxProcess(0, webhooks.signingSecret);
const subscribers = await SubscriberClients.start();
try {
  const result = await measureIntakeFlood({ sandboxUrl, webhooks, subscribers }, { subscribers: readSettings().subscribers });
  for (const line of intakeLines(result)) console.log(line);
} finally {
  await subscribers.close();
  await stopSandboxProcess(child);
}
