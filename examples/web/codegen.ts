import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * This app's own codegen, as a frontend in another repository would have it: the gateway's printed
 * schema (or its URL, for introspection) in, typed documents out, and the persisted-documents
 * manifest the gateway loads as is with TRUSTED_DOCUMENTS=<path of src/gql/persisted-documents.json>.
 * The scalar mappings repeat the gateway's codegen.ts on purpose: this file stands for another
 * repository's, which cannot import the gateway's.
 */
const config: CodegenConfig = {
  schema: '../../schema/schema.graphql',
  documents: ['src/**/*.tsx', 'src/**/*.ts', '!src/gql/**'],
  ignoreNoDocuments: false,
  // Generated files import each other by their real name (`./graphql.ts`), so they type-check under
  // `moduleResolution` bundler and nodenext alike, and Node runs them as they are.
  importExtension: '.ts',
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: 'sha256' } },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        // What each custom scalar is on the wire: the gateway sends money as decimal text, never a float.
        scalars: {
          Date: 'string',
          DateTime: 'string',
          Decimal: 'string',
          CountryCode: 'string',
          Currency: 'string',
          JSONObject: 'Record<string, unknown>',
          JSON: 'unknown',
          DateOrDateTime: 'string',
        },
      },
    },
  },
};

export default config;
