import { describe, expect, it } from 'vitest';
import { KYC_PATH, TOKEN_ERROR, call, control, envelopeError, issuingHeaders, readyCardholder, useSandbox } from './helpers.ts';

const t = useSandbox();

const kyc = (path: string, cardholderId: string, overrides: Record<string, string | undefined> = {}) =>
  call(t.sandbox, `${KYC_PATH}${path}`, { headers: issuingHeaders('kyc', cardholderId, overrides) });

describe('KYC headers (section 4.4)', () => {
  it.each(['x-api-key', 'x-product-id', 'x-cardholderHash-id', 'x-client-id', 'x-request-id', 'Content-Type'])(
    'name a missing %s',
    async (name) => {
      const response = await kyc('', 'chd_demo_ava', { [name.toLowerCase()]: undefined });
      expect(response.body).toEqual(envelopeError(400, `${name} is a required header and is missing`));
    },
  );

  it('take Authorization as optional, but only a valid one', async () => {
    expect((await kyc('', 'chd_demo_ava')).status).toBe(200);
    expect((await kyc('', 'chd_demo_ava', { authorization: `Bearer ${t.api.token}` })).status).toBe(200);
    expect((await kyc('', 'chd_demo_ava', { authorization: 'Bearer expired.or.forged' })).body).toEqual(TOKEN_ERROR);
  });

  it('take any x-client-id', async () => {
    expect((await kyc('', 'chd_demo_ava', { 'x-client-id': 'whoever' })).status).toBe(200);
  });
});

describe('GET /issuing/api/v1/kyc', () => {
  it('answers COMPLETED with no link for a verified cardholder', async () => {
    const response = await kyc('', 'chd_demo_ava');
    expect(response.body).toEqual({
      code: 200,
      status: 'success',
      message: 'KYC status retrieved successfully',
      data: [{ kycStatus: 'COMPLETED', kycLink: '', documentType: 'E_KYC', complianceStatus: 'COMPLETED', email: 'ava.chen@acme.example' }],
    });
  });

  it('answers PENDING with a submission link', async () => {
    expect((await kyc('', 'chd_demo_new')).body.data).toEqual([
      {
        kycStatus: 'PENDING',
        kycLink: 'https://kyc.sandbox.example/submit/chd_demo_new',
        documentType: 'E_KYC',
        complianceStatus: 'IN_PROGRESS',
        email: 'liam.patel@acme.example',
      },
    ]);
  });

  it('opens a PENDING record with every new cardholder, completed through the control API', async () => {
    const holder = await readyCardholder(t.sandbox, t.api, { kyc: false });
    expect((await kyc('', holder.id)).body.data[0]).toMatchObject({ kycStatus: 'PENDING', complianceStatus: 'IN_PROGRESS' });
    const completed = await control(t.sandbox, 'POST', `/kyc/${holder.id}/complete`);
    expect(completed.body).toEqual({ kyc: expect.objectContaining({ kycStatus: 'COMPLETED', kycLink: '' }) });
    expect((await kyc('', holder.id)).body.data[0]).toMatchObject({ kycStatus: 'COMPLETED', complianceStatus: 'COMPLETED', kycLink: '' });
  });

  it('answers an unknown cardholder with an error', async () => {
    expect((await kyc('', 'chd_ghost')).body).toEqual(envelopeError(400, 'Cardholder chd_ghost not found'));
  });
});

describe('KYC requests for information', () => {
  it('has none open: empty lists and an empty reason', async () => {
    const response = await kyc('/rfi', 'chd_demo_new');
    expect(response.body.message).toBe('RFI details retrieved successfully');
    expect(response.body.data).toEqual([{ services_declined_codes: { address: [], document: [] }, declined_reason: '' }]);
  });

  it('records a rejection, keeps the cardholder PENDING and clears it on completion', async () => {
    const rejection = {
      reason: 'The address document is older than three months',
      address_codes: ['ADDRESS_PROOF_EXPIRED'],
      document_codes: ['DOC_BLURRY', 'DOC_CROPPED'],
    };
    const rejected = await control(t.sandbox, 'POST', '/kyc/chd_demo_new/reject', rejection);
    expect(rejected.body.rfi).toEqual({
      services_declined_codes: { address: ['ADDRESS_PROOF_EXPIRED'], document: ['DOC_BLURRY', 'DOC_CROPPED'] },
      declined_reason: 'The address document is older than three months',
    });
    expect((await kyc('/rfi', 'chd_demo_new')).body.data).toEqual([rejected.body.rfi]);
    expect((await kyc('', 'chd_demo_new')).body.data[0].kycStatus).toBe('PENDING');

    await control(t.sandbox, 'POST', '/kyc/chd_demo_new/complete');
    expect((await kyc('/rfi', 'chd_demo_new')).body.data).toEqual([
      { services_declined_codes: { address: [], document: [] }, declined_reason: '' },
    ]);
  });

  it('gives the RFI answer link', async () => {
    const response = await kyc('/rfi/respond', 'chd_demo_new');
    expect(response.body.message).toBe('RFI response link generated successfully');
    expect(response.body.data).toEqual([
      expect.objectContaining({ kycStatus: 'PENDING', kycLink: 'https://kyc.sandbox.example/rfi/chd_demo_new' }),
    ]);
  });

  it('refuses rejecting a completed check, a reason-less rejection and an unknown cardholder', async () => {
    expect((await control(t.sandbox, 'POST', '/kyc/chd_demo_ava/reject', { reason: 'late' })).body).toEqual({
      error: 'KYC of cardholder chd_demo_ava is already completed',
    });
    expect((await control(t.sandbox, 'POST', '/kyc/chd_demo_new/reject', {})).body).toEqual({ error: 'reason is required' });
    expect((await control(t.sandbox, 'POST', '/kyc/chd_ghost/complete')).body).toEqual({ error: 'Cardholder chd_ghost not found' });
  });
});
