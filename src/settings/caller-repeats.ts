/**
 * An entry written twice in the caller settings: the gateway would keep one of them silently (the
 * last user's roles, one of two names for a key), so the start stops and names it. Read from the raw
 * lists, so a repeat is reported beside a malformed entry.
 */

import { repeats, type RawEnvironment } from './raw-environment.ts';

export function repeatedEntryProblems({ entries, variable }: RawEnvironment): string[] {
  const twice = (
    path: string,
    what: string,
    keyOf: (entry: string) => string | undefined,
    shown: (entry: string) => string | undefined = keyOf,
  ) => repeats(entries(path), keyOf).map((entry) => `${variable(path)} names the ${what} "${shown(entry)}" twice`);
  const origin = (entry: string) => entry.replace(/\/+$/, '');
  return [
    ...twice('auth.apiKeyHashes', 'key', (entry) => entry.split(':')[0]!),
    ...sameKeyHashProblems(entries('auth.apiKeyHashes'), variable('auth.apiKeyHashes')),
    ...twice('auth.passthroughUserRoles', 'bank user', (entry) =>
      entry.lastIndexOf(':') > 0 ? entry.slice(0, entry.lastIndexOf(':')) : undefined,
    ),
    ...twice('auth.jwtRoleClaims', 'claim', (entry) => entry),
    ...twice('auth.jwtPermissionClaims', 'claim', (entry) => entry),
    // Origins compare without case (a browser sends its scheme and host in lower case).
    ...twice('auth.allowedOrigins', 'origin', (entry) => origin(entry).toLowerCase(), origin),
  ];
}

/** Two names for one key: the caller would act under whichever the matcher meets first. */
function sameKeyHashProblems(entries: string[], HASHES: string): string[] {
  const namesByHash = new Map<string, string[]>();
  for (const [name = '', hash = ''] of entries.map((entry) => entry.split(':'))) {
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) continue;
    namesByHash.set(hash.toLowerCase(), [...(namesByHash.get(hash.toLowerCase()) ?? []), name]);
  }
  return [...namesByHash.values()]
    .filter((names) => names.length > 1)
    .map((names) => `${HASHES} gives the keys ${names.map((n) => `"${n}"`).join(' and ')} the same hash: one key is one caller`);
}
