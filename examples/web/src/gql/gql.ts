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
    "\n  query AccountsScreen @live {\n    accounts(first: 20) {\n      nodes {\n        upstreamId\n        label\n        accountNumber\n        status\n        requiredFeatures {\n          currency\n        }\n      }\n    }\n    balances {\n      currency\n      available {\n        amount\n        currency\n      }\n    }\n  }\n": typeof types.AccountsScreenDocument,
    "\n  query CardsScreen @live {\n    cards(first: 20) {\n      nodes {\n        upstreamId\n        maskedNumber\n        type\n        status\n        currency\n        cardholder {\n          email\n        }\n      }\n    }\n  }\n": typeof types.CardsScreenDocument,
    "\n  query PayoutFormData {\n    beneficiaries(first: 50) {\n      nodes {\n        upstreamId\n        companyName\n        bankDetails {\n          accountCurrency\n          bankCountryCode\n        }\n        transferMethods\n      }\n    }\n  }\n": typeof types.PayoutFormDataDocument,
    "\n  mutation PayoutQuote($input: QuoteCreateInput!) {\n    quoteCreate(input: $input) {\n      __typename\n      ... on QuoteCreateSuccess {\n        quote {\n          upstreamId\n        }\n      }\n      ... on ValidationError {\n        message\n        issues {\n          path\n          message\n        }\n      }\n      ... on MutationError {\n        message\n      }\n    }\n  }\n": typeof types.PayoutQuoteDocument,
    "\n  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {\n    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on PayoutCreateSuccess {\n        payout {\n          upstreamId\n          status\n          scheduledDate\n        }\n      }\n      ... on ValidationError {\n        message\n        issues {\n          path\n          message\n        }\n      }\n      ... on OutcomeUnknown {\n        idempotencyKey\n        check\n      }\n      ... on MayHaveGoneThrough {\n        earlierIdempotencyKey\n        check\n      }\n      ... on MutationError {\n        message\n      }\n    }\n  }\n": typeof types.PayoutSendDocument,
};
const documents: Documents = {
    "\n  query AccountsScreen @live {\n    accounts(first: 20) {\n      nodes {\n        upstreamId\n        label\n        accountNumber\n        status\n        requiredFeatures {\n          currency\n        }\n      }\n    }\n    balances {\n      currency\n      available {\n        amount\n        currency\n      }\n    }\n  }\n": types.AccountsScreenDocument,
    "\n  query CardsScreen @live {\n    cards(first: 20) {\n      nodes {\n        upstreamId\n        maskedNumber\n        type\n        status\n        currency\n        cardholder {\n          email\n        }\n      }\n    }\n  }\n": types.CardsScreenDocument,
    "\n  query PayoutFormData {\n    beneficiaries(first: 50) {\n      nodes {\n        upstreamId\n        companyName\n        bankDetails {\n          accountCurrency\n          bankCountryCode\n        }\n        transferMethods\n      }\n    }\n  }\n": types.PayoutFormDataDocument,
    "\n  mutation PayoutQuote($input: QuoteCreateInput!) {\n    quoteCreate(input: $input) {\n      __typename\n      ... on QuoteCreateSuccess {\n        quote {\n          upstreamId\n        }\n      }\n      ... on ValidationError {\n        message\n        issues {\n          path\n          message\n        }\n      }\n      ... on MutationError {\n        message\n      }\n    }\n  }\n": types.PayoutQuoteDocument,
    "\n  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {\n    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on PayoutCreateSuccess {\n        payout {\n          upstreamId\n          status\n          scheduledDate\n        }\n      }\n      ... on ValidationError {\n        message\n        issues {\n          path\n          message\n        }\n      }\n      ... on OutcomeUnknown {\n        idempotencyKey\n        check\n      }\n      ... on MayHaveGoneThrough {\n        earlierIdempotencyKey\n        check\n      }\n      ... on MutationError {\n        message\n      }\n    }\n  }\n": types.PayoutSendDocument,
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
export function graphql(source: "\n  query AccountsScreen @live {\n    accounts(first: 20) {\n      nodes {\n        upstreamId\n        label\n        accountNumber\n        status\n        requiredFeatures {\n          currency\n        }\n      }\n    }\n    balances {\n      currency\n      available {\n        amount\n        currency\n      }\n    }\n  }\n"): (typeof documents)["\n  query AccountsScreen @live {\n    accounts(first: 20) {\n      nodes {\n        upstreamId\n        label\n        accountNumber\n        status\n        requiredFeatures {\n          currency\n        }\n      }\n    }\n    balances {\n      currency\n      available {\n        amount\n        currency\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CardsScreen @live {\n    cards(first: 20) {\n      nodes {\n        upstreamId\n        maskedNumber\n        type\n        status\n        currency\n        cardholder {\n          email\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query CardsScreen @live {\n    cards(first: 20) {\n      nodes {\n        upstreamId\n        maskedNumber\n        type\n        status\n        currency\n        cardholder {\n          email\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PayoutFormData {\n    beneficiaries(first: 50) {\n      nodes {\n        upstreamId\n        companyName\n        bankDetails {\n          accountCurrency\n          bankCountryCode\n        }\n        transferMethods\n      }\n    }\n  }\n"): (typeof documents)["\n  query PayoutFormData {\n    beneficiaries(first: 50) {\n      nodes {\n        upstreamId\n        companyName\n        bankDetails {\n          accountCurrency\n          bankCountryCode\n        }\n        transferMethods\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PayoutQuote($input: QuoteCreateInput!) {\n    quoteCreate(input: $input) {\n      __typename\n      ... on QuoteCreateSuccess {\n        quote {\n          upstreamId\n        }\n      }\n      ... on ValidationError {\n        message\n        issues {\n          path\n          message\n        }\n      }\n      ... on MutationError {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation PayoutQuote($input: QuoteCreateInput!) {\n    quoteCreate(input: $input) {\n      __typename\n      ... on QuoteCreateSuccess {\n        quote {\n          upstreamId\n        }\n      }\n      ... on ValidationError {\n        message\n        issues {\n          path\n          message\n        }\n      }\n      ... on MutationError {\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {\n    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on PayoutCreateSuccess {\n        payout {\n          upstreamId\n          status\n          scheduledDate\n        }\n      }\n      ... on ValidationError {\n        message\n        issues {\n          path\n          message\n        }\n      }\n      ... on OutcomeUnknown {\n        idempotencyKey\n        check\n      }\n      ... on MayHaveGoneThrough {\n        earlierIdempotencyKey\n        check\n      }\n      ... on MutationError {\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {\n    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on PayoutCreateSuccess {\n        payout {\n          upstreamId\n          status\n          scheduledDate\n        }\n      }\n      ... on ValidationError {\n        message\n        issues {\n          path\n          message\n        }\n      }\n      ... on OutcomeUnknown {\n        idempotencyKey\n        check\n      }\n      ... on MayHaveGoneThrough {\n        earlierIdempotencyKey\n        check\n      }\n      ... on MutationError {\n        message\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;