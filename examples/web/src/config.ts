/**
 * Where the gateway is and how to talk to it: `?gateway=<url>` (the tests use it), else the build's
 * VITE_GATEWAY_URL, else the gateway `npm start` runs. `?trusted` (or VITE_TRUSTED_DOCUMENTS=true)
 * sends documents by id only, for a gateway started with TRUSTED_DOCUMENTS=<this app's manifest>.
 */
const params = new URLSearchParams(window.location.search);

export const GATEWAY_URL = params.get('gateway') ?? import.meta.env.VITE_GATEWAY_URL ?? 'http://localhost:4000/graphql';

export const TRUSTED_DOCUMENTS = params.has('trusted') || import.meta.env.VITE_TRUSTED_DOCUMENTS === 'true';

export const WS_URL = GATEWAY_URL.replace(/^http/, 'ws');
