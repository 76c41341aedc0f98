import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLScalarType, type ExecutionArgs } from 'graphql';
import { createPubSub, createSchema, createYoga } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { answerServerRequests } from './child-process.ts';

/**
 * The bare Yoga floor of a subscription fan-out, in its own process (forked by BareFanoutProcess in
 * bench/subscriptions.ts): a plain graphql-yoga server with graphql-ws's `useServer` as Yoga's own
 * recipe wires them (https://the-guild.dev/graphql/yoga-server/docs/features/subscriptions), on
 * `subscription { bankEvents { upstreamId name occurredAt data } }` from Yoga's createPubSub. A
 * `POST /publish` of an event's JSON publishes it and answers 202: the webhook without its signature,
 * intake or event log. No auth, limits, shared execution or corked sends: what the required libraries
 * cost by themselves to send one event to every subscriber, each of whom has the event's selection
 * executed for it and its message written on its own.
 */

interface FanoutStart {
  id: number;
  kind: 'start';
}

/** What the benchmark asks besides ServerProcess's: the subscriptions open now. */
interface SubscriptionsAsked {
  id: number;
  kind: 'subscriptions';
}

const typeDefs = /* GraphQL */ `
  scalar JSONObject
  type Query {
    ok: Boolean
  }
  type BankEvent {
    upstreamId: String!
    name: String!
    occurredAt: String!
    data: JSONObject!
  }
  type Subscription {
    bankEvents: BankEvent!
  }
`;

type Event = Record<string, unknown>;

let server: Server | undefined;
let open = 0;

function start(): Promise<number> {
  // Yoga's default target, with Node's warning past 10 listeners off: each subscriber is one, by design.
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  const pubsub = createPubSub<{ bankEvents: [Event] }>({ eventTarget: eventTarget });
  const yoga = createYoga({
    schema: createSchema({
      typeDefs,
      resolvers: {
        // Passed through as it came, as graphql-scalars' JSONObject serialises an object.
        JSONObject: new GraphQLScalarType({ name: 'JSONObject', serialize: (value) => value }),
        Subscription: {
          bankEvents: {
            subscribe: () => counted(pubsub.subscribe('bankEvents')),
            resolve: (event: Event) => event,
          },
        },
      },
    }),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: false,
    logging: false,
  });
  const http = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/publish') {
      void bodyOf(request).then((body) => {
        pubsub.publish('bankEvents', JSON.parse(body) as Event);
        response.writeHead(202).end();
      });
      return;
    }
    void yoga(request, response);
  });
  // Yoga's recipe for graphql-ws: each operation through Yoga's envelop (its parse, validate, context and execute).
  useServer<Record<string, unknown>, { request: IncomingMessage }>(
    {
      execute: (args) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          params,
        });
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    new WebSocketServer({ server: http, path: '/graphql' }),
  );
  server = http;
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve((http.address() as AddressInfo).port)));
}

/** Counts the subscription open until its stream is returned (the client completed it or left). */
function counted<T>(events: AsyncIterableIterator<T>): AsyncIterableIterator<T> {
  open += 1;
  const close = events.return?.bind(events);
  let closed = false;
  events.return = (value?: unknown) => {
    if (!closed) open -= 1;
    closed = true;
    return close ? close(value) : Promise.resolve({ done: true, value: undefined as T });
  };
  return events;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

answerServerRequests<FanoutStart, SubscriptionsAsked>(
  start,
  () => {
    server?.closeAllConnections();
    server?.close();
  },
  () => open,
);
