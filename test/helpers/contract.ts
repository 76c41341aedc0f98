import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * schema/upstream-contract.json, read as the tests use it: the response schema of each of the 57
 * endpoints (the envelope of its kind around its `data`) and the envelope and `data` of each event,
 * compiled to zod with `z.fromJSONSchema` so a problem reads "path: message" like every other
 * validation in the project.
 */

type JsonSchema = Record<string, unknown>;

export interface ContractEndpoint {
  number: number;
  method: string;
  path: string;
  document: string;
  envelope: 'standard' | 'standard-no-data' | 'bare';
  /** The envelope's `status` where it is not `success` (Document 2, 4.5: `Success`). */
  status?: string;
  data?: JsonSchema;
  'x-choice'?: string;
}

interface Contract {
  $defs: Record<string, JsonSchema>;
  'x-endpoints': ContractEndpoint[];
  'x-events': Record<string, JsonSchema>;
}

const CONTRACT_FILE = new URL('../../schema/upstream-contract.json', import.meta.url);
export const CONTRACT = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) as Contract;
export const CONTRACT_ENDPOINTS = CONTRACT['x-endpoints'];
export const CONTRACT_EVENTS = Object.keys(CONTRACT['x-events']);

export function contractEndpoint(number: number): ContractEndpoint {
  const entry = CONTRACT_ENDPOINTS.find((candidate) => candidate.number === number);
  if (entry === undefined) throw new Error(`the contract has no endpoint ${number}`);
  return entry;
}

/** The whole body's schema: Document 1's envelope around `data`, the bare envelope-less body, or no data at all. */
function responseSchema(entry: ContractEndpoint): JsonSchema {
  if (entry.envelope === 'standard-no-data') return { $ref: '#/$defs/DoneEnvelope' };
  if (entry.data === undefined) throw new Error(`endpoint ${entry.number} has no data schema`);
  if (entry.envelope === 'bare') return entry.data;
  const envelope = CONTRACT.$defs.SuccessEnvelope as { properties: JsonSchema };
  const properties = { ...envelope.properties, status: { const: entry.status ?? 'success' }, data: entry.data };
  return { ...envelope, properties };
}

function eventSchema(name: string): JsonSchema {
  const data = CONTRACT['x-events'][name];
  if (data === undefined) throw new Error(`the contract has no event ${name}`);
  const envelope = CONTRACT.$defs.Event as { properties: JsonSchema };
  return { ...envelope, properties: { ...envelope.properties, name: { const: name }, data } };
}

const compiled = new Map<string, z.ZodType>();

function compile(key: string, schema: () => JsonSchema): z.ZodType {
  let validator = compiled.get(key);
  if (validator === undefined) {
    validator = z.fromJSONSchema({ $defs: CONTRACT.$defs, ...schema() });
    compiled.set(key, validator);
  }
  return validator;
}

function problems(validator: z.ZodType, value: unknown): string[] {
  const result = validator.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

/** Every way `body` parts from endpoint `number`'s documented response; empty when it follows it. */
export function responseProblems(number: number, body: unknown): string[] {
  return problems(
    compile(`endpoint ${number}`, () => responseSchema(contractEndpoint(number))),
    body,
  );
}

/** Every way `event` parts from the envelope and the documented `data` of its name. */
export function eventProblems(event: Record<string, unknown>): string[] {
  const name = String(event.name);
  if (!CONTRACT_EVENTS.includes(name)) return [`name: the contract has no event ${name}`];
  return problems(
    compile(`event ${name}`, () => eventSchema(name)),
    event,
  );
}

/** The documented error bodies: Documents 1 and 2's envelope, and what Document 3, 7 gives of the direct debit family's. */
export function errorProblems(kind: 'ErrorEnvelope' | 'DirectDebitError', body: unknown): string[] {
  return problems(
    compile(kind, () => ({ $ref: `#/$defs/${kind}` })),
    body,
  );
}

/** The request path an entry stands for: `?id=` and a `(list)` note dropped, path parameters kept. */
export function requestPath(entry: ContractEndpoint): string {
  return entry.path.replace(/\?id=$/, '').replace(/ \(.*\)$/, '');
}

/** `/svc/api/v1/card/cardholder?id=` and `…/{mandate_id}` as a pattern over request paths (query excluded). */
export function pathPattern(entry: ContractEndpoint): RegExp {
  const path = requestPath(entry);
  const source = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}$`);
}
