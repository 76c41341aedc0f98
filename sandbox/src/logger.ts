/** Where the sandbox logs: a pino logger (the gateway's, embedded) or main.ts's JSON lines. */
export interface SandboxLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}
