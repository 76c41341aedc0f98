/** Intake credentials the kit's gateway expects and the kit's sandbox signs with. */
export const KIT_WEBHOOKS = { apiKey: 'kit-webhook-key', signingSecret: 'kit-signing-secret' } as const;
