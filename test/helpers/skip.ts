/**
 * Whether a suite that needs something from the machine must be skipped. When it is, the reason is
 * printed (vitest's default output lists skipped files without their titles), so a skipped suite
 * never passes for a run one.
 */
export function mustSkip(available: boolean, reason: string): boolean {
  if (!available) console.warn(`skipped: ${reason}`);
  return !available;
}
