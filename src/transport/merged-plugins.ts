import type { Plugin } from 'graphql-yoga';

/**
 * The gateway's own Yoga plugins as one plugin: a hook per phase of a request that runs each plugin's
 * hook of that phase in their order, with what Yoga and envelop give one hook and what they do with
 * its answer.
 *
 * Why: Yoga and envelop make a payload with its setter closures, and a link of promise helpers, for
 * every hook of every plugin they call; the gateway's 26 plugins had 28 such hooks on every query
 * (8 in validation alone), about 0.5-1.3 KB and some microseconds each (heap profiles of the fx
 * screen at 50 concurrent clients, issue 39). Here a phase readies the one payload it is given and
 * calls its hooks in a loop, waiting only on a hook that returns a promise.
 *
 * What is kept from Yoga and envelop, phase by phase:
 * - every hook sees the value its setters last set (the request, the parser, the execute function,
 *   the parameters), as each of envelop's fresh payloads would;
 * - a hook that ends the phase (endResponse, setResultAndStopExecution, breaking nothing else) stops
 *   the hooks after it, here and in the plugins after this one, as envelop's endEarly does;
 * - what each hook returns (the after-hooks: onRequestParseDone, a validation's or a parse's
 *   callback, onExecuteDone with its onNext and onEnd, onSubscribeResult, onSubscribeError) runs
 *   in the same order, with a value another after-hook replaced;
 * - onPluginInit's addPlugin puts the added plugin right after the one that added it (armor adds
 *   its limits so), and onSchemaChange reaches every other merged plugin when one replaces the schema.
 * A hook this does not know (one a later Yoga adds) throws when the gateway is built, not in a request.
 */

type AnyHook = (...args: any[]) => any;
type Payload = Record<string, any>;

/** The phases merged here, and the lifecycle hooks they forward. */
const PHASES = ['onRequest', 'onRequestParse', 'onParams', 'onParse', 'onValidate', 'onExecute', 'onSubscribe', 'onResultProcess', 'onResponse'] as const;
type Phase = (typeof PHASES)[number];
const LIFECYCLE = ['onPluginInit', 'onSchemaChange'] as const;
const KNOWN = new Set<string>([...PHASES, ...LIFECYCLE]);

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';

/** A phase's hooks run on one payload, in order, until one stops it; what they returned, kept. */
class Run {
  stopped = false;
  returned: unknown[] | undefined;

  readonly #hooks: readonly AnyHook[];
  readonly #payload: Payload;

  constructor(hooks: readonly AnyHook[], payload: Payload) {
    this.#hooks = hooks;
    this.#payload = payload;
  }

  /** From hook `from` on: synchronous while the hooks are; waits on a promise one returns. */
  go(from = 0): void | Promise<void> {
    for (let index = from; index < this.#hooks.length; index++) {
      const answer = this.#hooks[index]!(this.#payload);
      if (isPromiseLike(answer)) {
        return Promise.resolve(answer).then((value) => {
          this.keep(value);
          if (!this.stopped) return this.go(index + 1);
        });
      }
      this.keep(answer);
      if (this.stopped) return;
    }
  }

  /** The after-hooks the hooks returned under `key` (onExecuteDone…), in order. */
  afterHooks(key: string): AnyHook[] {
    const found: AnyHook[] = [];
    for (const answer of this.returned ?? []) {
      const hook = (answer as Payload)[key];
      if (typeof hook === 'function') found.push(hook as AnyHook);
    }
    return found;
  }

  private keep(answer: unknown): void {
    if (answer) (this.returned ??= []).push(answer);
  }
}

/** `next()` once `value` settles, at once when it is not a promise. */
function after<R>(value: void | Promise<void>, next: () => R): R | Promise<R> {
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : next();
}

/**
 * Readies `payload` (made by Yoga or envelop for this one call) for all of a phase's hooks: each of
 * `setters` also keeps its field current on it, so a later hook sees what an earlier one set, as in
 * envelop's fresh payload per hook. The payload is changed in place rather than copied: a copy per
 * phase cost more than the hooks it saved.
 */
function tracked(payload: Payload, setters: Readonly<Record<string, string>>): Payload {
  for (const setter in setters) {
    const set = payload[setter] as AnyHook;
    const field = setters[setter]!;
    // All of a setter's arguments pass on: setResultProcessor's second is the media type it answers with.
    payload[setter] = (value: unknown, ...rest: unknown[]) => {
      payload[field] = value;
      return set(value, ...rest);
    };
  }
  return payload;
}

/** `payload`'s `stopper` (endResponse, setResultAndStopExecution) also stops `run`, as envelop's endEarly does. */
function stoppedBy(run: Run, payload: Payload, stopper: string): void {
  const stop = payload[stopper] as AnyHook;
  payload[stopper] = (value: unknown, ...rest: unknown[]) => {
    // endResponse(undefined) takes nothing back and stops nothing, as in @whatwg-node/server.
    if (stopper !== 'endResponse' || value) run.stopped = true;
    return stop(value, ...rest);
  };
}

/** After-hooks run as one, each seeing what an earlier one set through `setters`; their answers' onNext and onEnd merged. */
function mergedAfter(hooks: AnyHook[], setters: Readonly<Record<string, string>>): AnyHook | undefined {
  if (hooks.length <= 1) return hooks[0];
  return (payload: Payload) => {
    const run = new Run(hooks, tracked(payload, setters));
    return after(run.go(), () => streamHooks(run));
  };
}

/** onNext and onEnd from after-hooks' answers, as one. */
function streamHooks(run: Run): { onNext?: AnyHook; onEnd?: () => void } | undefined {
  if (!run.returned) return undefined;
  const onNext = mergedAfter(run.afterHooks('onNext'), { setResult: 'result' });
  const ends = run.afterHooks('onEnd') as (() => void)[];
  if (!onNext && ends.length === 0) return undefined;
  return {
    ...(onNext ? { onNext } : {}),
    ...(ends.length > 0 ? { onEnd: () => ends.forEach((end) => end()) } : {}),
  };
}

/** A phase run on `payload` readied with `setters` and `stoppers`, then `done(run)` once its hooks have run. */
function phase<R>(hooks: readonly AnyHook[], payload: Payload, setters: Readonly<Record<string, string>>, stoppers: readonly string[], done: (run: Run) => R): R | Promise<R> {
  const run = new Run(hooks, tracked(payload, setters));
  for (const stopper of stoppers) stoppedBy(run, payload, stopper);
  const going = run.go();
  return isPromiseLike(going) ? going.then(() => done(run)) : done(run);
}

const nothing = (): undefined => undefined;

type PhaseHooks = Record<Phase, AnyHook[]>;

/** Each phase's merged hook, given the phase's hooks in order (at least two). */
const MERGERS: Record<Phase, (hooks: AnyHook[]) => AnyHook> = {
  onRequest: (hooks) => (payload: Payload) => phase(hooks, payload, { setRequest: 'request', setRequestHandler: 'requestHandler' }, ['endResponse'], nothing),
  onRequestParse: (hooks) => (payload: Payload) =>
    phase(hooks, payload, { setRequestParser: 'requestParser' }, ['endResponse'], (run) => {
      const onRequestParseDone = mergedAfter(run.afterHooks('onRequestParseDone'), { setRequestParserResult: 'requestParserResult' });
      return onRequestParseDone ? { onRequestParseDone } : undefined;
    }),
  onParams: (hooks) => (payload: Payload) => phase(hooks, payload, { setParams: 'params', setParamsHandler: 'paramsHandler' }, [], nothing),
  // Envelop calls these two and their after-hooks synchronously.
  onParse: (hooks) => (payload: Payload) =>
    phase(hooks, payload, { setParseFn: 'parseFn' }, [], (run) => mergedAfter((run.returned ?? []) as AnyHook[], { replaceParseResult: 'result' })),
  onValidate: (hooks) => (payload: Payload) =>
    phase(hooks, payload, { setValidationFn: 'validateFn' }, [], (run) => mergedAfter((run.returned ?? []) as AnyHook[], { setResult: 'result' })),
  onExecute: (hooks) => (payload: Payload) =>
    phase(hooks, payload, { setExecuteFn: 'executeFn' }, ['setResultAndStopExecution'], (run) => {
      const onExecuteDone = mergedAfter(run.afterHooks('onExecuteDone'), { setResult: 'result' });
      return onExecuteDone ? { onExecuteDone } : undefined;
    }),
  onSubscribe: (hooks) => (payload: Payload) =>
    phase(hooks, payload, { setSubscribeFn: 'subscribeFn' }, ['setResultAndStopExecution'], (run) => {
      const onSubscribeResult = mergedAfter(run.afterHooks('onSubscribeResult'), { setResult: 'result' });
      const onSubscribeError = mergedAfter(run.afterHooks('onSubscribeError'), { setError: 'error' });
      if (!onSubscribeResult && !onSubscribeError) return undefined;
      return { ...(onSubscribeResult ? { onSubscribeResult } : {}), ...(onSubscribeError ? { onSubscribeError } : {}) };
    }),
  onResultProcess: (hooks) => (payload: Payload) => phase(hooks, payload, { setResult: 'result', setResultProcessor: 'resultProcessor' }, [], nothing),
  onResponse: (hooks) => (payload: Payload) => phase(hooks, payload, { setResponse: 'response' }, [], nothing),
};

function phaseHooks(plugins: readonly Plugin[]): PhaseHooks {
  const hooks = Object.fromEntries(PHASES.map((phase) => [phase, [] as AnyHook[]])) as PhaseHooks;
  for (const plugin of plugins) {
    for (const phase of PHASES) {
      const hook = (plugin as Record<string, unknown>)[phase];
      // Yoga and envelop call hooks unbound, as taken from the plugin.
      if (typeof hook === 'function') hooks[phase].push(hook as AnyHook);
    }
  }
  return hooks;
}

function refuseUnknownHooks(plugin: Plugin): void {
  for (const key of Reflect.ownKeys(plugin)) {
    if (typeof key === 'symbol' || !KNOWN.has(key)) {
      throw new Error(`mergePlugins: a plugin has "${String(key)}", which it does not merge (only ${[...KNOWN].join(', ')})`);
    }
  }
}

/** Sets `merged`'s phase hooks from `plugins`: one phase's only hook as it is, two or more through its merger. */
function assignPhases(merged: Payload, plugins: readonly Plugin[]): void {
  const hooks = phaseHooks(plugins);
  for (const phase of PHASES) {
    const list = hooks[phase];
    if (list.length === 0) delete merged[phase];
    else merged[phase] = list.length === 1 ? list[0] : MERGERS[phase](list);
  }
}

/** `plugins` (the gateway's own, in order) as one Yoga plugin: see the top of this file. */
export function mergePlugins(plugins: readonly Plugin[]): Plugin {
  const members = [...plugins];
  members.forEach(refuseUnknownHooks);
  const merged: Payload = {};
  assignPhases(merged, members);
  if (members.some((plugin) => plugin.onPluginInit)) {
    // Envelop reads a plugin's hooks after every onPluginInit has run, so the plugins added here are merged as well.
    merged.onPluginInit = (payload: Payload) => {
      for (let index = 0; index < members.length; index++) {
        const added: Plugin[] = [];
        members[index]!.onPluginInit?.({ ...payload, addPlugin: (plugin: Plugin) => added.push(plugin) } as never);
        added.forEach(refuseUnknownHooks);
        members.splice(index + 1, 0, ...added);
      }
      assignPhases(merged, members);
    };
  }
  // Defined where an added plugin may need it too: envelop asks for onSchemaChange when the schema changes.
  if (members.some((plugin) => plugin.onSchemaChange || plugin.onPluginInit)) {
    merged.onSchemaChange = (payload: Payload) => notifySchemaChange(members, payload, -1);
  }
  return merged as Plugin;
}

/** Each merged plugin but `except` hears of the new schema; one that replaces it is heard by the others, as in envelop. */
function notifySchemaChange(members: readonly Plugin[], payload: Payload, except: number): void {
  members.forEach((plugin, index) => {
    if (index === except || !plugin.onSchemaChange) return;
    plugin.onSchemaChange({
      schema: payload.schema,
      replaceSchema: (schema) => {
        payload.replaceSchema(schema);
        notifySchemaChange(members, { ...payload, schema }, index);
      },
    });
  });
}
