import type { Plugin } from 'graphql-yoga';
import { GRAPHQL_PATH } from '../transport/yoga.ts';
import { route } from './route.ts';

/** `/` sends a visitor to the GraphQL path, where a browser gets GraphiQL. */
export const useRootRedirect = (): Plugin => route('/', () => new Response(null, { status: 302, headers: { location: GRAPHQL_PATH } }));
