export interface SandboxCredentials {
  apiKey: string;
  productId: string;
  userId: string;
  clientKey: string;
  clientSecret: string;
  email: string;
}

export const DEMO_CREDENTIALS: SandboxCredentials = {
  apiKey: 'sandbox-api-key',
  productId: 'sandbox-product',
  userId: 'sandbox-user',
  clientKey: 'sandbox-client-key',
  clientSecret: 'sandbox-client-secret',
  email: 'treasury@acme.example',
};

/** The business behind the demo user; it is the holder name of every account. */
export const DEMO_BUSINESS_NAME = 'Acme Trading Ltd';
