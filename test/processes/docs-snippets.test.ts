import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import { loadConfig } from '../../src/settings/index.ts';
import { JWT_AUDIENCE, JWT_ISSUER, startJwks, type Jwks } from '../helpers/jwks.ts';
import { startKit, useKit, type Kit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';

/**
 * Every fenced code block of README.md and docs/*.md runs as written, or says in the doc why it
 * cannot: `<!-- not run: <reason> -->` on the line just before its fence, so a reader of the raw
 * markdown sees what the test sees. Blocks run against real gateways started with the kit, configured
 * as the text around them says; the only rewriting is the address (`localhost:4000` is the kit's
 * gateway, `localhost:4010` its sandbox). A variable a block needs comes from the text right before
 * it (`API_KEY`, `GATEWAY_DIR`), and the test supplies exactly those.
 *
 * - `sh`: bash with `set -euo pipefail`, one command after another (a failing one fails the block);
 *   `#` lines after a command are what it prints (`...` stands for anything), and are checked.
 * - `js`: a file run by Node in a directory inside the repository (so its imports resolve); a
 *   subscription gets its event made to happen at the sandbox, must print it, and is then stopped.
 * - `graphql`: executed, and must answer data without errors.
 * - `json` under `<!-- example: <label> -->` (docs/permissions.md): compared with the gateway's answer.
 * - docs/frontend.md's "A client in its own repository": the whole recipe, files written out under
 *   the names its text gives them, type-checked under both module resolutions it names.
 *
 * docs/permissions.md's examples and docs/frontend.md's reconnect example had test files of their
 * own; they run here, once.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

interface Block {
  /** README.md or docs/<name>.md */
  file: string;
  /** The opening fence's line, from 1. */
  line: number;
  /** The info string's language ('' for none). */
  info: string;
  code: string;
  /** Why it is not run, from `<!-- not run: <reason> -->` just before the fence ('' for a marker without a reason). */
  notRun?: string;
  /** `<!-- example: <label> -->` just before the fence: an answer the test compares with the gateway's. */
  example?: string;
  /** The heading it is under. */
  section: string;
  /** The prose since the previous block or heading: what a reader has been told before running it. */
  before: string;
}

function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  let section = '';
  let prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
    if (!open) {
      if (/^#{1,6} /.test(line)) {
        section = line.replace(/^#+ /, '').trim();
        prose = [];
      } else prose.push(line);
      continue;
    }
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const closing = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`);
    const code: string[] = [];
    let end = i + 1;
    // A block nested in a list item is indented with it: the code is what follows that indent.
    for (; end < lines.length && !closing.test(lines[end]!); end++)
      code.push(lines[end]!.replace(new RegExp(`^ {0,${indent.length}}`), ''));
    const previous = lines[i - 1]?.trim() ?? '';
    blocks.push({
      file,
      line: i + 1,
      info,
      code: code.join('\n'),
      notRun: /^<!--\s*not run\b:?\s*(.*?)\s*-->$/.exec(previous)?.[1],
      example: /^<!--\s*example:\s*(.+?)\s*-->$/.exec(previous)?.[1],
      section,
      before: prose.filter((text) => !/^\s*<!--.*-->\s*$/.test(text)).join('\n'),
    });
    prose = [];
    i = end;
  }
  return blocks;
}

const BLOCKS = DOCS.flatMap(blocksOf);
const nameOf = (block: Block) => `${block.file}:${block.line} ${block.info || '(no language)'}`;

/** docs/frontend.md's recipe: its blocks run together, in order, as one client project. */
const RECIPE = { file: 'docs/frontend.md', section: 'A client in its own repository' };
const inRecipe = (block: Block) => block.file === RECIPE.file && block.section === RECIPE.section;

/** The JSON under `<!-- example: <label> -->`, by doc: answers and records the test compares with real ones, and the claims that get them. */
const EXAMPLES: Record<string, string[]> = {
  'docs/permissions.md': [
    'forbidden mutation',
    'forbidden field',
    'treasurer claims',
    'treasurer me',
    'cardholder claims',
    'cardholder me',
  ],
  'docs/operations.md': ['audit record'],
};

// ---------------------------------------------------------------------------------------------
// Running a block
// ---------------------------------------------------------------------------------------------

/**
 * The environment a reader's shell would have: Node 24 first on PATH (the project pins it; the
 * machine's own may be older), and nothing of the test runner's: no npm_* variables of the `npx`
 * that started vitest (npm_config_local_prefix would send `npm init` to the gateway's package.json),
 * no variable a block reads unless the text before it says to set it.
 */
function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|VITEST|NODE$|NODE_ENV$|NODE_OPTIONS$|TEST$|GATEWAY_|API_KEY$)/.test(name)) env[name] = value;
  }
  return { ...env, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter), ...extra };
}

/** What the text right before a block tells the reader to set, and what the test sets it to. */
const SUPPLIED: Record<string, () => string> = {
  GATEWAY_DIR: () => ROOT,
  API_KEY: () => dashboardKey(),
};
function suppliedFor(block: Block): Record<string, string> {
  return Object.fromEntries(
    Object.entries(SUPPLIED)
      .filter(([name]) => block.before.includes(`\`${name}\``) || block.before.includes(`${name}=`))
      .map(([name, value]) => [name, value()]),
  );
}

/** The one rewriting allowed: the addresses of `npm start`'s gateway and sandbox become the kit's. */
function addressed(code: string, kit: Kit): string {
  return code.replaceAll('localhost:4000', new URL(kit.baseUrl!).host).replaceAll('localhost:4010', new URL(kit.sandbox.url).host);
}

interface Command {
  text: string;
  /** The `#` lines after it: what it prints, `...` for anything. */
  expected: string[];
}

function commandsOf(code: string): Command[] {
  const commands: Command[] = [];
  const lines = code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (/^\s*#/.test(line)) {
      commands.at(-1)?.expected.push(line.replace(/^\s*# ?/, '').trimEnd());
      continue;
    }
    let text = line;
    while (text.endsWith('\\') && i + 1 < lines.length) text += `\n${lines[++i]}`;
    commands.push({ text, expected: [] });
  }
  return commands;
}

/** Whether `output` holds the expected lines, one after another. */
function prints(output: string, expected: string[]): boolean {
  if (expected.length === 0) return true;
  const lines = output.split('\n').map((line) => line.trimEnd());
  const patterns = expected.map(
    (line) =>
      new RegExp(
        `^${line
          .split(/\s*\.\.\.\s*/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
  return lines.some((_, start) => patterns.every((pattern, k) => pattern.test(lines[start + k] ?? '')));
}

interface Ran extends Command {
  output: string;
}

function collect(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    // Its own process group, so a timeout stops what it started (a curl -N) too.
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      stderr += `\n(stopped after ${options.timeoutMs} ms)`;
      process.kill(-child.pid!, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * Runs a sh block's commands with bash, in one shell (a variable set by one is there for the next),
 * with `set -euo pipefail`: the first command that fails stops it, and the block fails naming it.
 * A separator printed before each command tells their outputs apart.
 */
async function runSh(
  code: string,
  options: { cwd: string; env?: Record<string, string>; skip?: (command: string) => boolean; timeoutMs?: number },
): Promise<Ran[]> {
  const commands = commandsOf(code).filter((command) => !options.skip?.(command.text));
  const mark = (n: number) => `printf '\\n\\036%d\\n' ${n}`;
  const script = ['set -euo pipefail', ...commands.flatMap((command, n) => [mark(n), command.text]), mark(commands.length)].join('\n');
  const { status, stdout, stderr } = await collect('bash', ['-c', script], {
    cwd: options.cwd,
    env: shellEnv(options.env),
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  // Split at the marks: a line of the record separator (0x1e, the mark's \036, which no command prints) and the command's number.
  const parts = stdout.split(new RegExp(`\\n${String.fromCharCode(0x1e)}(\\d+)\\n`));
  const outputs: string[] = [];
  for (let k = 1; k < parts.length; k += 2) outputs[Number(parts[k])] = parts[k + 1] ?? '';
  if (status !== 0) {
    const failed = commands[outputs.length - 1]?.text ?? '(before the first command)';
    throw new Error(`\`${failed}\` failed with exit status ${status}\n${stderr}\nprinted: ${outputs.at(-1) ?? ''}`);
  }
  return commands.map((command, n) => ({ ...command, output: outputs[n] ?? '' }));
}

/** Every command printed what the `#` lines after it say. */
function expectPrinted(ran: Ran[]): void {
  for (const command of ran) {
    expect(
      prints(command.output, command.expected),
      `\`${command.text}\` printed:\n${command.output}\nwhere the doc says:\n${command.expected.join('\n')}`,
    ).toBe(true);
  }
}

/** A Node program that runs until it ends or is stopped: its output so far, and how to stop it. */
function runNode(path: string) {
  const child = spawn(process.execPath, [path], { cwd: dirname(path), env: shellEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // A subscription runs forever: stopped after a while if the test did not stop it first.
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return {
    lines: () => stdout.split('\n').filter((line) => line !== ''),
    stderr: () => stderr,
    async stop() {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

let scratch: string | undefined;
/** A directory inside the repository (its node_modules resolve from there), removed after the file. */
function scratchDir(): string {
  scratch ??= mkdtempSync(join(ROOT, '.docs-snippets-'));
  return scratch;
}
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A js block as a file of its own, with its address rewritten. */
function writeBlock(block: Block, code: string): string {
  const path = join(scratchDir(), `${basename(block.file, '.md')}-${block.line}.${block.info}`);
  writeFileSync(path, code);
  return path;
}

// ---------------------------------------------------------------------------------------------
// Making events happen
// ---------------------------------------------------------------------------------------------

const CARD = 'crd_demo_ava_v';

let lastMoveAt = 0;
/**
 * The bank moves the demo card, through the sandbox's control API (docs/sandbox.md), and delivers
 * the event to the gateway as it would. At least a second after the last move on the sandbox clock:
 * an occurrence is its name, id and whole-second `created_at`, so a transition repeated within one
 * second would be taken for a retry (docs/frontend.md, "Event identity"), and the gateway remembers
 * occurrences across the sandbox resets between tests (which set the clock back).
 */
async function moveCard(kit: Kit, status: 'ACTIVE' | 'INACTIVE'): Promise<void> {
  await pastLastMove(kit);
  expect(await kit.control('POST', `cards/${CARD}/status`, { status })).toMatchObject({ status, changed: true });
  lastMoveAt = kit.sandbox.clock.now().getTime();
}

/** The sandbox clock a second past the last move, so the next event is not taken for a retry of one before a reset. */
async function pastLastMove(kit: Kit): Promise<void> {
  await kit.control('POST', 'clock/advance', { ms: Math.max(1_000, Math.ceil(lastMoveAt + 1_000 - kit.sandbox.clock.now().getTime())) });
}

/** An incoming USD deposit, as docs/sandbox.md's control API makes one, as news to the gateway. */
async function deposit(kit: Kit): Promise<void> {
  await pastLastMove(kit);
  await kit.control('POST', 'deposits', { currency: 'USD', amount: 1250, payer_name: 'Globex' });
  lastMoveAt = kit.sandbox.clock.now().getTime();
}

/** Card events the gateway took (202) from the sandbox so far. */
const cardEventsTaken = (kit: Kit) =>
  kit.sandbox.deliveries().filter((d) => d.eventName.startsWith('issuing.card.') && d.status === 202).length;

async function cardShown(kit: Kit): Promise<{ maskedNumber: string; cardholder: { email: string } }> {
  const result = (await kit.execute(parse(`{ card(id: "${CARD}") { maskedNumber cardholder { email } } }`))) as {
    data: { card: { maskedNumber: string; cardholder: { email: string } } };
  };
  return result.data.card;
}

/** A TCP proxy to the gateway whose open connections can be cut, as a tunnel or a lift would. */
async function cuttableProxy(port: number) {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as { port: number }).port}`,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// ---------------------------------------------------------------------------------------------
// What each kind of block is checked against
// ---------------------------------------------------------------------------------------------

/**
 * sh blocks whose doc says what they print in prose rather than in `#` lines: what to assert.
 * Every other run sh block must have `#` lines to check.
 */
const SH_CHECKS: { name: string; matches: (block: Block) => boolean; check: (ran: Ran[]) => void }[] = [
  {
    // README: "the cards come after the one list call and each card's balance and cardholder follow".
    name: 'the cards first, then each card\u2019s deferred balance and cardholder',
    matches: (block) => block.code.includes('accept: multipart/mixed') && block.code.includes('@defer'),
    check: ([ran]) => {
      const parts = [...ran!.output.matchAll(/^\{.*\}$/gm)].map(([json]) => JSON.parse(json));
      const [initial, ...rest] = parts;
      const cards = initial.data.cards.nodes as { maskedNumber: string; status: string }[];
      expect(cards.length).toBeGreaterThan(0);
      for (const card of cards)
        expect(card).toMatchObject({ maskedNumber: expect.stringMatching(/^\d{6}\*{6}\d{4}$/), status: expect.any(String) });
      expect(initial.hasNext).toBe(true);
      const deferred = rest.flatMap((part) => part.incremental ?? []);
      expect(deferred.map((item: { path: number[] }) => item.path.at(-1)!).sort((a: number, b: number) => a - b)).toEqual(
        cards.map((_, index) => index),
      );
      for (const item of deferred)
        expect(item.data).toMatchObject({
          availableBalance: { amount: expect.stringMatching(/^-?\d+(\.\d+)?$/) },
          cardholder: { email: expect.stringContaining('@') },
        });
      expect(parts.at(-1).hasNext).toBe(false);
    },
  },
];

const shPlan = (block: Block) =>
  SH_CHECKS.some((check) => check.matches(block)) || commandsOf(block.code).some((command) => command.expected.length > 0)
    ? 'run with bash'
    : undefined;

/** js blocks: each one's event, and what it must print. */
const NODE_CHECKS: { name: string; matches: (block: Block) => boolean; run: (kit: Kit, block: Block) => Promise<void> }[] = [
  {
    name: 'prints the price of an operation in bank calls, read by urql and by an Apollo Client link',
    matches: (block) => block.code.includes("'x-bank-cost': 'true'"),
    run: async (kit, block) => {
      const running = runNode(writeBlock(block, addressed(block.code, kit)));
      try {
        await expect.poll(() => running.lines().length, { timeout: 15_000 }).toBe(2);
      } catch (error) {
        throw new Error(`${String(error)}; stderr: ${running.stderr()}`, { cause: error });
      } finally {
        await running.stop();
      }
      // The second read of the balances is the record cache's: estimated, not made.
      expect(running.lines()).toEqual(['urql 1 1', 'apollo 1 0']);
      expect(running.stderr()).toBe('');
    },
  },
  {
    name: 'sends one payout though the bank\u2019s first answer is lost, by retrying with the same key',
    matches: (block) => block.code.includes('sendPayout') && block.code.includes('OutcomeUnknown'),
    run: async (kit, block) => {
      const path = '/svc/api/v1/transfer/payout';
      await kit.control('POST', 'faults', { kind: 'lose', method: 'POST', path });
      const posted = kit.calls(path, 'POST').length;
      const running = runNode(writeBlock(block, addressed(block.code, kit)));
      try {
        await expect.poll(() => running.lines().length, { timeout: 15_000 }).toBe(1);
      } finally {
        await running.stop();
      }
      const made = [...kit.sandbox.store.payouts.values()].filter((payout) => payout.reference === 'Invoice 115');
      expect(made).toHaveLength(1);
      expect(running.lines()).toEqual([`PayoutCreateSuccess ${made[0]!.id}`]);
      expect(running.stderr()).toBe('');
      // The lost one and its retry, under one key: the bank applied the first and replayed it.
      const sent = kit.calls(path, 'POST').slice(posted);
      expect(sent.map((call) => call.status)).toEqual([null, 200]);
      expect(new Set(sent.map((call) => call.requestId)).size).toBe(1);
    },
  },
  {
    name: 'resumes after a dropped connection with the events missed meanwhile, in order, once each',
    matches: (block) => block.code.includes('lastCursor') && block.code.includes('cardStatusChanged'),
    run: async (kit, block) => {
      // The proxy stands at the gateway's address so the test can cut the client's connection.
      const proxy = await cuttableProxy(Number(new URL(kit.baseUrl!).port));
      const before = kit.gateway.events.activeSubscriptions();
      const taken = cardEventsTaken(kit);
      const running = runNode(writeBlock(block, block.code.replaceAll('localhost:4000', proxy.host)));
      try {
        await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before + 1);
        await moveCard(kit, 'INACTIVE');
        await expect.poll(() => running.lines().length).toBe(1);

        proxy.cut();
        await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before);
        await moveCard(kit, 'ACTIVE');
        await moveCard(kit, 'INACTIVE');
        // Taken by the gateway while the client is away (it comes back a second after the cut).
        await expect.poll(() => cardEventsTaken(kit)).toBe(taken + 3);

        await expect.poll(() => running.lines().length).toBe(3);
        await moveCard(kit, 'ACTIVE');
        await expect.poll(() => running.lines().length).toBe(4);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const { maskedNumber } = await cardShown(kit);
        expect(running.lines()).toEqual(['INACTIVE', 'ACTIVE', 'INACTIVE', 'ACTIVE'].map((status) => `${maskedNumber} ${status}`));
        expect(running.stderr()).toBe('');
      } finally {
        await running.stop();
        await proxy.close();
      }
      await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before);
    },
  },
  {
    name: 'prints the card\u2019s status change as it happens',
    matches: (block) =>
      block.code.includes("from 'graphql-ws'") && block.code.includes('cardStatusChanged(cardId:') && !block.code.includes('lastCursor'),
    run: async (kit, block) => {
      const before = kit.gateway.events.activeSubscriptions();
      const running = runNode(writeBlock(block, addressed(block.code, kit)));
      try {
        await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before + 1);
        await moveCard(kit, 'INACTIVE');
        await expect.poll(() => running.lines().length).toBe(1);
        expect(JSON.parse(running.lines()[0]!)).toEqual({ cardStatusChanged: { status: 'INACTIVE', card: await cardShown(kit) } });
        expect(running.stderr()).toBe('');
      } finally {
        await running.stop();
      }
      await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before);
    },
  },
  {
    name: 'prints each update of a deposit as it arrives, over server-sent events',
    matches: (block) => block.code.includes("accept: 'text/event-stream'") && block.code.includes('depositUpdated'),
    run: async (kit, block) => {
      const before = kit.gateway.events.activeSubscriptions();
      const running = runNode(writeBlock(block, addressed(block.code, kit)));
      try {
        await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before + 1);
        await deposit(kit);
        await expect.poll(() => running.lines().some((line) => line.includes('"SETTLED"'))).toBe(true);
        const label = ((await kit.execute(parse('{ account(id: "acc_demo_usd") { label } }'))) as { data: { account: { label: string } } })
          .data.account.label;
        const updates = running.lines().map((line) => JSON.parse(line) as { data: { depositUpdated: { status: string } } });
        for (const update of updates)
          expect(update).toEqual({
            data: { depositUpdated: { status: expect.any(String), amount: { amount: '1250', currency: 'USD' }, account: { label } } },
          });
        expect(updates[0]!.data.depositUpdated.status).toBe('NEW');
        expect(running.stderr()).toBe('');
      } finally {
        await running.stop();
      }
      await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before);
    },
  },
  {
    name: 'paints the cards, then each card\u2019s deferred fragment (@defer on a spread, with Apollo Client)',
    matches: (block) => block.code.includes('...CardDetails @defer') && block.code.includes('Defer20220824Handler'),
    run: async (kit, block) => {
      const running = runNode(writeBlock(block, addressed(block.code, kit)));
      try {
        await expect.poll(() => running.lines().length, { timeout: 15_000 }).toBe(2);
      } finally {
        await running.stop();
      }
      const { data } = (await kit.execute(parse('{ cards(first: 10) { nodes { maskedNumber cardholder { email } } } }'))) as {
        data: { cards: { nodes: { maskedNumber: string; cardholder: { email: string } }[] } };
      };
      const [card] = data.cards.nodes;
      expect(running.lines()).toEqual([
        `streaming ${card!.maskedNumber} (later)`,
        `complete ${card!.maskedNumber} ${card!.cardholder.email}`,
      ]);
      expect(running.stderr()).toBe('');
    },
  },
  {
    name: 'prints the USD balance of a live dashboard, then the new one after a deposit',
    matches: (block) => block.code.includes('query Dashboard @live') && block.code.includes("console.log('USD'"),
    run: async (kit, block) => {
      const cents = (line: string | undefined) => Math.round(Number(/^USD (-?\d+(?:\.\d+)?)$/.exec(line ?? '')?.[1]) * 100);
      const running = runNode(writeBlock(block, addressed(block.code, kit)));
      try {
        await expect.poll(() => running.lines().length, { timeout: 15_000 }).toBe(1);
        const { data } = (await kit.execute(parse('{ balances { currency available { amount } } }'))) as {
          data: { balances: { currency: string; available: { amount: string } }[] };
        };
        const before = data.balances.find((balance) => balance.currency === 'USD')!.available.amount;
        expect(running.lines()).toEqual([`USD ${before}`]);
        expect(kit.gateway.live.stats().open).toBe(1);
        // The bank's events of an incoming deposit re-run the query.
        await deposit(kit);
        await expect.poll(() => running.lines().length, { timeout: 10_000 }).toBe(2);
        expect(cents(running.lines()[1])).toBe(cents(`USD ${before}`) + 125_000);
        expect(running.stderr()).toBe('');
      } finally {
        await running.stop();
      }
      // The client left: the gateway holds nothing of it.
      await expect.poll(() => kit.gateway.live.stats().open).toBe(0);
    },
  },
];

/** How a block is run, or why it is not; undefined: neither, which fails the test. */
function planOf(block: Block): string | undefined {
  if (block.notRun !== undefined) return block.notRun ? `not run: ${block.notRun}` : undefined;
  if (inRecipe(block)) return 'the recipe';
  if (block.info === 'graphql') return 'executed';
  if (block.info === 'json' && block.example !== undefined)
    return EXAMPLES[block.file]?.includes(block.example) ? 'compared with a real one' : undefined;
  if (block.info === 'sh') return shPlan(block);
  if (block.info === 'js') return NODE_CHECKS.some((check) => check.matches(block)) ? 'run with node' : undefined;
  return undefined;
}

const run = (kind: string) => BLOCKS.filter((block) => planOf(block) === kind);

// ---------------------------------------------------------------------------------------------

describe('every code block in the docs', () => {
  it('is run, or marked in the doc with why not', () => {
    expect(BLOCKS.length).toBeGreaterThan(30);
    expect(BLOCKS.filter((block) => block.notRun === '').map(nameOf), 'a `<!-- not run -->` marker without a reason').toEqual([]);
    expect(
      BLOCKS.filter((block) => block.notRun === undefined && planOf(block) === undefined).map(nameOf),
      'neither run nor marked `<!-- not run: <reason> -->`',
    ).toEqual([]);
    expect(BLOCKS.filter((block) => inRecipe(block) && block.notRun !== undefined).map(nameOf), 'the recipe runs as a whole').toEqual([]);
    // A marker anywhere but on the line just before a fence marks nothing.
    for (const file of DOCS) {
      const markers = readFileSync(join(ROOT, file), 'utf8').match(/<!--\s*not run\b/g)?.length ?? 0;
      expect(
        BLOCKS.filter((block) => block.file === file && block.notRun !== undefined).length,
        `${file}: a not-run marker away from a fence`,
      ).toBe(markers);
    }
    // Most blocks run; the markers are the exceptions.
    expect(BLOCKS.filter((block) => block.notRun === undefined).length).toBeGreaterThan(BLOCKS.length / 2);
  });

  it('shows JSON that parses, output or not', () => {
    const broken = BLOCKS.filter((block) => block.info === 'json').flatMap((block) => {
      try {
        JSON.parse(block.code);
        return [];
      } catch (error) {
        return [`${nameOf(block)}: ${(error as Error).message}`];
      }
    });
    expect(broken).toEqual([]);
  });
});

// As `npm start` runs: the embedded sandbox's webhook codes, the gateway's own subscriptions filed
// (so the sandbox's events reach it), the record cache on, anyone may do anything.
const kit = useKit({
  listen: true,
  reconcileWebhooks: true,
  cache: true,
  webhooks: { agentCode: 'sandbox-agent', subagentCode: 'sandbox-subagent', companyCode: 'sandbox-company' },
});

describe('against the gateway of npm start', () => {
  it.each(run('executed').map((block) => [nameOf(block), block] as const))('%s: answers data without errors', async (_name, block) => {
    const result = await kit.execute(parse(block.code));
    expect(result.errors).toBeUndefined();
    expect(Object.values(result.data ?? {}).length).toBeGreaterThan(0);
    for (const value of Object.values(result.data!)) expect(value).not.toBeNull();
  });

  const sh = run('run with bash').filter((block) => block.file !== 'docs/permissions.md');
  it.each(sh.map((block) => [nameOf(block), block] as const))('%s: runs and prints what the doc says', async (_name, block) => {
    const ran = await runSh(addressed(block.code, kit), { cwd: ROOT, env: suppliedFor(block) });
    expectPrinted(ran);
    for (const check of SH_CHECKS.filter((c) => c.matches(block))) check.check(ran);
  });

  const js = run('run with node').map((block) => [nameOf(block), NODE_CHECKS.find((check) => check.matches(block))!.name, block] as const);
  it.each(js)('%s: %s', async (_name, _check, block) => {
    await NODE_CHECKS.find((check) => check.matches(block))!.run(kit, block);
  });
});

describe("docs/frontend.md's client in its own repository", () => {
  /**
   * The recipe from `npm init` to the script's output, in a directory of its own. Its two `npm
   * install` lines need the registry: `npm install --offline` fails here (ENOTCACHED: the npm cache
   * holds none of these packages), so the gateway's own node_modules, which hold every package they
   * list, stand in for them (linked, as an install would put them).
   */
  it('generates, type-checks under nodenext and bundler, and prints one line per balance', async () => {
    const blocks = BLOCKS.filter(inRecipe);
    const project = join(scratchDir(), 'client');
    mkdirSync(project);
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    const [setup, build] = blocks.filter((block) => block.info === 'sh');
    expect(blocks.filter((block) => block.info === 'sh')).toHaveLength(2);

    const installs = (command: string) => /^npm (install|i)\b/.test(command);
    expect(commandsOf(setup!.code).filter((command) => installs(command.text))).toHaveLength(2);
    expectPrinted(await runSh(addressed(setup!.code, kit), { cwd: project, env: suppliedFor(setup!), skip: installs }));
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).toMatchObject({ name: 'client', type: 'module' });

    // Each file under the name the text right before it gives: "`codegen.ts`:".
    const files = blocks.filter((block) => block.info !== 'sh');
    for (const block of files) {
      const name = /^`([\w./-]+)`[^`]*(`[^`]*`[^`]*)*:\s*$/.exec(block.before.trim())?.[1];
      expect(name, `${nameOf(block)}: the text before it names no file`).toBeDefined();
      mkdirSync(dirname(join(project, name!)), { recursive: true });
      writeFileSync(join(project, name!), addressed(block.code, kit));
    }
    expect(files.map((block) => /^`([^`]+)`/.exec(block.before.trim())?.[1])).toEqual(['codegen.ts', 'tsconfig.json', 'src/balances.ts']);

    const ran = await runSh(build!.code, { cwd: project, env: suppliedFor(build!), timeoutMs: 60_000 });
    expectPrinted(ran);
    // "writes src/gql/ and src/gql/persisted-documents.json": the manifest holds the script's query.
    const manifest = JSON.parse(readFileSync(join(project, 'src/gql/persisted-documents.json'), 'utf8')) as Record<string, string>;
    expect(Object.values(manifest)).toEqual([expect.stringContaining('query Balances')]);
    // "one line per balance, such as: USD 431454.28": the gateway's balances, and the example is one.
    const printed = ran
      .find((command) => command.text.startsWith('node '))!
      .output.trim()
      .split('\n');
    const { data } = (await kit.execute(parse('{ balances { currency available { amount } } }'))) as {
      data: { balances: { currency: string; available: { amount: string } }[] };
    };
    expect(printed).toEqual(data.balances.map((balance) => `${balance.currency} ${balance.available.amount}`));
    expect(printed).toContain(/such as: (.+)$/m.exec(build!.code)![1]);

    // The bundler variant, as the text before tsconfig.json gives it; "nothing else changes".
    const tsconfigBlock = files.find((block) => block.info === 'json')!;
    const variant = [...tsconfigBlock.before.matchAll(/`"(module|moduleResolution)": "(\w+)"`/g)].map(
      ([, option, value]) => [option!, value!] as const,
    );
    expect(variant).toEqual([
      ['module', 'preserve'],
      ['moduleResolution', 'bundler'],
    ]);
    const tsconfig = JSON.parse(tsconfigBlock.code) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions).toMatchObject({ module: 'nodenext', moduleResolution: 'nodenext' });
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, ...Object.fromEntries(variant) } }, null, 2),
    );
    const typecheck = commandsOf(build!.code).find((command) => command.text.startsWith('npx tsc'))!;
    await runSh(typecheck.text, { cwd: project, timeoutMs: 60_000 });
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// docs/permissions.md
// ---------------------------------------------------------------------------------------------

let printedKey: string | undefined;
function dashboardKey(): string {
  if (!printedKey) throw new Error('API_KEY is the key docs/permissions.md prints: run its api-key block first');
  return printedKey;
}

/** The JSON block under `<!-- example: <label> -->`. */
function example(file: string, label: string): any {
  const block = BLOCKS.find((b) => b.file === file && b.example === label);
  if (!block) throw new Error(`${file} has no example "${label}"`);
  return JSON.parse(block.code);
}
const permissionsExample = (label: string) => example('docs/permissions.md', label);

describe("in service mode, as docs/permissions.md's worked examples start the gateway", () => {
  const blocks = BLOCKS.filter((block) => block.file === 'docs/permissions.md');
  const sh = blocks.filter((block) => block.info === 'sh' && planOf(block) === 'run with bash');
  const keyBlock = sh.find((block) => block.code.startsWith('npm run api-key'))!;
  const ranOnce = new Map<Block, Promise<Ran[]>>();
  const runOnce = (block: Block) => {
    if (!ranOnce.has(block))
      ranOnce.set(block, runSh(service ? addressed(block.code, service) : block.code, { cwd: ROOT, env: suppliedFor(block) }));
    return ranOnce.get(block)!;
  };
  let service: Kit | undefined;
  let jwks: Jwks | undefined;

  beforeAll(async () => {
    // The key first: the gateway starts with its entry.
    const printed = (await runOnce(keyBlock)).map((command) => command.output).join('\n');
    printedKey = /^\s+(gwk_\S+)$/m.exec(printed)?.[1];
    const entry = /^\s+(dashboard:\S+)$/m.exec(printed)?.[1];
    if (!printedKey || !entry) throw new Error(`npm run api-key printed no key and entry:\n${printed}`);
    registerSecret('the API key docs/permissions.md has printed', printedKey);
    // "Start the gateway with the printed entry": the settings of the block that does, the printed
    // entry in place of its `dashboard:...:viewer`; and, for the JWT examples, "the three `JWT_*`
    // settings" naming the identity provider.
    const start = blocks.find((block) => block.notRun !== undefined && /\bnpm start$/.test(block.code.trim()))!;
    const settings = Object.fromEntries(
      [...start.code.matchAll(/\b([A-Z_]+)=('[^']*'|\S+)/g)].map(([, name, value]) => [name!, value!.replace(/^'|'$/g, '')]),
    );
    expect(Object.keys(settings)).toEqual(['AUTH_MODE', 'GATEWAY_API_KEY_HASHES']);
    jwks = await startJwks();
    const { auth } = loadConfig({ ...settings, GATEWAY_API_KEY_HASHES: entry, JWT_JWKS_URL: jwks.url, JWT_ISSUER, JWT_AUDIENCE });
    service = await startKit({ listen: true, cache: false, auth });
  });
  afterAll(async () => {
    await service?.close();
    await jwks?.close();
    printedKey = undefined;
  });

  it('npm run api-key prints a key and the entry of its hash', async () => {
    const ran = await runOnce(keyBlock);
    expectPrinted(ran);
    expect(ran[0]!.output).toContain(`dashboard:${sha256Hex(dashboardKey())}:viewer`);
  });

  it.each(sh.filter((block) => block !== keyBlock).map((block) => [nameOf(block), block] as const))(
    '%s: runs and prints what the doc says',
    async (_name, block) => {
      expectPrinted(await runOnce(block));
    },
  );

  const bearer = async ({ sub, ...claims }: { sub: string } & Record<string, unknown>) => {
    const token = await jwks!.sign({ subject: sub }, claims);
    registerSecret('a caller JWT', token);
    return { authorization: `Bearer ${token}` };
  };
  const execute = (query: string, headers: Record<string, string>) => service!.execute(parse(query), {}, headers);

  it.each(['treasurer', 'cardholder'])('the %s JWT example: its claims grant what its me answer says', async (who) => {
    const result = (await execute(
      '{ me { kind name roles mutations cardholderUpstreamId } }',
      await bearer(permissionsExample(`${who} claims`)),
    )) as { data: { me: unknown } };
    expect(result.data.me).toEqual(permissionsExample(`${who} me`));
  });

  it('the refusal examples are the gateway\u2019s own answers', async () => {
    const payout = await execute(
      'mutation { payoutCreate(input: {beneficiaryId: "ben_demo_de", quoteId: "quo_demo_payout", sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "1000", destinationCountry: "DE", feeType: OUR, transferMethod: SWIFT, reference: "Invoice 114", sourceOfFunds: "Revenue"}) { __typename ... on Forbidden { permission message } } }',
      { 'x-api-key': dashboardKey() },
    );
    expect(payout).toEqual(permissionsExample('forbidden mutation'));
    const field = await execute('{ me { name } balances { currency } }', await bearer(permissionsExample('cardholder claims')));
    // Locations depend on how the document is laid out; the doc leaves them out.
    const { errors, data } = JSON.parse(JSON.stringify(field)) as { errors: { locations?: unknown }[]; data: unknown };
    expect({ errors: errors.map(({ locations: _, ...error }) => error), data }).toEqual(permissionsExample('forbidden field'));
  });

  it("docs/operations.md's audit record is the one the dashboard key's refused payout leaves", async () => {
    await service!.resetCounts();
    const sent = await execute(
      'mutation SendPayout { payoutCreate(input: {beneficiaryId: "ben_demo_de", quoteId: "quo_demo_payout", sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "1000", destinationCountry: "DE", feeType: OUR, transferMethod: SWIFT, reference: "Invoice 114", sourceOfFunds: "Revenue"}, idempotencyKey: "inv-114") { __typename ... on MutationError { message } } }',
      { 'x-api-key': dashboardKey() },
    );
    expect(sent.data).toMatchObject({ payoutCreate: { __typename: 'Forbidden' } });
    // When it happened and the request's id are its own.
    expect(service!.audit()).toEqual([
      {
        ...example('docs/operations.md', 'audit record'),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
        requestId: expect.any(String),
      },
    ]);
  });

  it('compares every example the docs show', () => {
    const shown = Object.keys(EXAMPLES).map((file) => [
      file,
      BLOCKS.filter((block) => block.file === file && block.example !== undefined)
        .map((block) => block.example)
        .sort(),
    ]);
    expect(shown).toEqual(Object.entries(EXAMPLES).map(([file, labels]) => [file, [...labels].sort()]));
  });
});
