import { createLogger } from '../../src/platform/logger.ts';

/** What an operator sees of a gateway under test: its log lines and its metrics. */

/** The gateway's log, as lines: what the operator would see. */
export function capturingLogger() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines, messages: (pattern: RegExp) => lines.filter((l) => pattern.test(l.msg)) };
}

/** One sample of a metric on the listening gateway's /metrics (the first series of that name); NaN if absent. */
export async function metric(target: { baseUrl: string | undefined }, name: string): Promise<number> {
  const text = await (await fetch(`${target.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').at(-1)) : Number.NaN;
}
