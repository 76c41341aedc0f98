import type { GatewayContext } from '../context.ts';
import { tracedBatch } from '../observability/tracing.ts';
import { startInSizeOrder } from '../upstream/batch-order.ts';
import { abandonment } from '../upstream/operation.ts';

/**
 * A loader's batch function, as every loader of the schema has it: started smallest first among
 * the batches that fall due with it (upstream/batch-order.ts says why), and a span of its own when
 * tracing is on. An operation whose client left starts no batch: nobody will read what it loads.
 * (Past its deadline a batch still starts: each of its calls is refused at once, with the error the
 * caller reads for its field.)
 */
export function loaderBatch<Load extends (keys: never[], context: GatewayContext) => Promise<unknown>>(name: string, load: Load): Load {
  const traced = tracedBatch(name, load);
  const ordered = (keys: never[], context: GatewayContext) => {
    const gone = abandonment(context.operationSignal?.());
    return gone ? Promise.reject(gone) : startInSizeOrder(keys.length, () => traced(keys, context));
  };
  // The same signature as `load`: Pothos reads the record's type from it.
  return ordered as Load;
}
