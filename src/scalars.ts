import { GraphQLScalarType, Kind } from 'graphql';
import { CountryCodeResolver, CurrencyResolver, DateTimeResolver, JSONObjectResolver, JSONResolver, LocalDateResolver } from 'graphql-scalars';
import { toDecimalString } from './upstream/models.ts';

const DECIMAL = /^-?\d+(\.\d+)?$/;

function parseDecimal(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return toDecimalString(value);
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim();
  throw new TypeError(`Decimal must be decimal text such as "1250.50" (got ${JSON.stringify(value)})`);
}

/** Exact decimal numbers as text, so no amount or rate ever passes through a binary float in a client. */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description:
    'An exact decimal number written as text, e.g. "1250.50" or "-0.000731". Money amounts and exchange rates use it so no client rounds them through a binary float. Input also accepts a JSON number.',
  serialize: (value) => parseDecimal(value),
  parseValue: (value) => parseDecimal(value),
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return parseDecimal(ast.kind === Kind.STRING ? ast.value : Number(ast.value));
    throw new TypeError('Decimal must be a string such as "1250.50"');
  },
});

export const DateTimeScalar = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  description:
    'A point in time in ISO 8601 at UTC, e.g. "2026-01-05T10:00:00.000Z". Upstream forms such as "2026-01-05T10:00:00+0000" are normalised to this.',
});

export const DateScalar = new GraphQLScalarType({
  ...LocalDateResolver.toConfig(),
  name: 'Date',
  description: 'A calendar date without time zone, ISO 8601 "YYYY-MM-DD".',
});

export const CountryCodeScalar = new GraphQLScalarType({
  ...CountryCodeResolver.toConfig(),
  description: 'A country as its ISO 3166-1 alpha-2 code, e.g. "US".',
});

export const CurrencyScalar = new GraphQLScalarType({
  ...CurrencyResolver.toConfig(),
  description: 'A currency as its ISO 4217 code, e.g. "USD".',
});

export const JSONScalar = new GraphQLScalarType({
  ...JSONResolver.toConfig(),
  description: 'Any JSON value, for a field whose type the bank does not document at all (seen only as null), passed through as is.',
});

export const JSONObjectScalar = new GraphQLScalarType({
  ...JSONObjectResolver.toConfig(),
  description: 'A JSON object whose shape the bank does not document (e.g. card metadata), passed through as is.',
});
