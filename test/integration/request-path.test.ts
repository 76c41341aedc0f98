import { describe, expect, it } from 'vitest';
import { useExtendContext, usePayloadFormatter, type Plugin } from 'graphql-yoga';
import { useKit } from '../helpers/kit.ts';
import { subscribeSse } from '../helpers/subscribe.ts';

/**
 * The request path (src/transport/request-path.ts) takes a stock Yoga or envelop plugin whatever
 * hooks it uses: each of the gateway's plugins reaches Yoga as itself, so Yoga calls an added one's
 * hooks as it calls theirs.
 */

/** Every hook Yoga and envelop call, each noting that it ran. */
function everyHook(ran: Set<string>): Plugin {
  const note = (hook: string) => () => void ran.add(hook);
  return {
    onYogaInit: note('onYogaInit'),
    onPluginInit: note('onPluginInit'),
    onSchemaChange: note('onSchemaChange'),
    onRequest: note('onRequest'),
    onRequestParse: note('onRequestParse'),
    onParams: note('onParams'),
    onEnveloped: note('onEnveloped'),
    onParse: note('onParse'),
    onValidate: note('onValidate'),
    onContextBuilding: note('onContextBuilding'),
    onExecute: ({ args }) => {
      ran.add('onExecute');
      if ((args.contextValue as { stockContext?: string }).stockContext === 'extended') ran.add('context extended by useExtendContext');
    },
    onSubscribe: note('onSubscribe'),
    onExecutionResult: note('onExecutionResult'),
    onResultProcess: note('onResultProcess'),
    onResponse: note('onResponse'),
    instrumentation: {
      request: (_payload, wrapped) => (ran.add('instrumentation.request'), wrapped()),
      execute: (_payload, wrapped) => (ran.add('instrumentation.execute'), wrapped()),
    },
  };
}

const ran = new Set<string>();
const kit = useKit({
  listen: true,
  // As any plugin list takes them: envelop's plugins are typed for the context they add.
  plugins: [
    useExtendContext(() => ({ stockContext: 'extended' })),
    usePayloadFormatter((result) => ({ ...result, extensions: { ...result.extensions, formattedBy: 'usePayloadFormatter' } })),
    everyHook(ran),
  ] as Plugin[],
});

describe('a stock plugin added to the request path', () => {
  it('runs every hook it has, on a query, with the gateway answering as without it', async () => {
    // The hooks of the gateway's making ran once, as it started; the rest run on this query.
    const atStart = [...ran];
    expect(atStart).toEqual(expect.arrayContaining(['onYogaInit', 'onPluginInit', 'onSchemaChange']));
    ran.clear();
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ balances { currency } }' }),
    });
    const body = (await response.json()) as { data: { balances: { currency: string }[] }; extensions?: Record<string, unknown> };
    expect(response.status).toBe(200);
    expect(body.data.balances.map((balance) => balance.currency)).toContain('USD');
    expect(body.extensions).toMatchObject({ formattedBy: 'usePayloadFormatter' });
    // The gateway's own headers are still there: its plugins ran beside the added ones.
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect([...ran].sort()).toEqual(
      [
        'onRequest',
        'onRequestParse',
        'onParams',
        'onEnveloped',
        'onParse',
        'onValidate',
        'onContextBuilding',
        'onExecute',
        'context extended by useExtendContext',
        'onExecutionResult',
        'onResultProcess',
        'onResponse',
        'instrumentation.request',
        'instrumentation.execute',
      ].sort(),
    );
  });

  it('runs onSubscribe for a subscription', async () => {
    ran.clear();
    const subscription = await subscribeSse(kit, 'subscription { accountStatusChanged { status } }');
    await subscription.close();
    expect(ran.has('onSubscribe')).toBe(true);
  });

  it('comes after the routes: a request a route answers never reaches it', async () => {
    ran.clear();
    expect((await fetch(`${kit.baseUrl}/healthz`)).status).toBe(200);
    expect(ran.has('onRequest')).toBe(false);
    expect(ran.has('onResponse')).toBe(false);
  });
});
