import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { ViewerDocument, ViewerRfisDocument } from '../generated/graphql.ts';
import { rawUpstream, useKit } from '../helpers/kit.ts';

const kit = useKit();

const USER_PATH = '/svc/api/v1/user';
const RFI_PATH = '/svc/api/v1/user/rfi';

/** The upstream's `yyyy-MM-ddTHH:mm:ss+0000` as the graph's DateTime. */
const utc = (text: string) => new Date(text.replace('+0000', 'Z')).toISOString();
const en = (text: string) => ({ language: 'en', text });
const zh = (text: string) => ({ language: 'zh', text });

describe('viewer', () => {
  it("reads the business's profile, every field of section 2.9, with one call", async () => {
    const raw = await rawUpstream(kit, 'GET', USER_PATH);
    // The document's capital-S spelling of the envelope status.
    expect(raw.body.status).toBe('Success');
    const profile = raw.body.data[0];
    await kit.resetCounts();

    const result = await kit.execute(ViewerDocument);
    expect(result.errors).toBeUndefined();
    expect(result.data!.viewer).toEqual({
      upstreamId: DEMO_CREDENTIALS.userId,
      status: 'ACTIVE',
      entityType: 'BUSINESS',
      agreedToTermsAndConditions: true,
      termsOfServiceAcceptance: {
        acceptedAt: utc(profile.tos_acceptance.date),
        ip: '203.0.113.24',
        userAgent: profile.tos_acceptance.user_agent,
      },
      contactDetails: { email: DEMO_CREDENTIALS.email, phone: '+14155550100' },
      representatives: [
        { upstreamId: 'rep_demo_ava', firstName: 'Ava', lastName: 'Chen', role: 'OWNER', email: 'ava.chen@acme.example' },
        {
          upstreamId: 'rep_demo_jordan',
          firstName: 'Jordan',
          lastName: 'Miles',
          role: 'AUTHORIZED_REPRESENTATIVE',
          email: 'jordan.miles@acme.example',
        },
      ],
      accountDetails: {
        businessName: 'Acme Trading Ltd',
        tradeName: 'Acme Trading',
        businessStructure: 'SOLE_PROPRIETOR',
        registrationNumber: 'C4839201',
        incorporationDate: '2019-04-15',
        industryCategoryCode: profile.account_details.industry_category_code,
        descriptionOfGoodsOrServices: profile.account_details.description_of_goods_or_services,
        websiteUrl: profile.account_details.website_url,
        operatingCountries: ['US', 'GB', 'SG'],
        monthlyEstimatedRevenue: { amount: '250000', currency: 'USD' },
        accountPurposes: profile.account_details.account_usage.account_purpose,
        productReferences: profile.account_details.account_usage.product_reference,
        businessAddress: { addressLine1: '100 Market Street', suburb: 'San Francisco', state: 'CA', postcode: '94105', countryCode: 'US' },
        registrationAddress: {
          line1: '100 Market Street',
          line2: 'Suite 400',
          city: 'San Francisco',
          state: 'CA',
          postalCode: '94105',
          country: 'US',
        },
      },
    });
    expect(result.data!.viewer!.accountDetails!.accountPurposes).toContain('CARD_SPENDING');
    // The RFIs are read only when asked for.
    expect(kit.calls(USER_PATH)).toEqual([expect.objectContaining({ status: 200 })]);
    expect(kit.calls(RFI_PATH)).toHaveLength(0);
  });

  it("lists the account's requests for information with their questions", async () => {
    const raw = (await rawUpstream(kit, 'GET', RFI_PATH)).body.data[0].items;
    await kit.resetCounts();

    const result = await kit.execute(ViewerRfisDocument, { first: 10 });
    expect(result.errors).toBeUndefined();
    const rfis = result.data!.viewer!.rfis!;
    expect(rfis.pageInfo.hasNextPage).toBe(false);
    expect(rfis.nodes).toHaveLength(raw.length);
    const [rfi] = rfis.nodes;
    const [rawRfi] = raw;
    expect(rfi).toMatchObject({
      upstreamId: 'rfi_demo_kyc',
      accountUpstreamId: DEMO_CREDENTIALS.userId,
      type: 'KYC',
      status: 'ACTION_REQUIRED',
      createdAt: utc(rawRfi.created_at),
      updatedAt: utc(rawRfi.updated_at),
    });
    const ava = { upstreamId: 'rep_demo_ava', type: 'PERSON', firstName: 'Ava', lastName: 'Chen' };
    expect(rfi!.activeRequest).toEqual({
      createdAt: utc(rawRfi.active_request.created_at),
      updatedAt: utc(rawRfi.active_request.updated_at),
      questions: [
        {
          upstreamId: 'rfq_demo_liveness',
          key: 'LIVENESS',
          trigger: 'OTHERS',
          answerType: 'LIVENESS',
          title: [en('Identity verification'), zh('身份验证')],
          description: [en('Complete a short selfie video check.'), zh('请完成简短的自拍视频验证。')],
          liveness: { url: 'https://kyc.sandbox.example/liveness/rep_demo_ava', status: 'NOT_STARTED' },
          sources: [ava],
          attachmentCount: 0,
          uploadedOrderCount: 0,
        },
        {
          upstreamId: 'rfq_demo_address',
          key: 'RESIDENTIAL_ADDRESS',
          trigger: 'OTHERS',
          answerType: 'ADDRESS',
          title: [en('Residential address'), zh('居住地址')],
          description: [en('Provide the residential address of the business owner.'), zh('请提供企业所有人的居住地址。')],
          liveness: null,
          sources: [ava],
          attachmentCount: 0,
          uploadedOrderCount: 0,
        },
      ],
    });
    expect(rfi!.answeredRequests).toEqual([
      {
        createdAt: utc(rawRfi.answered_requests[0].created_at),
        updatedAt: utc(rawRfi.answered_requests[0].updated_at),
        questions: [
          expect.objectContaining({
            upstreamId: 'rfq_demo_business',
            key: null,
            answerType: 'TEXT',
            title: [en('Business activity'), zh('业务活动')],
          }),
        ],
      },
    ]);
    expect(kit.calls(RFI_PATH)).toEqual([expect.objectContaining({ status: 200 })]);
  });
});
