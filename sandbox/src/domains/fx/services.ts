import { createQuote } from './quotes.ts';
import { claimOf, claimQuote, usableQuote } from './quote-use.ts';

/** What the FX domain offers the others, through the core (services.ts). */
export const quoteServices = { createQuote, claimOf, usableQuote, claimQuote };

declare module '../../services.ts' {
  interface SandboxServices extends Readonly<typeof quoteServices> {}
}
