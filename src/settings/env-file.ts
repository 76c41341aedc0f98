import { existsSync } from 'node:fs';

/**
 * `.env` in the working directory, when there is one (copy `.env.example`), into process.env.
 * Variables already set keep their value: the shell wins, as with `node --env-file`. Not that flag:
 * it prints a warning on every start without a file.
 */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
