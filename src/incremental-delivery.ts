import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** The media types an operation with @defer or @stream can be answered in. */
const INCREMENTAL_MEDIA_TYPES = ['multipart/mixed', 'text/event-stream'];

/**
 * `@defer` and `@stream` (Yoga's defer-stream plugin: its validation rules; the directives are in
 * the schema), answered over HTTP multipart (`Accept: multipart/mixed`) or SSE
 * (`Accept: text/event-stream`). A caller that accepts only JSON cannot take the parts: instead of
 * Yoga's bare 406 it gets a GraphQL error saying what to send, and the execution is stopped.
 */
export function incrementalDelivery(): Plugin[] {
  return [useDeferStream() as Plugin, useJsonOnlyRefusal()];
}

function useJsonOnlyRefusal(): Plugin {
  return {
    onResultProcess: ({ result, resultProcessor, setResultProcessor }) => {
      if (resultProcessor || !isAsyncIterable(result)) return;
      // Stops the deferred work; how it ends is of no use to a caller who gets the 406.
      Promise.resolve(result[Symbol.asyncIterator]().return?.()).catch(() => {});
      setResultProcessor(
        () =>
          Response.json(
            {
              errors: [
                {
                  message: `An operation with @defer or @stream is answered in parts: send Accept: ${INCREMENTAL_MEDIA_TYPES.join(' or ')}.`,
                  extensions: { code: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED', accept: INCREMENTAL_MEDIA_TYPES },
                },
              ],
            },
            { status: 406 },
          ),
        'application/json',
      );
    },
  };
}
