import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { mergePlugins } from './merged-plugins.ts';

/**
 * The merged plugin is held to Yoga itself: the same plugins, once as Yoga's own list and once
 * merged, must leave the same trace (every hook, in order, with what it saw) and the same answers.
 */

const schema = () =>
  createSchema({
    typeDefs: /* GraphQL */ `
      type Query {
        hello: String
        slow: String
      }
      type Subscription {
        ticks: Int
      }
    `,
    resolvers: {
      Query: { hello: () => 'world', slow: () => new Promise((resolve) => setTimeout(() => resolve('late'), 5)) },
      Subscription: {
        ticks: {
          subscribe: async function* () {
            yield { ticks: 1 };
            yield { ticks: 2 };
          },
        },
      },
    },
  });

const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 1));

type Trace = string[];

/** Plugins that trace every hook, set what each phase lets them set, and read what the one before set. */
function tracingPlugins(trace: Trace, options: { stopExecution?: boolean; endResponse?: boolean; async?: boolean } = {}): Plugin[] {
  const maybeLater = <T>(value: T) => (options.async ? later(value) : value);
  const first: Plugin = {
    onRequest: ({ request }) => {
      trace.push(`1 onRequest ${new URL(request.url).pathname}`);
      return maybeLater(undefined);
    },
    onRequestParse: ({ requestParser, setRequestParser }) => {
      trace.push(`1 onRequestParse parser set before: ${requestParser !== undefined}`);
      if (requestParser) {
        const original = requestParser;
        setRequestParser(async (request) => {
          trace.push('1 parser wrapper ran');
          return original(request);
        });
      }
      return maybeLater({
        onRequestParseDone: ({ requestParserResult, setRequestParserResult }) => {
          trace.push(`1 onRequestParseDone ${JSON.stringify(requestParserResult)}`);
          if (!Array.isArray(requestParserResult)) setRequestParserResult({ ...requestParserResult, extensions: { by: 'first' } });
        },
      });
    },
    onParams: ({ params, setParams }) => {
      trace.push(`1 onParams ${params.query?.replace(/\s+/g, ' ')}`);
      setParams({ ...params, operationName: params.operationName ?? undefined, extensions: { ...params.extensions, seen: 1 } });
    },
    onParse: ({ parseFn, setParseFn }) => {
      trace.push('1 onParse');
      setParseFn((source, parseOptions) => {
        trace.push('1 parseFn wrapper');
        return parseFn(source, parseOptions);
      });
      return ({ result }) => trace.push(`1 after parse ${result && 'kind' in result ? result.kind : String(result)}`);
    },
    onValidate: ({ addValidationRule, validateFn, setValidationFn }) => {
      trace.push('1 onValidate');
      addValidationRule(() => ({}));
      setValidationFn((...args) => {
        trace.push('1 validateFn wrapper');
        return validateFn(...args);
      });
      return ({ valid, result, setResult }) => {
        trace.push(`1 after validate ${valid} ${result.length}`);
        setResult([...result]);
      };
    },
    onExecute: ({ executeFn, setExecuteFn, setResultAndStopExecution }) => {
      trace.push('1 onExecute');
      if (options.stopExecution) {
        setResultAndStopExecution({ data: { hello: 'stopped' } });
        return { onExecuteDone: ({ result }) => void trace.push(`1 onExecuteDone ${JSON.stringify(result)}`) };
      }
      setExecuteFn((args) => {
        trace.push('1 executeFn wrapper');
        return executeFn(args);
      });
      return maybeLater({
        onExecuteDone: ({ result, setResult }) => {
          trace.push(`1 onExecuteDone ${JSON.stringify(result)}`);
          if (!(Symbol.asyncIterator in (result as object))) setResult({ ...(result as object), extensions: { first: true } });
          return {
            onNext: ({ result: next }) => void trace.push(`1 onNext ${JSON.stringify(next)}`),
            onEnd: () => void trace.push('1 onEnd'),
          };
        },
      });
    },
    onSubscribe: ({ subscribeFn, setSubscribeFn }) => {
      trace.push('1 onSubscribe');
      setSubscribeFn((args) => {
        trace.push('1 subscribeFn wrapper');
        return subscribeFn(args);
      });
      return {
        onSubscribeResult: ({ result }) => {
          trace.push(`1 onSubscribeResult ${Symbol.asyncIterator in (result as object)}`);
          return {
            onNext: ({ result: next, setResult }) => {
              trace.push(`1 onNext ${JSON.stringify(next)}`);
              setResult({ ...(next as object), extensions: { tick: true } });
            },
            onEnd: () => void trace.push('1 onEnd'),
          };
        },
        onSubscribeError: ({ error }) => void trace.push(`1 onSubscribeError ${String(error)}`),
      };
    },
    onResultProcess: ({ result, acceptableMediaTypes }) => {
      trace.push(
        `1 onResultProcess ${Symbol.asyncIterator in (result as object) ? 'stream' : JSON.stringify(result)} ${acceptableMediaTypes.length}`,
      );
    },
    onResponse: ({ response, setResponse }) => {
      trace.push(`1 onResponse ${response.status}`);
      const headers = new Headers(response.headers);
      headers.set('x-first', '1');
      setResponse(new Response(response.body, { status: response.status, headers }));
    },
  };
  const second: Plugin = {
    onRequest: ({ request, endResponse }) => {
      trace.push(`2 onRequest ${new URL(request.url).pathname}`);
      if (options.endResponse && request.url.includes('/graphql')) endResponse(new Response('ended by 2', { status: 418 }));
    },
    onRequestParse: ({ requestParser }) => {
      trace.push(`2 onRequestParse parser set before: ${requestParser !== undefined}`);
      return {
        onRequestParseDone: ({ requestParserResult }) => void trace.push(`2 onRequestParseDone ${JSON.stringify(requestParserResult)}`),
      };
    },
    onParams: ({ params }) => void trace.push(`2 onParams ${JSON.stringify(params.extensions)}`),
    onParse: ({ parseFn }) => {
      trace.push(`2 onParse sees the wrapper: ${parseFn.toString().includes('wrapper')}`);
      return ({ result, replaceParseResult }) => {
        trace.push(`2 after parse ${result && 'kind' in result ? result.kind : String(result)}`);
        replaceParseResult(result);
      };
    },
    onValidate: ({ validateFn, params }) => {
      trace.push(`2 onValidate sees the wrapper: ${validateFn.toString().includes('wrapper')}, rules ${params.rules?.length ?? 'none'}`);
      return ({ result }) => void trace.push(`2 after validate ${result.length}`);
    },
    onExecute: ({ executeFn }) => {
      trace.push(`2 onExecute sees the wrapper: ${executeFn.toString().includes('wrapper')}`);
      return { onExecuteDone: ({ result }) => void trace.push(`2 onExecuteDone ${JSON.stringify(result)}`) };
    },
    onSubscribe: ({ subscribeFn }) => {
      trace.push(`2 onSubscribe sees the wrapper: ${subscribeFn.toString().includes('wrapper')}`);
      return { onSubscribeResult: () => ({ onNext: ({ result }) => void trace.push(`2 onNext ${JSON.stringify(result)}`) }) };
    },
    onResultProcess: ({ result }) =>
      void trace.push(`2 onResultProcess ${Symbol.asyncIterator in (result as object) ? 'stream' : 'result'}`),
    onResponse: ({ response }) => void trace.push(`2 onResponse ${response.status} ${response.headers.get('x-first')}`),
  };
  const third: Plugin = {
    onExecute: () => void trace.push('3 onExecute'),
    onValidate: () => void trace.push('3 onValidate'),
    onResponse: () => maybeLater(void trace.push('3 onResponse')),
    onResultProcess: ({ request, setResultProcessor }) => {
      if (request.headers.get('accept') !== 'application/x-trace') return;
      setResultProcessor(
        (result, fetchAPI, mediaType) => new fetchAPI.Response(JSON.stringify(result), { headers: { 'content-type': mediaType } }),
        'application/x-trace',
      );
    },
  };
  return [first, second, third];
}

/** Yoga's own plugin after the gateway's, to show a stop reaches past the merged plugin. */
const yogaSide = (trace: Trace): Plugin => ({
  onRequest: () => void trace.push('after onRequest'),
  onExecute: () => void trace.push('after onExecute'),
  onResponse: () => void trace.push('after onResponse'),
});

async function traceOf(
  merged: boolean,
  requests: (yoga: ReturnType<typeof createYoga>) => Promise<string[]>,
  options?: Parameters<typeof tracingPlugins>[1],
): Promise<{ trace: Trace; answers: string[] }> {
  const trace: Trace = [];
  const plugins = tracingPlugins(trace, options);
  const yoga = createYoga({
    schema: schema(),
    logging: false,
    plugins: [...(merged ? [mergePlugins(plugins)] : plugins), yogaSide(trace)],
  });
  const answers = await requests(yoga);
  return { trace, answers };
}

const post = async (yoga: ReturnType<typeof createYoga>, query: string, accept = 'application/json'): Promise<string> => {
  const response = await yoga.fetch('http://gateway/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({ query }),
  });
  return `${response.status} ${response.headers.get('x-first')} ${response.headers.get('content-type')} ${await response.text()}`;
};

async function sameAsYoga(
  requests: (yoga: ReturnType<typeof createYoga>) => Promise<string[]>,
  options?: Parameters<typeof tracingPlugins>[1],
): Promise<{ trace: Trace; answers: string[] }> {
  const separate = await traceOf(false, requests, options);
  const merged = await traceOf(true, requests, options);
  expect(merged.answers).toEqual(separate.answers);
  expect(merged.trace).toEqual(separate.trace);
  return merged;
}

describe('mergePlugins', () => {
  it('runs every phase as Yoga runs the plugins one by one: same hooks, order, values seen and answers', async () => {
    const { trace, answers } = await sameAsYoga(async (yoga) => [
      await post(yoga, '{ hello }'),
      await post(yoga, '{ slow }'),
      await post(yoga, '{ nope }'),
      await post(yoga, '{ hello }', 'application/x-trace'),
    ]);
    expect(answers[0]).toContain('"hello":"world"');
    // A result processor set with its media type answers with that type.
    expect(answers[3]).toMatch(/^200 1 application\/x-trace /);
    expect(answers[0]).toContain('"first":true');
    expect(answers[2]).toMatch(/^200 1 application\/json.*Cannot query field/);
    // What the merged plugin must have passed along, asserted as well as compared.
    expect(trace).toContain('2 onParse sees the wrapper: true');
    expect(trace).toContain('2 onExecute sees the wrapper: true');
    expect(trace).toContain('2 onParams {"by":"first","seen":1}');
    expect(trace.filter((line) => line.startsWith('after onResponse'))).toHaveLength(4);
  });

  it('waits on hooks that return promises, in order', async () => {
    const { trace } = await sameAsYoga(async (yoga) => [await post(yoga, '{ hello }')], { async: true });
    expect(trace.indexOf('1 onRequest /graphql')).toBeLessThan(trace.indexOf('2 onRequest /graphql'));
    expect(trace.indexOf('1 onExecuteDone {"data":{"hello":"world"}}')).toBeGreaterThan(-1);
    expect(trace.indexOf('3 onResponse')).toBeLessThan(trace.indexOf('after onResponse'));
  });

  it('stops the hooks after one that ends the response, its own and the plugins after it', async () => {
    const { trace, answers } = await sameAsYoga(async (yoga) => [await post(yoga, '{ hello }')], { endResponse: true });
    expect(answers[0]).toMatch(/^418 1 .*ended by 2/);
    expect(trace).not.toContain('after onRequest');
  });

  it('stops the hooks after one that sets the result and stops execution; the onExecuteDone already returned still runs', async () => {
    const { trace, answers } = await sameAsYoga(async (yoga) => [await post(yoga, '{ hello }')], { stopExecution: true });
    expect(answers[0]).toContain('"hello":"stopped"');
    expect(trace).not.toContain('3 onExecute');
    expect(trace).not.toContain('after onExecute');
    expect(trace).toContain('1 onExecuteDone {"data":{"hello":"stopped"}}');
  });

  it('runs a subscription as Yoga does: onSubscribeResult, each onNext with the result an earlier one set, onEnd', async () => {
    const { trace, answers } = await sameAsYoga(async (yoga) => [await post(yoga, 'subscription { ticks }', 'text/event-stream')]);
    expect(answers[0]).toContain('"tick":true');
    expect(trace).toContain('2 onNext {"data":{"ticks":2},"extensions":{"tick":true}}');
    expect(trace).toContain('1 onEnd');
  });

  it('merges the plugins a plugin adds in onPluginInit, right after it', async () => {
    const order: string[] = [];
    const added: Plugin = { onExecute: () => void order.push('added') };
    const adder: Plugin = { onPluginInit: ({ addPlugin }) => addPlugin(added), onExecute: () => void order.push('adder') };
    const last: Plugin = { onExecute: () => void order.push('last') };
    const yoga = createYoga({ schema: schema(), logging: false, plugins: [mergePlugins([adder, last])] });
    await post(yoga, '{ hello }');
    expect(order).toEqual(['adder', 'added', 'last']);
  });

  it('tells the other merged plugins when one replaces the schema', async () => {
    const seen: string[] = [];
    const replacement = schema();
    const replacer: Plugin = {
      onSchemaChange: ({ schema: current, replaceSchema }) => void (current !== replacement && replaceSchema(replacement)),
    };
    const listener: Plugin = {
      onSchemaChange: ({ schema: current }) => void seen.push(current === replacement ? 'replacement' : 'original'),
    };
    const outside: Plugin = {
      onSchemaChange: ({ schema: current }) => void seen.push(current === replacement ? 'outside: replacement' : 'outside: original'),
    };
    createYoga({ schema: schema(), logging: false, plugins: [mergePlugins([replacer, listener]), outside] });
    expect(seen).toContain('replacement');
    expect(seen).toContain('outside: replacement');
  });

  it('refuses, when the gateway is built, a plugin with a hook it does not merge', () => {
    expect(() => mergePlugins([{ onContextBuilding: () => undefined }])).toThrow(/"onContextBuilding", which it does not merge/);
    expect(() => mergePlugins([{ instrumentation: {} }])).toThrow(/"instrumentation"/);
  });
});
