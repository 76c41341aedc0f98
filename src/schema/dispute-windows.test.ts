import { describe, expect, it } from 'vitest';
import { disputeWindow } from './dispute-windows.ts';

const us = (routing: string) => ({ countryCode: 'US', routingCodes: [{ type: 'ach', value: routing }] });
// Friday 20 November 2026, 18:30 UTC.
const FRIDAY = new Date('2026-11-20T18:30:00Z');

describe('dispute windows (Document 3, section 4.3)', () => {
  it('US 0024: 16 hours for a business, 60 days for an individual; 1 and 2 years with review', () => {
    expect(disputeWindow(us('021000024'), FRIDAY, 'BUSINESS')).toEqual({
      rule: 'US ACH routing ending 0024',
      withoutReviewUntil: new Date('2026-11-21T10:30:00Z'),
      withReviewUntil: new Date('2027-11-20T18:30:00Z'),
      indefinite: false,
    });
    const individual = disputeWindow(us('021000024'), FRIDAY, 'INDIVIDUAL')!;
    expect(individual.withoutReviewUntil).toEqual(new Date('2027-01-19T18:30:00Z'));
    expect(individual.withReviewUntil).toEqual(new Date('2028-11-20T18:30:00Z'));
  });

  it('US 0381: 6:00 AM Pacific on the next business day (Friday → Monday)', () => {
    // Monday 23 November 2026, 06:00 PST = 14:00 UTC.
    expect(disputeWindow(us('123000381'), FRIDAY, 'BUSINESS')!.withoutReviewUntil).toEqual(new Date('2026-11-23T14:00:00Z'));
  });

  it('US 3150: 9:00 AM Eastern on the next business day; 6768: 36 hours', () => {
    expect(disputeWindow(us('111003150'), FRIDAY, 'BUSINESS')!.withoutReviewUntil).toEqual(new Date('2026-11-23T14:00:00Z'));
    expect(disputeWindow(us('111006768'), FRIDAY, 'BUSINESS')!.withoutReviewUntil).toEqual(new Date('2026-11-22T06:30:00Z'));
  });

  it('UK: no dispute without review (cancel instead), no limit with review', () => {
    expect(disputeWindow({ countryCode: 'GB', routingCodes: [] }, FRIDAY, 'BUSINESS')).toMatchObject({ withoutReviewUntil: null, withReviewUntil: null, indefinite: true });
  });

  it('AU: 6:45 AM Sydney next business day; CA: 10 pm Mountain on the 4th business day; NL: 10 pm CET next business day and 13 months', () => {
    // Monday 23 November 2026, 06:45 AEDT (UTC+11) = Sunday 22 November 19:45 UTC.
    expect(disputeWindow({ countryCode: 'AU', routingCodes: [] }, FRIDAY, 'BUSINESS')!.withoutReviewUntil).toEqual(new Date('2026-11-22T19:45:00Z'));
    // Thursday 26 November 2026, 22:00 in Edmonton. The time-zone data Node ships keeps Alberta on
    // UTC-6 all year now, so that is Friday 27 November 04:00 UTC.
    expect(disputeWindow({ countryCode: 'CA', routingCodes: [] }, FRIDAY, 'BUSINESS')!.withoutReviewUntil).toEqual(new Date('2026-11-27T04:00:00Z'));
    const nl = disputeWindow({ countryCode: 'NL', routingCodes: [] }, FRIDAY, 'BUSINESS')!;
    // Monday 23 November 2026, 22:00 CET (UTC+1) = 21:00 UTC.
    expect(nl.withoutReviewUntil).toEqual(new Date('2026-11-23T21:00:00Z'));
    expect(nl.withReviewUntil).toEqual(new Date('2027-12-20T18:30:00Z'));
  });

  it('has no window for places the document does not list', () => {
    expect(disputeWindow({ countryCode: 'SG', routingCodes: [] }, FRIDAY, 'BUSINESS')).toBeNull();
    expect(disputeWindow(us('021000099'), FRIDAY, 'BUSINESS')).toBeNull();
  });
});
