import type { z } from 'zod';
import type { Logger } from '../../logger.ts';
import { readBareBody, readEnvelope } from '../envelope.ts';
import { httpErrorFor, UpstreamContractError, UpstreamRateLimitError, type ContractIssue, type UpstreamErrorDetails } from '../errors.ts';
import type { RateLimitHolds } from '../rate-limit-holds.ts';
import { parseRetryAfter } from '../retry-policy.ts';
import type { UpstreamCall } from './call.ts';
import type { Answer } from './send.ts';

/**
 * An answer into the endpoint's data, parsed by its zod model, or into a typed error the stages
 * outside act on (retry, auth renewal, breaker). A 429 with Retry-After holds the whole family.
 */
export function readAnswer(call: UpstreamCall, answer: Answer, rateLimitHolds: RateLimitHolds, logger: Logger): unknown {
  const { details, ep } = call;
  const reading = ep.envelope === false ? readBareBody(answer.statusCode, answer.body) : readEnvelope(answer.statusCode, answer.body);
  if (reading.ok === 'malformed') throw contractError([{ path: '(body)', message: reading.reason }], details, logger);
  if (reading.ok === false) {
    const retryAfterMs = parseRetryAfter(answer.headers['retry-after']);
    const error = httpErrorFor(reading.status, reading.message, { ...details, code: reading.code, retryAfterMs });
    if (error instanceof UpstreamRateLimitError && retryAfterMs !== undefined) rateLimitHolds.holdOff(call.family, Date.now() + retryAfterMs);
    throw error;
  }
  const parsed = ep.data.safeParse(reading.data);
  if (!parsed.success) throw contractError(contractIssues(parsed.error), details, logger);
  return parsed.data;
}

function contractError(issues: ContractIssue[], details: UpstreamErrorDetails, logger: Logger): UpstreamContractError {
  const error = new UpstreamContractError(issues, details);
  logger.error({ ...details, issues }, error.message);
  return error;
}

/** zod issues → dotted paths into the whole body (`data[0].field`), as an operator would look for them. */
function contractIssues(error: z.ZodError): ContractIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`), 'data'),
    message: issue.message,
  }));
}
