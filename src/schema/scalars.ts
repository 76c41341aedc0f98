import { GraphQLScalarType, Kind } from 'graphql';
import {
  CountryCodeResolver,
  CurrencyResolver,
  DateTimeResolver,
  JSONObjectResolver,
  JSONResolver,
  LocalDateResolver,
} from 'graphql-scalars';
import { builder } from '../builder.ts';
import { toDecimalString } from '../upstream/models.ts';

const DECIMAL = /^-?\d+(\.\d+)?$/;

function parseDecimal(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return toDecimalString(value);
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim();
  throw new TypeError(`Decimal must be decimal text such as "1250.50" (got ${JSON.stringify(value)})`);
}

/** Exact decimal numbers as text, so no amount or rate ever passes through a binary float in a client. */
const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description:
    'An exact decimal number written as text, e.g. "1250.50" or "-0.000731". Money amounts and exchange rates use it so no client rounds them through a binary float. Input also accepts a JSON number.',
  serialize: (value) => parseDecimal(value),
  parseValue: (value) => parseDecimal(value),
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT)
      return parseDecimal(ast.kind === Kind.STRING ? ast.value : Number(ast.value));
    throw new TypeError('Decimal must be a string such as "1250.50"');
  },
});

const dateTimeConfig = DateTimeResolver.toConfig();

export const DateTimeScalar = new GraphQLScalarType({
  ...dateTimeConfig,
  // graphql-scalars answers a Date, which JSON.stringify then writes with its toJSON: the same
  // text, but a Date anywhere in a result takes the whole answer off JSON.stringify's fast path
  // (a dashboard's answer took several times as long to write). The text itself, once, instead.
  serialize: (value) => dateTimeConfig.serialize(value).toISOString(),
  description:
    'A point in time in ISO 8601 at UTC, e.g. "2026-01-05T10:00:00.000Z". Upstream forms such as "2026-01-05T10:00:00+0000" are normalised to this.',
});

const DateScalar = new GraphQLScalarType({
  ...LocalDateResolver.toConfig(),
  name: 'Date',
  description: 'A calendar date without time zone, ISO 8601 "YYYY-MM-DD".',
});

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** ISO 8601 with a zone (Z or an offset), seconds optional, fractions allowed. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A day or an instant, read into the bank's own text: `YYYY-MM-DD`, or `yyyy-MM-ddTHH:mm:ss` at UTC
 * (Document 2, 4.3 gives wallet history's bounds in these two forms and no zone: UTC is this
 * gateway's choice, see docs/sandbox.md "Where the documents are silent").
 */
function parseDateOrDateTime(value: unknown): string {
  if (typeof value === 'string') {
    const text = value.trim();
    if (DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text))
      return text;
    if (INSTANT.test(text) && !Number.isNaN(Date.parse(text))) return new Date(text).toISOString().slice(0, 19);
  }
  throw new TypeError(
    `DateOrDateTime must be a day "YYYY-MM-DD" or a date-time with a zone such as "2026-01-05T10:00:00Z" (got ${JSON.stringify(value)})`,
  );
}

const DateOrDateTimeScalar = new GraphQLScalarType<string, string>({
  name: 'DateOrDateTime',
  description:
    'A whole day, "YYYY-MM-DD", or an instant in ISO 8601 with a zone, e.g. "2026-01-05T10:00:00Z" or "2026-01-05T12:00:00+02:00" (to the second; sent to the bank at UTC). As the end of a window, a day includes all of it.',
  serialize: (value) => parseDateOrDateTime(value),
  parseValue: (value) => parseDateOrDateTime(value),
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING) return parseDateOrDateTime(ast.value);
    throw new TypeError('DateOrDateTime must be a string such as "2026-01-05" or "2026-01-05T10:00:00Z"');
  },
});

const CountryCodeScalar = new GraphQLScalarType({
  ...CountryCodeResolver.toConfig(),
  description: 'A country as its ISO 3166-1 alpha-2 code, e.g. "US".',
});

const CurrencyScalar = new GraphQLScalarType({
  ...CurrencyResolver.toConfig(),
  description: 'A currency as its ISO 4217 code, e.g. "USD".',
});

const JSONScalar = new GraphQLScalarType({
  ...JSONResolver.toConfig(),
  description: 'Any JSON value, for a field whose type the bank does not document at all (seen only as null), passed through as is.',
});

const JSONObjectScalar = new GraphQLScalarType({
  ...JSONObjectResolver.toConfig(),
  description: 'A JSON object whose shape the bank does not document (e.g. card metadata), passed through as is.',
});

// Registered where they are defined; the builder declares only their TypeScript types.
builder.addScalarType('Decimal', DecimalScalar);
builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('Date', DateScalar);
builder.addScalarType('CountryCode', CountryCodeScalar);
builder.addScalarType('Currency', CurrencyScalar);
builder.addScalarType('JSONObject', JSONObjectScalar);
builder.addScalarType('JSON', JSONScalar);
builder.addScalarType('DateOrDateTime', DateOrDateTimeScalar);
