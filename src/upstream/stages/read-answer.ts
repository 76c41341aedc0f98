import type { Logger } from '../../platform/logger.ts';
import type { ContractChecks } from '../contract-checks.ts';
import { readBareBody, readEnvelope } from '../envelope.ts';
import { httpErrorFor, UpstreamContractError, UpstreamRateLimitError, type ContractIssue, type UpstreamErrorDetails } from '../errors.ts';
import { contractIssues, readLazily } from '../lazy-model.ts';
import type { RateLimitHolds } from '../rate-limit-holds.ts';
import { parseRetryAfter } from '../retry-policy.ts';
import type { UpstreamCall } from './call.ts';
import type { Answer } from './send.ts';

/** What reading an answer shares with the other calls: the family's 429 holds, the contract's whole checks. */
export interface AnswerReading {
  rateLimitHolds: RateLimitHolds;
  contractChecks: ContractChecks;
}

/**
 * An answer into the endpoint's data, or into a typed error the stages outside act on (retry, auth
 * renewal, breaker). A 429 with Retry-After holds the whole family. The data is read lazily by the
 * endpoint's zod model (lazy-model.ts): each field parsed when first read, a broken one failing
 * alone; the answers contract-checks.ts picks are parsed whole as well, to find drift nobody reads.
 */
export function readAnswer(call: UpstreamCall, answer: Answer, shared: AnswerReading, logger: Logger): unknown {
  const { details, ep } = call;
  const reading = ep.envelope === false ? readBareBody(answer.statusCode, answer.body) : readEnvelope(answer.statusCode, answer.body);
  if (reading.ok === 'malformed') throw contractError([{ path: '(body)', message: reading.reason }], details, logger);
  if (reading.ok === false) {
    const retryAfterMs = parseRetryAfter(answer.headers['retry-after']);
    const error = httpErrorFor(reading.status, reading.message, { ...details, code: reading.code, retryAfterMs });
    if (error instanceof UpstreamRateLimitError && retryAfterMs !== undefined)
      shared.rateLimitHolds.holdOff(call.family, Date.now() + retryAfterMs);
    throw error;
  }
  const checks = shared.contractChecks;
  if (checks.wanted(details.endpoint)) {
    const parsed = ep.data.safeParse(reading.data);
    if (!parsed.success) {
      const issues = contractIssues(parsed.error);
      checks.found(details.endpoint, details.requestId, issues);
      if (checks.failsWhole) throw contractError(issues, details, logger);
    }
  }
  return readLazily(ep.data, reading.data, {
    fail: (issues) => {
      throw contractError(issues, details, logger);
    },
  });
}

function contractError(issues: ContractIssue[], details: UpstreamErrorDetails, logger: Logger): UpstreamContractError {
  const error = new UpstreamContractError(issues, details);
  logger.error({ ...details, issues }, error.message);
  return error;
}
