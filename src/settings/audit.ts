/** The audit trail (AUDIT_*): where its records go, and the cap of its Redis Stream. */

import { group, int, setting, unsetIfEmpty } from '@banking-gateway/settings';
import { z } from 'zod';

/** Where audit records go: stdout, a file (by its path), or nowhere. */
const AUDIT_DEFAULT_DESTINATION = 'stdout';

/** AUDIT_LOG, read: where audit records go besides the Redis Stream. */
type AuditDestinationSetting = { kind: 'stdout' } | { kind: 'off' } | { kind: 'file'; path: string };

const auditDestination = z
  .preprocess(unsetIfEmpty, z.string().default(AUDIT_DEFAULT_DESTINATION))
  .transform((value): AuditDestinationSetting => (value === 'stdout' || value === 'off' ? { kind: value } : { kind: 'file', path: value }))
  .meta({ rule: '`stdout`, `off` or a file path' });

export const auditGroup = group(
  'The audit trail',
  'One JSON line per mutation attempt, allowed or refused: who, what, on which records, how it ended. See [operations.md](operations.md#the-audit-trail).',
  {
    destination: setting(
      'AUDIT_LOG',
      auditDestination,
      'where audit records go: `stdout` (its own JSON lines, beside the log), a file path (appended), or `off`',
      // The schema reads the default into a destination: the docs say it in words.
      `\`${AUDIT_DEFAULT_DESTINATION}\``,
    ),
    redisMaxLen: setting(
      'AUDIT_REDIS_STREAM_MAX_LEN',
      int(1_000, 100_000_000, 1_000_000),
      'with `REDIS_URL`, every record also goes to the Redis Stream `audit`, shared by every instance and capped near this many records',
    ),
  },
);

/** The audit trail: its destination and the cap of its Redis Stream. */
export type AuditConfig = z.output<typeof auditGroup>;
