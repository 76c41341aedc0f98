import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../authentication/api-keys.ts';
import { parseGrants, ROLE_NAMES } from '../authorization/permissions.ts';

/**
 * `npm run api-key -- <name> <roles>`: a fresh random API key for a caller of AUTH_MODE=service, and
 * the `name:sha256:roles` entry for GATEWAY_API_KEY_HASHES. The gateway keeps only the hash: give
 * the key to the caller and keep it nowhere else.
 */

const NAME = /^[A-Za-z0-9._-]+$/;
const USAGE = `npm run api-key -- <name> <roles>   roles: role+role (${ROLE_NAMES.join(', ')}), or cardholder@<cardholder id>`;

function main(argv: string[]): number {
  const [name, roles] = argv;
  if (name === undefined || roles === undefined) {
    process.stderr.write(`Give the key a name and its roles: ${USAGE}\n`);
    return 2;
  }
  if (!NAME.test(name)) {
    process.stderr.write(
      `The name "${name}" may hold only letters, digits, ".", "_" and "-" (it names the caller in logs, metrics and the audit trail)\n`,
    );
    return 2;
  }
  const grants = parseGrants(roles);
  if ('problem' in grants) {
    process.stderr.write(`The roles "${roles}" will not do: ${grants.problem}\n`);
    return 2;
  }
  // 32 random bytes: far beyond guessing, and no salt is needed for a hash of a random key.
  const key = `gwk_${randomBytes(32).toString('base64url')}`;
  process.stdout.write(
    [
      `API key for ${name} (give it to the caller, who sends it as x-api-key):`,
      `  ${key}`,
      'Entry for GATEWAY_API_KEY_HASHES (comma-separate several):',
      `  ${name}:${sha256Hex(key)}:${roles}`,
      '',
    ].join('\n'),
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
