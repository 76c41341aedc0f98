import type { Plugin } from 'graphql-yoga';

/**
 * The gateway's own Yoga plugins as one plugin: a hook per phase of a request that runs each plugin's
 * hook of that phase in their order, with what Yoga and envelop give one hook and what they do with
 * its answer.
 *
 * Why: Yoga and envelop make a payload with its setter closures, and a link of promise helpers, for
 * every hook of every plugin they call; the gateway's 26 plugins had 28 such hooks on every query
 * (8 in validation alone), about 0.5-1.3 KB and some microseconds each (heap profiles of the fx
 * screen at 50 concurrent clients, issue 39). Here a phase readies the one payload it is given (below,
 * before MERGERS) and calls its hooks in a loop, waiting only on a hook that returns a promise.
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

/**
 * What this file handles without Yoga's and envelop's types, which differ for each phase: a hook's
 * payload (also a plugin, or what a hook returned), read and set by name; a hook, called with its
 * payload; a payload's setter or stopper, called with what the hooks gave it.
 */
type Payload = Record<string, unknown>;
type AnyHook = (payload: Payload) => unknown;
type Setter = (...values: unknown[]) => void;
/** A payload whose `K` are setters. */
type WithSetters<K extends string> = Payload & Record<K, Setter>;
/** What envelop gives onSchemaChange. */
type SchemaChange = Parameters<NonNullable<Plugin['onSchemaChange']>>[0];

/** The phases merged here, and the lifecycle hooks they forward. */
const PHASES = [
  'onRequest',
  'onRequestParse',
  'onParams',
  'onParse',
  'onValidate',
  'onExecute',
  'onSubscribe',
  'onResultProcess',
  'onResponse',
] as const;
type Phase = (typeof PHASES)[number];
const LIFECYCLE = ['onPluginInit', 'onSchemaChange'] as const;
const KNOWN = new Set<string>([...PHASES, ...LIFECYCLE]);

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';

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
          this.#keep(value);
          if (!this.stopped) return this.go(index + 1);
        });
      }
      this.#keep(answer);
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

  #keep(answer: unknown): void {
    if (answer) (this.returned ??= []).push(answer);
  }
}

/** `done(run)` once `run`'s hooks have run: at once when they all answered synchronously. */
function then<R>(run: Run, done: (run: Run) => R): R | Promise<R> {
  const going = run.go();
  return isPromiseLike(going) ? going.then(() => done(run)) : done(run);
}

/*
 * Each phase changes the payload Yoga or envelop made for this one call in place, rather than
 * copying it: its setters also keep their field current on it, so a later hook sees what an earlier
 * one set, as in envelop's fresh payload per hook; its stoppers (endResponse,
 * setResultAndStopExecution) also stop the run, as envelop's endEarly does. The closures of one
 * phase are made in one function, so they share one context: a copy per phase, or a closure and a
 * context per setter, cost more than the hooks merging saved.
 */

/** After-hooks with a `setResult` (onExecuteDone, onNext, onSubscribeResult, a validation's) run as one; their onNext and onEnd merged. */
const mergedResultHooks = (hooks: AnyHook[]): AnyHook | undefined => mergedSetterHooks(hooks, 'setResult', 'result');

/** onNext and onEnd from after-hooks' answers, as one. */
function streamHooks(run: Run): { onNext?: AnyHook; onEnd?: () => void } | undefined {
  if (!run.returned) return undefined;
  const onNext = mergedResultHooks(run.afterHooks('onNext'));
  const ends = run.afterHooks('onEnd') as (() => void)[];
  if (!onNext && ends.length === 0) return undefined;
  return {
    ...(onNext ? { onNext } : {}),
    ...(ends.length > 0 ? { onEnd: () => ends.forEach((end) => end()) } : {}),
  };
}

/** A phase's after-hooks with one setter of their own (`setResult`, onRequestParseDone's, a parse's, onSubscribeError's) run as one; their onNext and onEnd merged. */
function mergedSetterHooks(hooks: AnyHook[], setter: string, field: string): AnyHook | undefined {
  if (hooks.length <= 1) return hooks[0];
  return (payload: Payload) => {
    const run = new Run(hooks, payload);
    const set = payload[setter] as Setter;
    payload[setter] = (value: unknown) => {
      payload[field] = value;
      set(value);
    };
    return then(run, streamHooks);
  };
}

const nothing = (): undefined => undefined;

type PhaseHooks = Record<Phase, AnyHook[]>;

/** Each phase's merged hook, given the phase's hooks in order (at least two). */
const MERGERS: Record<Phase, (hooks: AnyHook[]) => AnyHook> = {
  onRequest: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setRequest, setRequestHandler, endResponse } = payload as WithSetters<'setRequest' | 'setRequestHandler' | 'endResponse'>;
    payload.setRequest = (request: unknown) => {
      payload.request = request;
      setRequest(request);
    };
    payload.setRequestHandler = (handler: unknown) => {
      payload.requestHandler = handler;
      setRequestHandler(handler);
    };
    payload.endResponse = (response: unknown) => {
      // endResponse(undefined) takes nothing back and stops nothing, as in @whatwg-node/server.
      if (response) run.stopped = true;
      endResponse(response);
    };
    return then(run, nothing);
  },
  onRequestParse: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setRequestParser, endResponse } = payload as WithSetters<'setRequestParser' | 'endResponse'>;
    payload.setRequestParser = (parser: unknown) => {
      payload.requestParser = parser;
      setRequestParser(parser);
    };
    payload.endResponse = (response: unknown) => {
      run.stopped = true;
      endResponse(response);
    };
    return then(run, (done) => {
      const onRequestParseDone = mergedSetterHooks(done.afterHooks('onRequestParseDone'), 'setRequestParserResult', 'requestParserResult');
      return onRequestParseDone ? { onRequestParseDone } : undefined;
    });
  },
  onParams: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setParams, setParamsHandler } = payload as WithSetters<'setParams' | 'setParamsHandler'>;
    payload.setParams = (params: unknown) => {
      payload.params = params;
      setParams(params);
    };
    payload.setParamsHandler = (handler: unknown) => {
      payload.paramsHandler = handler;
      setParamsHandler(handler);
    };
    return then(run, nothing);
  },
  // Envelop calls these two and their after-hooks synchronously.
  onParse: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setParseFn } = payload as WithSetters<'setParseFn'>;
    payload.setParseFn = (parse: unknown) => {
      payload.parseFn = parse;
      setParseFn(parse);
    };
    return then(run, (done) => mergedSetterHooks((done.returned ?? []) as AnyHook[], 'replaceParseResult', 'result'));
  },
  onValidate: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setValidationFn } = payload as WithSetters<'setValidationFn'>;
    payload.setValidationFn = (validate: unknown) => {
      payload.validateFn = validate;
      setValidationFn(validate);
    };
    return then(run, (done) => mergedResultHooks((done.returned ?? []) as AnyHook[]));
  },
  onExecute: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setExecuteFn, setResultAndStopExecution } = payload as WithSetters<'setExecuteFn' | 'setResultAndStopExecution'>;
    payload.setExecuteFn = (execute: unknown) => {
      payload.executeFn = execute;
      setExecuteFn(execute);
    };
    payload.setResultAndStopExecution = (result: unknown) => {
      run.stopped = true;
      setResultAndStopExecution(result);
    };
    return then(run, (done) => {
      const onExecuteDone = mergedResultHooks(done.afterHooks('onExecuteDone'));
      return onExecuteDone ? { onExecuteDone } : undefined;
    });
  },
  onSubscribe: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setSubscribeFn, setResultAndStopExecution } = payload as WithSetters<'setSubscribeFn' | 'setResultAndStopExecution'>;
    payload.setSubscribeFn = (subscribe: unknown) => {
      payload.subscribeFn = subscribe;
      setSubscribeFn(subscribe);
    };
    payload.setResultAndStopExecution = (result: unknown) => {
      run.stopped = true;
      setResultAndStopExecution(result);
    };
    return then(run, (done) => {
      const onSubscribeResult = mergedResultHooks(done.afterHooks('onSubscribeResult'));
      const onSubscribeError = mergedSetterHooks(done.afterHooks('onSubscribeError'), 'setError', 'error');
      if (!onSubscribeResult && !onSubscribeError) return undefined;
      return { ...(onSubscribeResult ? { onSubscribeResult } : {}), ...(onSubscribeError ? { onSubscribeError } : {}) };
    });
  },
  onResultProcess: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setResult, setResultProcessor } = payload as WithSetters<'setResult' | 'setResultProcessor'>;
    payload.setResult = (result: unknown) => {
      payload.result = result;
      setResult(result);
    };
    // Its second argument is the media type the processor answers with.
    payload.setResultProcessor = (processor: unknown, mediaType: unknown) => {
      payload.resultProcessor = processor;
      setResultProcessor(processor, mediaType);
    };
    return then(run, nothing);
  },
  onResponse: (hooks) => (payload: Payload) => {
    const run = new Run(hooks, payload);
    const { setResponse } = payload as WithSetters<'setResponse'>;
    payload.setResponse = (response: unknown) => {
      payload.response = response;
      setResponse(response);
    };
    return then(run, nothing);
  },
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
    merged.onSchemaChange = (payload: SchemaChange) => notifySchemaChange(members, payload, -1);
  }
  return merged;
}

/** Each merged plugin but `except` hears of the new schema; one that replaces it is heard by the others, as in envelop. */
function notifySchemaChange(members: readonly Plugin[], payload: SchemaChange, except: number): void {
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
