import { formatApiTime } from '../../time.ts';
import type { AccountRfi, RfiQuestion } from './types.ts';

const AVA = { id: 'rep_demo_ava', type: 'PERSON' as const, person: { first_name: 'Ava', last_name: 'Chen' } };

function question(fields: Pick<RfiQuestion, 'id' | 'title' | 'description' | 'answer'> & Partial<RfiQuestion>): RfiQuestion {
  return { trigger: 'OTHERS', attachments: [], uploaded_orders: [], sources: [AVA], ...fields };
}

/**
 * The seeded KYC RFI (section 2.10): ACTION_REQUIRED, asking the owner for a liveness check
 * and her residential address, after an earlier request (the business description) was
 * answered. Dated relative to the seed's "now".
 */
export function demoKycRfi(now: number): Omit<AccountRfi, 'account_id'> {
  const day = 86_400_000;
  const opened = formatApiTime(now - 20 * day);
  const answered = formatApiTime(now - 18 * day);
  const asked = formatApiTime(now - 2 * day);
  return {
    id: 'rfi_demo_kyc',
    type: 'KYC',
    status: 'ACTION_REQUIRED',
    created_at: opened,
    updated_at: asked,
    answered_requests: [
      {
        created_at: opened,
        updated_at: answered,
        questions: [
          question({
            id: 'rfq_demo_business',
            title: { en: 'Business activity', zh: '业务活动' },
            description: { en: 'Describe the goods or services your business sells.', zh: '请描述贵公司销售的商品或服务。' },
            answer: { type: 'TEXT', text: 'Wholesale of electronic components to retailers in the US and Asia.' },
          }),
        ],
      },
    ],
    active_request: {
      created_at: asked,
      updated_at: asked,
      questions: [
        question({
          id: 'rfq_demo_liveness',
          key: 'LIVENESS',
          title: { en: 'Identity verification', zh: '身份验证' },
          description: { en: 'Complete a short selfie video check.', zh: '请完成简短的自拍视频验证。' },
          answer: { type: 'LIVENESS' },
          liveness: { url: 'https://kyc.sandbox.example/liveness/rep_demo_ava', status: 'NOT_STARTED' },
        }),
        question({
          id: 'rfq_demo_address',
          key: 'RESIDENTIAL_ADDRESS',
          title: { en: 'Residential address', zh: '居住地址' },
          description: { en: 'Provide the residential address of the business owner.', zh: '请提供企业所有人的居住地址。' },
          answer: { type: 'ADDRESS' },
        }),
      ],
    },
  };
}
