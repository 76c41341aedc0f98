import { PROGRAMS } from '@banking-gateway/settings/sandbox';
import { badRequest } from './http.ts';

/**
 * The card program the sandbox runs (Document 2: "some operations exist only for supported
 * programs"; Document 1, section 9). One program at a time: CARDS (the issuing family, with
 * wallets, KYC and assigned physical cards) or BANKING (cards spend the business balance).
 * This table is the one place that decides what each program allows. Their names are the values
 * of SANDBOX_PROGRAM, declared beside that setting (@banking-gateway/settings/sandbox) so the
 * gateway can hold the sandbox's settings without importing the sandbox.
 */
export { PROGRAMS };
export type Program = (typeof PROGRAMS)[number];

/** Operations only some programs offer, named as the document's change history names them. */
export type Operation =
  | 'Physical card creation'
  | 'Assign Card'
  | 'Reset PIN'
  | 'Load Card'
  | 'Create Wallet'
  | 'Get Wallet Details'
  | 'Wallet history'
  | 'Get Cardholder KYC'
  | 'Get RFI Details'
  | 'Respond to RFI';

export interface ProgramRules {
  operations: ReadonlySet<Operation>;
  /** Card issuance and wallet creation wait for a COMPLETED KYC (Document 2, section 3). */
  ekycGate: boolean;
  /** What card spending draws on: the cardholder's wallet, or the business balance. */
  funds: 'wallet' | 'balance';
}

const RULES: Record<Program, ProgramRules> = {
  CARDS: {
    operations: new Set<Operation>([
      'Assign Card',
      'Reset PIN',
      'Load Card',
      'Create Wallet',
      'Get Wallet Details',
      'Wallet history',
      'Get Cardholder KYC',
      'Get RFI Details',
      'Respond to RFI',
    ]),
    ekycGate: true,
    funds: 'wallet',
  },
  BANKING: { operations: new Set<Operation>(['Physical card creation']), ekycGate: false, funds: 'balance' },
};

export function rulesOf(program: Program): ProgramRules {
  return RULES[program];
}

/** The gateway recognises the suffix `is not supported for the <PROGRAM> program`. */
export function assertSupported(program: Program, operation: Operation): void {
  if (!RULES[program].operations.has(operation)) throw badRequest(`${operation} is not supported for the ${program} program`);
}

/** The program in force: the configured one unless changed at run time; a reset restores it. */
export interface ProgramSetting {
  current(): Program;
  set(program: Program): void;
  reset(): void;
}

export function createProgramSetting(configured: Program): ProgramSetting {
  let program = configured;
  return {
    current: () => program,
    set: (next) => {
      program = next;
    },
    reset: () => {
      program = configured;
    },
  };
}
