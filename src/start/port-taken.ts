/**
 * A port that cannot be had is the operator's to fix: one line naming the variable that moves it,
 * exit 1, no stack trace. Any other error is thrown on as it was.
 */
export function exitIfPortTaken(error: unknown, variable: 'PORT' | 'SANDBOX_PORT', command: string): never {
  const { code, port } = error as { code?: string; port?: number };
  if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
  const why = code === 'EADDRINUSE' ? 'is in use by another process' : 'needs privileges this process lacks';
  process.stderr.write(
    `Port ${port} ${why}: set ${variable} to another port (for example ${variable}=${(port ?? 4000) + 100} ${command}).\n`,
  );
  process.exit(1);
}
