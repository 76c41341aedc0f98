import type { GlobalAccount } from '../upstream/direct-debit.ts';

/**
 * Document 3, section 4.3: how long a direct debit payout can be disputed, by the location (and
 * routing) of the global account and by the payer type. Disputes go through support; the graph
 * shows the deadlines so a frontend can say whether there is still time.
 *
 * The document names "one specific" UK sort code pair, AU BSB, CA institution number and NL SWIFT
 * code without giving them: any GB, AU, CA or NL global account is taken to be that one.
 */

export type PayerType = 'BUSINESS' | 'INDIVIDUAL';

export interface DisputeWindow {
  /** Which row of the table applied. */
  rule: string;
  /** Last moment to dispute without review; null when not applicable (e.g. UK: cancel instead). */
  withoutReviewUntil: Date | null;
  /** Last moment to dispute with review; null when there is no limit (or no dispute at all, see `indefinite`). */
  withReviewUntil: Date | null;
  /** True when disputes with review have no deadline. */
  indefinite: boolean;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const addHours = (t: Date, hours: number) => new Date(t.getTime() + hours * HOUR);
const addDays = (t: Date, days: number) => new Date(t.getTime() + days * DAY);
const addMonths = (t: Date, months: number) => {
  const d = new Date(t);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
};
const addYears = (t: Date, years: number) => addMonths(t, years * 12);

/** Wall-clock parts of an instant in a time zone. */
function partsIn(timeZone: string, instant: Date) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'short',
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { y: Number(get('year')), m: Number(get('month')), d: Number(get('day')), h: Number(get('hour')), min: Number(get('minute')), s: Number(get('second')), weekday: get('weekday') };
}

/** The UTC instant of a wall-clock time in a time zone (DST included). */
function zonedTime(timeZone: string, y: number, m: number, d: number, h: number, min: number): Date {
  let guess = Date.UTC(y, m - 1, d, h, min);
  // Two passes settle the zone offset, even across a DST change.
  for (let i = 0; i < 2; i++) {
    const p = partsIn(timeZone, new Date(guess));
    const shown = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s);
    guess += Date.UTC(y, m - 1, d, h, min) - shown;
  }
  return new Date(guess);
}

/** `hh:mm` local time on the N-th business day (Mon-Fri) after T's local date, in a time zone. */
function businessDayAt(t: Date, businessDays: number, timeZone: string, hour: number, minute: number): Date {
  const local = partsIn(timeZone, t);
  let day = new Date(Date.UTC(local.y, local.m - 1, local.d));
  let left = businessDays;
  while (left > 0) {
    day = addDays(day, 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return zonedTime(timeZone, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), hour, minute);
}

/** Section 4.3's US rows, by the last four digits of the ACH routing code. */
const US_ROUTES: Record<string, { rule: string; business: (t: Date) => Date }> = {
  '0024': { rule: 'US ACH routing ending 0024', business: (t) => addHours(t, 16) },
  '0381': { rule: 'US ACH routing ending 0381', business: (t) => businessDayAt(t, 1, 'America/Los_Angeles', 6, 0) },
  '6768': { rule: 'US ACH routing ending 6768', business: (t) => addHours(t, 36) },
  '3150': { rule: 'US ACH routing ending 3150', business: (t) => businessDayAt(t, 1, 'America/New_York', 9, 0) },
};

function achRoute(account: Pick<GlobalAccount, 'routingCodes'>): string | undefined {
  const code = account.routingCodes.find((r) => /ach|aba|routing/i.test(r.type));
  return code?.value.slice(-4);
}

/** The window for a payout created at `createdAt` on `account`, or null where the document has no row. */
export function disputeWindow(account: Pick<GlobalAccount, 'countryCode' | 'routingCodes'>, createdAt: Date, payer: PayerType): DisputeWindow | null {
  const t = createdAt;
  switch (account.countryCode) {
    case 'US': {
      const route = US_ROUTES[achRoute(account) ?? ''];
      if (!route) return null;
      return {
        rule: route.rule,
        withoutReviewUntil: payer === 'BUSINESS' ? route.business(t) : addDays(t, 60),
        withReviewUntil: payer === 'BUSINESS' ? addYears(t, 1) : addYears(t, 2),
        indefinite: false,
      };
    }
    case 'GB':
      return { rule: 'United Kingdom: cancel mandates and payouts instead; disputes with review have no limit', withoutReviewUntil: null, withReviewUntil: null, indefinite: true };
    case 'AU':
      return { rule: 'Australia', withoutReviewUntil: businessDayAt(t, 1, 'Australia/Sydney', 6, 45), withReviewUntil: addYears(t, 7), indefinite: false };
    case 'CA':
      return { rule: 'Canada', withoutReviewUntil: businessDayAt(t, 4, 'America/Edmonton', 22, 0), withReviewUntil: null, indefinite: true };
    case 'NL':
      return {
        rule: 'Europe (Netherlands)',
        withoutReviewUntil: payer === 'BUSINESS' ? businessDayAt(t, 1, 'Europe/Amsterdam', 22, 0) : addMonths(t, 3),
        withReviewUntil: addMonths(t, 13),
        indefinite: false,
      };
    default:
      return null;
  }
}
