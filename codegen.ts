import type { CodegenConfig } from '@graphql-codegen/cli';
import { printSchema } from 'graphql';
import { buildSchema } from './src/schema/index.ts';

/**
 * One command regenerates both artefacts of the schema: the printed, sorted SDL that is committed
 * (schema/schema.graphql) and typed documents for the example operations in schema/operations/,
 * which the tests use. `npm run schema:check` runs this with --check so neither can go stale.
 */
const config: CodegenConfig = {
  schema: printSchema(buildSchema()),
  documents: 'schema/operations/**/*.graphql',
  ignoreNoDocuments: false,
  // Node runs .ts directly, so generated relative imports must name the .ts file.
  importExtension: '.ts',
  generates: {
    'schema/schema.graphql': { plugins: ['schema-ast'], config: { includeDirectives: true } },
    'test/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        scalars: {
          Date: 'string',
          DateTime: 'string',
          Decimal: 'string',
          CountryCode: 'string',
          Currency: 'string',
          JSONObject: 'Record<string, unknown>',
        },
      },
    },
  },
};

export default config;
