import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../src/index.ts';
import { TOKEN_ERROR, useSandbox } from './helpers.ts';

const t = useSandbox();

const API_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

describe('GET /svc/api/v1/user', () => {
  it('answers the profile with envelope status Success and every field of section 2.9', async () => {
    const response = await t.api.get('/svc/api/v1/user');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: 'Success', message: 'User details retrieved successfully' });
    expect(response.body.data).toHaveLength(1);
    const profile = response.body.data[0];
    expect(Object.keys(profile)).toEqual([
      'id',
      'status',
      'entity_type',
      'tos_acceptance',
      'account_details',
      'agreements',
      'contact_details',
      'representatives',
    ]);
    expect(profile).toMatchObject({
      id: DEMO_CREDENTIALS.userId,
      status: 'ACTIVE',
      entity_type: 'BUSINESS',
      tos_acceptance: { date: expect.stringMatching(API_TIME), ip: '203.0.113.24', user_agent: expect.any(String) },
      agreements: { agreed_to_terms_and_conditions: true },
      contact_details: { phone: '+14155550100', email: DEMO_CREDENTIALS.email },
    });
    expect(profile.account_details).toEqual({
      industry_category_code: 'WHOLESALE_TRADE',
      business_name: 'Acme Trading Ltd',
      operating_country: ['US', 'GB', 'SG'],
      business_address: { country_code: 'US', address_line1: '100 Market Street', postcode: '94105', suburb: 'San Francisco', state: 'CA' },
      registration_number: 'C4839201',
      description_of_goods_or_services: 'Wholesale of electronic components to retailers',
      trade_name: 'Acme Trading',
      monthly_estimated_revenue: { amount: '250000', currency: 'USD' },
      account_usage: {
        account_purpose: expect.arrayContaining(['PAYING_SUPPLIERS']),
        product_reference: expect.arrayContaining(['CARDS']),
      },
      business_structure: 'SOLE_PROPRIETOR',
      website_url: 'https://acme-trading.example',
      registration_address: {
        country: 'US',
        city: 'San Francisco',
        state: 'CA',
        postal_code: '94105',
        line1: '100 Market Street',
        line2: 'Suite 400',
      },
      incorporation_date: '2019-04-15',
    });
    expect(profile.representatives[0]).toEqual({
      id: 'rep_demo_ava',
      first_name: 'Ava',
      last_name: 'Chen',
      role: 'OWNER',
      email: 'ava.chen@acme.example',
    });
  });

  it('uses the standard headers', async () => {
    const response = await t.api.get('/svc/api/v1/user', { headers: { authorization: undefined } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(TOKEN_ERROR);
  });
});

describe('GET /svc/api/v1/user/rfi', () => {
  it('answers data [{ items }] with the KYC RFI, its active and answered requests', async () => {
    const response = await t.api.get('/svc/api/v1/user/rfi');
    expect(response.body).toMatchObject({ code: 200, status: 'success' });
    expect(response.body.data).toHaveLength(1);
    const [item] = response.body.data[0].items;
    expect(item).toMatchObject({
      account_id: DEMO_CREDENTIALS.userId,
      id: 'rfi_demo_kyc',
      type: 'KYC',
      status: 'ACTION_REQUIRED',
      created_at: expect.stringMatching(API_TIME),
      updated_at: expect.stringMatching(API_TIME),
    });
    const [liveness, address] = item.active_request.questions;
    expect(liveness).toEqual({
      id: 'rfq_demo_liveness',
      trigger: 'OTHERS',
      key: 'LIVENESS',
      title: { en: 'Identity verification', zh: '身份验证' },
      description: { en: 'Complete a short selfie video check.', zh: expect.any(String) },
      attachments: [],
      uploaded_orders: [],
      sources: [{ id: 'rep_demo_ava', type: 'PERSON', person: { first_name: 'Ava', last_name: 'Chen' } }],
      answer: { type: 'LIVENESS' },
      liveness: { url: 'https://kyc.sandbox.example/liveness/rep_demo_ava', status: 'NOT_STARTED' },
    });
    expect(address).toMatchObject({
      key: 'RESIDENTIAL_ADDRESS',
      answer: { type: 'ADDRESS' },
      title: { en: 'Residential address', zh: '居住地址' },
    });
    expect(address).not.toHaveProperty('liveness');
    expect(item.answered_requests).toHaveLength(1);
    expect(item.answered_requests[0].questions[0]).toMatchObject({ answer: { type: 'TEXT', text: expect.any(String) } });
  });
});
