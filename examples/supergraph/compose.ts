import { composeServices } from '@theguild/federation-composition';
import { parse } from 'graphql';

export interface Subgraph {
  name: string;
  /** Where the router reaches it. */
  url: string;
  /** Its SDL, as `_service { sdl }` answers it. */
  sdl: string;
}

/**
 * The supergraph of the subgraphs, as Hive Gateway serves it (The Guild's composition, the one
 * Hive's registry and CLI use); throws with every composition error.
 */
export function composeSupergraph(subgraphs: readonly Subgraph[]): string {
  const result = composeServices(subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) })));
  if (result.errors?.length || !result.supergraphSdl)
    throw new Error(`composition failed:\n${(result.errors ?? []).map((error) => `- ${error.message}`).join('\n')}`);
  return result.supergraphSdl;
}

/** A subgraph's SDL from its `_service` field; the banking gateway answers it only to the router (its token). */
export async function subgraphSdl(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
  });
  const body = (await response.json()) as { data?: { _service: { sdl: string } }; errors?: { message: string }[] };
  if (!body.data) throw new Error(`${url} gave no SDL: ${body.errors?.map((error) => error.message).join('; ')}`);
  return body.data._service.sdl;
}
