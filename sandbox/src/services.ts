/**
 * What domains publish for one another, through the core. A domain that offers a helper (the
 * cardholders domain's readyCardholder, the wallets domain's moveWallet...) declares it here by
 * declaration merging, from its own services.ts, and hands the implementation to the core in its
 * Domain's `services`; a domain that needs it calls `store.services.readyCardholder(...)` and
 * imports nothing of the provider. domains/index.ts checks at compile time that every declared
 * service has a provider.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the domains
export interface SandboxServices {}
