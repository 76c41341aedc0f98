/**
 * What the scope checks cost one screen: its document executed against the schema with scope-auth (A)
 * and without (B), every read answered from memory, beside a second schema with the checks (A').
 */

import { setImmediate as turn } from 'node:timers/promises';
import { execute, isObjectType, parse, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { buildSchema } from '../src/schema/index.ts';
import type { BenchOperation } from './operations.ts';
import type { InMemoryWorld } from './authorization-context.ts';
import { spreadOf, type Spread } from './stats.ts';

/** process.cpuUsage counts whole microseconds: no difference finer than that is seen. */
const CLOCK_MS = 0.001;

export interface ScreenScopeCost {
  name: string;
  /** Runs of each schema, after the warm-up. */
  runs: number;
  /** CPU ms per execution: with the checks (A), without (B), with them again (A'). */
  checked: Spread;
  unchecked: Spread;
  control: Spread;
  /** checked.p50 − unchecked.p50: what the checks add. */
  difference: number;
  /** |checked.p50 − control.p50|: A against A, the noise floor of the difference; never below the clock's microsecond. */
  floor: number;
  /** Scope-auth checks per execution: root fields, and records (each checked once, by its type). */
  checks: { fields: number; records: number };
  /** Upstream reads during the measured runs: answered by the record cache, and sent to the bank (0 expected). */
  reads: { cached: number; bank: number };
}

export interface ScopeSchemas {
  checked: GraphQLSchema;
  unchecked: GraphQLSchema;
  control: GraphQLSchema;
}

export function scopeSchemas(): ScopeSchemas {
  return { checked: buildSchema(), unchecked: buildSchema({ withoutAuthorization: true }), control: buildSchema() };
}

/** One execution in a fresh context (as one request), its CPU time in ms; GraphQL errors throw. */
async function timedRun(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: BenchOperation,
  world: InMemoryWorld,
): Promise<{ ms: number; result: ExecutionResult }> {
  const contextValue = world.context();
  await turn();
  const before = process.cpuUsage();
  const result = await execute({
    schema,
    document,
    contextValue,
    variableValues: operation.variables ?? {},
    operationName: operation.operationName,
  });
  const used = process.cpuUsage(before);
  if (result.errors) throw new Error(`${operation.name} answered errors: ${JSON.stringify(result.errors).slice(0, 500)}`);
  return { ms: (used.user + used.system) / 1000, result };
}

/** Whether Pothos declared scopes on a type or field (its `authScopes`, kept in the extensions). */
const scoped = (node: { extensions?: Readonly<Record<string, unknown>> | null }): boolean =>
  Boolean((node.extensions?.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes);

/**
 * The checks one execution runs: root fields that declare a permission, and records of a type that
 * declares one (scope-auth runs it in the type's isTypeOf). Counted on a schema of their own, built
 * with the checks and wrapped with counters, never the one measured.
 */
async function countChecks(
  document: DocumentNode,
  operation: BenchOperation,
  world: InMemoryWorld,
): Promise<{ fields: number; records: number }> {
  const schema = buildSchema();
  const counts = { fields: 0, records: 0 };
  const roots = [schema.getQueryType(), schema.getMutationType()];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    const isTypeOf = type.isTypeOf;
    if (isTypeOf && (scoped(type) || type.getInterfaces().some(scoped))) {
      type.isTypeOf = (...args) => (counts.records++, isTypeOf(...args));
    }
    if (!roots.includes(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (resolve && scoped(field)) field.resolve = (...args) => (counts.fields++, resolve(...args));
    }
  }
  const result = await execute({
    schema,
    document,
    contextValue: world.context(),
    variableValues: operation.variables ?? {},
    operationName: operation.operationName,
  });
  if (result.errors) throw new Error(`${operation.name} answered errors: ${JSON.stringify(result.errors).slice(0, 500)}`);
  return counts;
}

/**
 * A against A' is the same code: their difference is what chance alone makes, the floor any difference
 * must clear. Runs are interleaved, the order rotated each round (A B A', B A' A, A' A B), so the
 * machine's drift falls on all three alike; each is timed by the process's CPU time, with the event
 * loop's turn between runs, never inside one.
 */
export async function measureScreenScopes(
  operation: BenchOperation,
  schemas: ScopeSchemas,
  world: InMemoryWorld,
  options: { warmUpRuns: number; runs: number },
): Promise<ScreenScopeCost> {
  const document = parse(operation.query);
  for (const schema of Object.values(schemas)) {
    const problems = validate(schema, document);
    if (problems.length > 0) throw new Error(`${operation.name} does not validate: ${problems[0]!.message}`);
  }
  const order = [schemas.checked, schemas.unchecked, schemas.control];
  const samples = new Map<GraphQLSchema, number[]>(order.map((schema) => [schema, []]));
  // The warm-up fills the record cache (the first run reads the bank) and lets V8 optimise all three paths.
  for (let i = 0; i < options.warmUpRuns; i++) for (const schema of order) await timedRun(schema, document, operation, world);
  const withChecks = JSON.stringify((await timedRun(schemas.checked, document, operation, world)).result);
  const without = JSON.stringify((await timedRun(schemas.unchecked, document, operation, world)).result);
  if (withChecks !== without) throw new Error(`${operation.name}: the answer with the checks differs from the one without`);
  const cacheBefore = world.cacheCounts();
  for (let i = 0; i < options.runs; i++) {
    for (let k = 0; k < order.length; k++) {
      const schema = order[(i + k) % order.length]!;
      samples.get(schema)!.push((await timedRun(schema, document, operation, world)).ms);
    }
  }
  const cacheAfter = world.cacheCounts();
  const checked = spreadOf(samples.get(schemas.checked)!);
  const unchecked = spreadOf(samples.get(schemas.unchecked)!);
  const control = spreadOf(samples.get(schemas.control)!);
  return {
    name: operation.name,
    runs: options.runs,
    checked,
    unchecked,
    control,
    difference: checked.p50 - unchecked.p50,
    floor: Math.max(CLOCK_MS, Math.abs(checked.p50 - control.p50)),
    checks: await countChecks(document, operation, world),
    reads: { cached: cacheAfter.hits - cacheBefore.hits, bank: cacheAfter.misses - cacheBefore.misses },
  };
}
