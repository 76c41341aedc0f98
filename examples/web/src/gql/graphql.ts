/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Lifecycle of an account. CLOSED is final. */
export type AccountStatus =
  /** Open: can receive and send money. */
  | 'ACTIVE'
  /** Closed for good. */
  | 'CLOSED'
  /** Open but not usable for now. */
  | 'INACTIVE';

/** Whether a card can be used. */
export type CardStatus =
  /** Usable for authorisations. */
  | 'ACTIVE'
  /** Closed for good. */
  | 'CLOSED'
  /** Not usable: a physical card before activation, or a card switched off. */
  | 'INACTIVE';

/** Virtual or physical card (the card list spells physical "PHY"). */
export type CardType =
  /** A plastic card; inactive until activated. */
  | 'PHYSICAL'
  /** A card number for online use; active at once. */
  | 'VIRTUAL';

/** When a conversion against the quote settles. */
export type ConversionSchedule =
  /** At the end of the current day (UTC). */
  | 'END_OF_DAY'
  /** At once. */
  | 'IMMEDIATE'
  /** On the next day. */
  | 'NEXT_DAY'
  /** Two days after the quote. */
  | 'TWO_DAYS';

/** How long a quote guarantees its rate. */
export type LockPeriod =
  /** 4 hours. */
  | 'HOURS_4'
  /** 8 hours. */
  | 'HOURS_8'
  /** 24 hours. */
  | 'HOURS_24'
  /** 1 hour. */
  | 'HOUR_1'
  /** 5 minutes. */
  | 'MINUTES_5'
  /** 15 minutes. */
  | 'MINUTES_15';

/** A payout to a beneficiary against a payout quote: currencies and amount must be the quote’s. */
export type PayoutCreateInput = {
  /** The beneficiary: its global ID (`Beneficiary.id`) or the bank's own id. */
  beneficiaryId: string | number;
  /** Amount in the destination currency; give this or sourceAmount. */
  destinationAmount?: string | null | undefined;
  /** Country the money goes to. */
  destinationCountry: string;
  /** Currency received. */
  destinationCurrency: string;
  /** Who pays the fees. */
  feeType: PayoutFeeType;
  /** A payout quote: its global ID (`Quote.id`) or the bank's own id. */
  quoteId: string | number;
  /** Payment reference or remark the beneficiary sees. */
  reference: string;
  /** Day to pay out: today or later (UTC). Default: today. */
  scheduledDate?: string | null | undefined;
  /** Amount in the source currency; give this or destinationAmount. */
  sourceAmount?: string | null | undefined;
  /** Currency paid from. */
  sourceCurrency: string;
  /** Purpose or source of the funds. */
  sourceOfFunds: string;
  /** LOCAL or SWIFT; the beneficiary must support it. */
  transferMethod: TransferMethod;
};

/** Who pays the transfer fees. */
export type PayoutFeeType =
  /** The business pays all fees; the beneficiary receives the full amount. */
  | 'OUR'
  /** Fees are shared: the beneficiary bears the receiving side. */
  | 'SHA';

/** Where a payout stands. The documents name PENDING and PROCESSING; the others are the sandbox’s, described in docs/sandbox.md. */
export type PayoutStatus =
  /** Cancelled before processing; nothing was debited. */
  | 'CANCELLED'
  /** Paid out. */
  | 'COMPLETED'
  /** Could not be paid out (e.g. insufficient funds); nothing was debited. */
  | 'FAILED'
  /** Scheduled for a later day; the only state a payout can be cancelled in. */
  | 'PENDING'
  /** Being paid out: the balance has been debited. */
  | 'PROCESSING';

/** The exchange to lock a rate for. */
export type QuoteCreateInput = {
  /** When a conversion settles. */
  conversionSchedule: ConversionSchedule;
  /** Amount in the destination currency; give this or sourceAmount. */
  destinationAmount?: string | null | undefined;
  /** Currency received. */
  destinationCurrency: string;
  /** How long the rate holds. */
  lockPeriod: LockPeriod;
  /** What the quote will be used for. */
  quoteType: QuoteType;
  /** Amount in the source currency; give this or destinationAmount. */
  sourceAmount?: string | null | undefined;
  /** Currency paid from. */
  sourceCurrency: string;
};

/** What a quote may be used for; a quote serves one payout or one conversion. */
export type QuoteType =
  /** For a conversion between own balances. */
  | 'CONVERSION'
  /** For a payout to a beneficiary. */
  | 'PAYOUT';

/** How money moves: LOCAL through the domestic clearing system, SWIFT internationally. */
export type TransferMethod =
  /** Domestic clearing (e.g. FAST, GIRO, RTGS, bank transfer). */
  | 'LOCAL'
  /** International wire over SWIFT. */
  | 'SWIFT';

export type AccountsScreenQueryVariables = Exact<{ [key: string]: never; }>;


export type AccountsScreenQuery = { accounts: { nodes: Array<{ upstreamId: string, label: string | null, accountNumber: string, status: AccountStatus, requiredFeatures: Array<{ currency: string }> }> } | null, balances: Array<{ currency: string, available: { amount: string, currency: string } }> | null };

export type CardsScreenQueryVariables = Exact<{ [key: string]: never; }>;


export type CardsScreenQuery = { cards: { nodes: Array<{ upstreamId: string, maskedNumber: string, type: CardType, status: CardStatus, currency: string, cardholder: { email: string } | null }> } | null };

export type PayoutFormDataQueryVariables = Exact<{ [key: string]: never; }>;


export type PayoutFormDataQuery = { beneficiaries: { nodes: Array<{ upstreamId: string, companyName: string | null, transferMethods: Array<TransferMethod> | null, bankDetails: { accountCurrency: string | null, bankCountryCode: string | null } | null }> } | null };

export type PayoutQuoteMutationVariables = Exact<{
  input: QuoteCreateInput;
}>;


export type PayoutQuoteMutation = { quoteCreate:
    | { __typename: 'Forbidden', message: string }
    | { __typename: 'MayHaveGoneThrough', message: string }
    | { __typename: 'OutcomeUnknown', message: string }
    | { __typename: 'ProgramNotSupported', message: string }
    | { __typename: 'QuoteCreateSuccess', quote: { upstreamId: string } }
    | { __typename: 'UpstreamRejection', message: string }
    | { __typename: 'ValidationError', message: string, issues: Array<{ path: Array<string>, message: string }> }
   };

export type PayoutSendMutationVariables = Exact<{
  input: PayoutCreateInput;
  idempotencyKey?: string | null | undefined;
}>;


export type PayoutSendMutation = { payoutCreate:
    | { __typename: 'Forbidden', message: string }
    | { __typename: 'MayHaveGoneThrough', earlierIdempotencyKey: string, check: string, message: string }
    | { __typename: 'OutcomeUnknown', idempotencyKey: string, check: string, message: string }
    | { __typename: 'PayoutCreateSuccess', payout: { upstreamId: string, status: PayoutStatus | null, scheduledDate: string | null } }
    | { __typename: 'ProgramNotSupported', message: string }
    | { __typename: 'UpstreamRejection', message: string }
    | { __typename: 'ValidationError', message: string, issues: Array<{ path: Array<string>, message: string }> }
   };


export const AccountsScreenDocument = {"__meta__":{"hash":"sha256:1f73b738fc4532560a49ad40c84a203c32941bbc2cb59c6e16b0f345680c8715"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountsScreen"},"directives":[{"kind":"Directive","name":{"kind":"Name","value":"live"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accounts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"upstreamId"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requiredFeatures"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"balances"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"available"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}}]}}]}}]} as unknown as DocumentNode<AccountsScreenQuery, AccountsScreenQueryVariables>;
export const CardsScreenDocument = {"__meta__":{"hash":"sha256:45e5520ae3aa871361e2a471647d27f54633762586a5514d3f7b91e9a0e06ebc"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CardsScreen"},"directives":[{"kind":"Directive","name":{"kind":"Name","value":"live"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cards"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"upstreamId"}},{"kind":"Field","name":{"kind":"Name","value":"maskedNumber"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"cardholder"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"email"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CardsScreenQuery, CardsScreenQueryVariables>;
export const PayoutFormDataDocument = {"__meta__":{"hash":"sha256:db54194152620c808b02695657afda23ca232641140958197f740c2a66840840"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PayoutFormData"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beneficiaries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"upstreamId"}},{"kind":"Field","name":{"kind":"Name","value":"companyName"}},{"kind":"Field","name":{"kind":"Name","value":"bankDetails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"bankCountryCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"transferMethods"}}]}}]}}]}}]} as unknown as DocumentNode<PayoutFormDataQuery, PayoutFormDataQueryVariables>;
export const PayoutQuoteDocument = {"__meta__":{"hash":"sha256:e8764168a7948e3db6d235fe53eadff21794a4f2cf49949c5f5d27a2368c3da2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PayoutQuote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"QuoteCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quoteCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QuoteCreateSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quote"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"upstreamId"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"issues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MutationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PayoutQuoteMutation, PayoutQuoteMutationVariables>;
export const PayoutSendDocument = {"__meta__":{"hash":"sha256:05f6109b6ff6dc06d8d11c3286232fd73f228eea2ae7d94ca39096136c8056a4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PayoutSend"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutCreateInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payoutCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutCreateSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payout"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"upstreamId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"scheduledDate"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"issues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OutcomeUnknown"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"idempotencyKey"}},{"kind":"Field","name":{"kind":"Name","value":"check"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MayHaveGoneThrough"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"earlierIdempotencyKey"}},{"kind":"Field","name":{"kind":"Name","value":"check"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MutationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PayoutSendMutation, PayoutSendMutationVariables>;