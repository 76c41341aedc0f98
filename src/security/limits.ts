import type { Plugin } from 'graphql-yoga';
import type { QueryLimitsConfig } from '../config.ts';
import type { Logger } from '../logger.ts';

/** What may be asked: every check here runs before execution. */
export function queryLimitPlugins(_limits: QueryLimitsConfig, _logger: Logger): Plugin[] {
  return [];
}
