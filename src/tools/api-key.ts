import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../auth/api-keys.ts';

/**
 * `npm run api-key -- <name>`: a fresh random API key for a caller of AUTH_MODE=service, and the
 * `name:sha256` entry for GATEWAY_API_KEY_HASHES. The gateway keeps only the hash: give the key to
 * the caller and keep it nowhere else.
 */

const NAME = /^[A-Za-z0-9._-]+$/;

function main(argv: string[]): number {
  const name = argv[0] ?? 'caller';
  if (!NAME.test(name)) {
    process.stderr.write(`The name "${name}" may hold only letters, digits, ".", "_" and "-" (it names the caller in logs and metrics)\n`);
    return 2;
  }
  // 32 random bytes: far beyond guessing, and no salt is needed for a hash of a random key.
  const key = `gwk_${randomBytes(32).toString('base64url')}`;
  process.stdout.write(
    [
      `API key for ${name} (give it to the caller, who sends it as x-api-key):`,
      `  ${key}`,
      'Entry for GATEWAY_API_KEY_HASHES (comma-separate several):',
      `  ${name}:${sha256Hex(key)}`,
      '',
    ].join('\n'),
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
