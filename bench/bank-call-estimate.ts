import { parse } from 'graphql';
import { estimateBankCalls } from '../src/limits/bank-call-estimate.ts';
import { buildSchema } from '../src/schema/index.ts';
import { OPERATIONS } from './operations.ts';

/**
 * What pricing an operation in bank calls costs (src/limits/bank-call-estimate.ts), in this process's
 * CPU: once cached (the document and its page sizes seen before, as every screen after its first
 * request), and the first time (a document never seen, its parse included).
 */

export interface EstimateCost {
  name: string;
  /** The estimate itself, in bank calls. */
  calls: number;
  /** CPU ms per estimate once cached: the median of the timed batches. */
  cachedMs: number;
  /** CPU ms of a first estimate of a document never seen, its parse included: the median. */
  firstMs: number;
}

const BATCHES = 50;
const PER_BATCH = 200;
const FIRSTS = 100;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export function measureEstimateCost(): EstimateCost[] {
  const schema = buildSchema();
  return OPERATIONS.map((operation) => {
    const args = { document: parse(operation.query), operationName: operation.operationName, variableValues: operation.variables ?? {} };
    const calls = estimateBankCalls(schema, args)!.calls;
    const batches: number[] = [];
    // The first batches warm the code; every batch is timed and the median taken.
    for (let batch = 0; batch < BATCHES; batch++) {
      const started = cpuMs();
      for (let run = 0; run < PER_BATCH; run++) estimateBankCalls(schema, { ...args, variableValues: { ...operation.variables } });
      batches.push((cpuMs() - started) / PER_BATCH);
    }
    const firsts: number[] = [];
    for (let run = 0; run < FIRSTS; run++) {
      const started = cpuMs();
      estimateBankCalls(schema, { ...args, document: parse(operation.query) });
      firsts.push(cpuMs() - started);
    }
    return { name: operation.name, calls, cachedMs: median(batches), firstMs: median(firsts) };
  });
}
