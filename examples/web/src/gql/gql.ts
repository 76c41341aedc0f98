/* eslint-disable */
import * as types from './graphql.ts';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query AccountsScreen @live {\n    accounts(first: 20) {\n      nodes { upstreamId label accountNumber status requiredFeatures { currency } }\n    }\n    balances { currency available { amount currency } }\n  }\n": typeof types.AccountsScreenDocument,
    "\n  query CardsScreen @live {\n    cards(first: 20) { nodes { upstreamId maskedNumber type status currency cardholder { email } } }\n  }\n": typeof types.CardsScreenDocument,
    "\n  query PayoutFormData {\n    beneficiaries(first: 50) { nodes { upstreamId companyName bankDetails { accountCurrency bankCountryCode } transferMethods } }\n  }\n": typeof types.PayoutFormDataDocument,
    "\n  mutation PayoutQuote($input: QuoteCreateInput!) {\n    quoteCreate(input: $input) {\n      __typename\n      ... on QuoteCreateSuccess { quote { upstreamId } }\n      ... on ValidationError { message issues { path message } }\n      ... on MutationError { message }\n    }\n  }\n": typeof types.PayoutQuoteDocument,
    "\n  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {\n    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on PayoutCreateSuccess { payout { upstreamId status scheduledDate } }\n      ... on ValidationError { message issues { path message } }\n      ... on OutcomeUnknown { idempotencyKey check }\n      ... on MayHaveGoneThrough { earlierIdempotencyKey check }\n      ... on MutationError { message }\n    }\n  }\n": typeof types.PayoutSendDocument,
};
const documents: Documents = {
    "\n  query AccountsScreen @live {\n    accounts(first: 20) {\n      nodes { upstreamId label accountNumber status requiredFeatures { currency } }\n    }\n    balances { currency available { amount currency } }\n  }\n": types.AccountsScreenDocument,
    "\n  query CardsScreen @live {\n    cards(first: 20) { nodes { upstreamId maskedNumber type status currency cardholder { email } } }\n  }\n": types.CardsScreenDocument,
    "\n  query PayoutFormData {\n    beneficiaries(first: 50) { nodes { upstreamId companyName bankDetails { accountCurrency bankCountryCode } transferMethods } }\n  }\n": types.PayoutFormDataDocument,
    "\n  mutation PayoutQuote($input: QuoteCreateInput!) {\n    quoteCreate(input: $input) {\n      __typename\n      ... on QuoteCreateSuccess { quote { upstreamId } }\n      ... on ValidationError { message issues { path message } }\n      ... on MutationError { message }\n    }\n  }\n": types.PayoutQuoteDocument,
    "\n  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {\n    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on PayoutCreateSuccess { payout { upstreamId status scheduledDate } }\n      ... on ValidationError { message issues { path message } }\n      ... on OutcomeUnknown { idempotencyKey check }\n      ... on MayHaveGoneThrough { earlierIdempotencyKey check }\n      ... on MutationError { message }\n    }\n  }\n": types.PayoutSendDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountsScreen @live {\n    accounts(first: 20) {\n      nodes { upstreamId label accountNumber status requiredFeatures { currency } }\n    }\n    balances { currency available { amount currency } }\n  }\n"): (typeof documents)["\n  query AccountsScreen @live {\n    accounts(first: 20) {\n      nodes { upstreamId label accountNumber status requiredFeatures { currency } }\n    }\n    balances { currency available { amount currency } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CardsScreen @live {\n    cards(first: 20) { nodes { upstreamId maskedNumber type status currency cardholder { email } } }\n  }\n"): (typeof documents)["\n  query CardsScreen @live {\n    cards(first: 20) { nodes { upstreamId maskedNumber type status currency cardholder { email } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PayoutFormData {\n    beneficiaries(first: 50) { nodes { upstreamId companyName bankDetails { accountCurrency bankCountryCode } transferMethods } }\n  }\n"): (typeof documents)["\n  query PayoutFormData {\n    beneficiaries(first: 50) { nodes { upstreamId companyName bankDetails { accountCurrency bankCountryCode } transferMethods } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PayoutQuote($input: QuoteCreateInput!) {\n    quoteCreate(input: $input) {\n      __typename\n      ... on QuoteCreateSuccess { quote { upstreamId } }\n      ... on ValidationError { message issues { path message } }\n      ... on MutationError { message }\n    }\n  }\n"): (typeof documents)["\n  mutation PayoutQuote($input: QuoteCreateInput!) {\n    quoteCreate(input: $input) {\n      __typename\n      ... on QuoteCreateSuccess { quote { upstreamId } }\n      ... on ValidationError { message issues { path message } }\n      ... on MutationError { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {\n    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on PayoutCreateSuccess { payout { upstreamId status scheduledDate } }\n      ... on ValidationError { message issues { path message } }\n      ... on OutcomeUnknown { idempotencyKey check }\n      ... on MayHaveGoneThrough { earlierIdempotencyKey check }\n      ... on MutationError { message }\n    }\n  }\n"): (typeof documents)["\n  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {\n    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on PayoutCreateSuccess { payout { upstreamId status scheduledDate } }\n      ... on ValidationError { message issues { path message } }\n      ... on OutcomeUnknown { idempotencyKey check }\n      ... on MayHaveGoneThrough { earlierIdempotencyKey check }\n      ... on MutationError { message }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;