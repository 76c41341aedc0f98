import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { isPermission, type Permission } from './permissions.ts';

/**
 * Whose data each type of the graph carries, and so which fields must check a permission before
 * they read anything. A type's domain is the read permission of the records it holds: a Node type's
 * own `authScopes` (the permission `node(id:)` and scope-auth check), or the `readPermission` an
 * object type declares for the data it carries (a card's cardholder summary holds a cardholder's
 * name and e-mail: `cardholders:read`). A connection or an edge carries its nodes' domain. Every
 * other object type must be named below as carrying no domain of its own; the schema does not build
 * with a type that is neither (domainGuards), so no type can carry a domain's data unchecked.
 *
 * A field whose type carries a domain other than its parent's is guarded: the caller must hold that
 * domain's permission before its resolver (and so any loader or bank call) runs
 * (read-guard.ts). The answer depends on the caller and the field alone, never on whether the
 * record exists or the list is empty.
 */

/**
 * Types that carry no domain's data of their own: values (money, addresses, page info), parts of one
 * record (reached only through it, so its check covers them), a mutation's result and error types
 * (the mutation's own permission decides; their links are guarded like any other), and the bank
 * event of a typed event (its record's permission is the subscription's; `bankEvents` delivers an
 * event only to a caller holding its record's permission: schema/event-visibility.ts).
 */
const CARRIES_NO_DOMAIN: ReadonlyMap<string, string> = new Map(
  Object.entries({
    // Values, wherever they appear.
    Money: 'an amount and its currency',
    Address: 'a postal address, of the record it is part of',
    PageInfo: 'where a page sits in its list',
    RoutingCode: 'a routing code, of the account it is part of',
    LocalizedText: 'a text and its language',
    FieldIssue: 'one problem of a rejected input',
    // Parts of one record.
    AccountFeature: 'part of an Account',
    AccountRequiredFeature: 'part of an Account',
    Institution: 'part of an Account',
    RfiRequest: 'part of an AccountRfi',
    RfiQuestion: 'part of an AccountRfi',
    RfiSource: 'part of an AccountRfi',
    RfiLiveness: 'part of an AccountRfi',
    BusinessAccountDetails: 'part of the BusinessProfile',
    BusinessAddress: 'part of the BusinessProfile',
    BusinessContactDetails: 'part of the BusinessProfile',
    BusinessRegistrationAddress: 'part of the BusinessProfile',
    BusinessRepresentative: 'part of the BusinessProfile',
    TermsOfServiceAcceptance: 'part of the BusinessProfile',
    BeneficiaryAdditionalInfo: 'part of a Beneficiary',
    BeneficiaryAddress: 'part of a Beneficiary',
    BeneficiaryBankDetails: 'part of a Beneficiary',
    CardAuthorizationControls: 'part of a Card',
    CardDelivery: 'part of a Card',
    CardProgram: 'part of a Card',
    CardSpendingControl: 'part of a Card',
    CardMerchant: 'part of a CardTransaction',
    CardholderIndividual: 'part of a Cardholder',
    CardholderName: 'part of a Cardholder',
    CardholderIdentification: 'part of a Cardholder',
    CardholderEmployer: 'part of a Cardholder',
    CardholderBusinessIdentifier: 'part of a Cardholder',
    CardholderKyc: 'part of a Cardholder',
    CardholderKycRfi: 'part of a Cardholder',
    GlobalAccountCapability: 'part of a GlobalAccount',
    GlobalAccountInstitution: 'part of a GlobalAccount',
    DisputeWindow: 'part of a DirectDebit',
    WalletLimits: 'part of a Wallet',
    // What a mutation answers, besides its Success and error types.
    AccessToken: "a mutation's result: the token accessTokenCreate answers",
    AccountClosed: "a mutation's result: what accountClose answers",
    BeneficiaryDeleted: "a mutation's result: what beneficiaryDelete answers",
    CardAssigned: "a mutation's result: what cardAssign answers",
    CardholderDeleted: "a mutation's result: what cardholderDelete answers",
    PayoutCancelled: "a mutation's result: what payoutCancel answers",
    WebhookSubscriptionDeleted: "a mutation's result: what webhookSubscriptionDelete answers",
    // Who is calling.
    Caller: 'the caller itself (me)',
    RateLimit: "the price of the caller's own operation and its own budget (rateLimit)",
    BankEvent: "a bank event: delivered only to a caller holding its record's permission",
  }),
);

/** What a type carries: a domain's data (with the permission that reads it), or none of its own. */
export type Domain = { permission: Permission; why: string } | { permission: null; why: string };

interface Declared {
  pothosOptions?: { authScopes?: unknown; readPermission?: unknown };
}

/** The domain a type declares: a Node type's permission, or an object type's `readPermission`. */
export function declaredPermission(type: GraphQLNamedType): Permission | undefined {
  const options = ((type.extensions ?? {}) as Declared).pothosOptions;
  const scopes = options?.authScopes as { permission?: unknown } | undefined;
  const permission = typeof scopes === 'object' && scopes !== null ? scopes.permission : options?.readPermission;
  return typeof permission === 'string' && isPermission(permission) ? permission : undefined;
}

/** The type a field holds, lists and non-null unwrapped. */
const typeOf = (field: GraphQLField<unknown, unknown>): GraphQLNamedType => getNamedType(field.type);

/** A Relay connection's or edge's node type (`nodes` or `node`); undefined for any other type. */
function nodeTypeOf(type: GraphQLObjectType): GraphQLNamedType | undefined {
  const fields = type.getFields();
  if (fields.edges && fields.pageInfo) return typeOf(fields.edges);
  if (fields.node && fields.cursor) return typeOf(fields.node);
  return undefined;
}

function isMutationResult(type: GraphQLNamedType, schema: GraphQLSchema): boolean {
  if (!isObjectType(type)) return false;
  if (type.getInterfaces().some((i) => i.name === 'MutationError')) return true;
  // The errors plugin's Success types: what a mutation field answers when it went through.
  const mutation = schema.getMutationType();
  return (
    mutation != null &&
    type.name.endsWith('Success') &&
    Object.values(mutation.getFields()).some((field) => `${field.name}Success`.toLowerCase() === type.name.toLowerCase())
  );
}

/** The domain of every type that can hold fields; a type with none declared or listed is named in `unclassified`. */
export function domainsOf(schema: GraphQLSchema): { domains: Map<string, Domain>; unclassified: string[] } {
  const domains = new Map<string, Domain>();
  const unclassified: string[] = [];
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((type) => type?.name));
  const domainOf = (type: GraphQLNamedType): Domain | undefined => {
    const permission = declaredPermission(type);
    if (permission) return { permission, why: 'declared' };
    if (isObjectType(type)) {
      const node = nodeTypeOf(type);
      const nodes = node && domainOf(node);
      if (nodes) return { permission: nodes.permission, why: `its nodes' (${node.name})` };
    }
    if (roots.has(type.name)) return { permission: null, why: 'a root type: each field declares its own permission' };
    if (!isObjectType(type)) return { permission: null, why: 'an interface or union: the object it resolves to carries its own domain' };
    if (isMutationResult(type, schema)) return { permission: null, why: "a mutation's result: the mutation's own permission decides" };
    const listed = CARRIES_NO_DOMAIN.get(type.name);
    return listed === undefined ? undefined : { permission: null, why: listed };
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
    const domain = domainOf(type);
    if (domain) domains.set(type.name, domain);
    else unclassified.push(type.name);
  }
  return { domains, unclassified };
}

/**
 * The permission each field must check before it reads: `Parent.field` → the domain of the type it
 * returns, for every field whose type carries a domain other than its parent's. Throws, naming them,
 * when a type carries no classified domain: the schema must not build with a type nobody checked.
 */
export function domainGuards(schema: GraphQLSchema): Map<string, Permission> {
  const { domains, unclassified } = domainsOf(schema);
  if (unclassified.length > 0) {
    throw new Error(
      `Types with no declared domain: ${unclassified.join(', ')}. Give each a readPermission (the read permission of the data it carries) or, if it carries none of its own, list it in src/authorization/domains.ts with the reason.`,
    );
  }
  const guards = new Map<string, Permission>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
    const own = domains.get(type.name)?.permission ?? null;
    for (const field of Object.values(type.getFields())) {
      const target = domains.get(typeOf(field).name)?.permission ?? null;
      if (target !== null && target !== own) guards.set(`${type.name}.${field.name}`, target);
    }
  }
  return guards;
}
