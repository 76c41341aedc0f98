import { createHash } from 'node:crypto';
import type { Random } from '../../random.ts';

/**
 * Card numbers are secrets. A full number exists only while a request that carries one is
 * handled (Assign Card) or while a new card's number is drawn: it is cut down to these parts
 * at once and never stored, echoed, logged or put into a message. Everything shown is
 * `<first 6>******<last 4>`.
 */
export interface CardNumberParts {
  firstSix: string;
  lastFour: string;
  /** Tells whether a number was assigned before without keeping it. */
  digest: string;
  scheme: string;
}

export function cardNumberParts(digits: string): CardNumberParts {
  return { firstSix: digits.slice(0, 6), lastFour: digits.slice(-4), digest: secretDigest(digits), scheme: schemeOf(digits) };
}

/** Always six stars, whatever the length, as the contract writes the masked form. */
export function maskedNumber(card: { firstSix: string; lastFour: string }): string {
  return `${card.firstSix}******${card.lastFour}`;
}

/** Card numbers, PINs: compared by digest, never kept in clear. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function luhnValid(digits: string): boolean {
  return luhnSum(digits) % 10 === 0;
}

// The sandbox's own BIN, in the Visa range.
const SANDBOX_BIN = '428839';

/** A new 16-digit Luhn-valid number for a card the bank issues itself. */
export function drawCardNumber(random: Random): string {
  const body = `${SANDBOX_BIN}${random.digits(9)}`;
  const check = (10 - (luhnSum(`${body}0`) % 10)) % 10;
  return `${body}${check}`;
}

function luhnSum(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    const digit = Number(digits[digits.length - 1 - index]);
    const doubled = index % 2 === 1 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return sum;
}

/** The card network by its leading digits; the document names the field, not the values. */
function schemeOf(digits: string): string {
  if (digits.startsWith('4')) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'MASTERCARD';
  if (/^3[47]/.test(digits)) return 'AMEX';
  return 'OTHER';
}
