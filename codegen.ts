import type { CodegenConfig } from '@graphql-codegen/cli';
import { preset as clientPreset } from '@graphql-codegen/client-preset';
import { printSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithCosts } from './src/schema/cost-directives.ts';
import { buildSchema } from './src/schema/index.ts';

/**
 * One command regenerates every artefact of the schema: the printed, sorted SDL that is committed
 * (schema/schema.graphql), the same graph as a Federation 2 subgraph (schema/subgraph.graphql, what
 * `_service { sdl }` answers with FEDERATION_SUBGRAPH: for composing offline), typed documents for the operations the project ships (the examples in
 * schema/operations/ and the benchmark's in bench/operations.graphql), which the tests use, and the
 * trusted documents of those operations (schema/trusted-documents.json), the only ones the gateway
 * executes with TRUSTED_DOCUMENTS set. `npm run schema:check` runs this with --check so none can go
 * stale.
 */

const TRUSTED_DOCUMENTS = 'schema/trusted-documents.json';

/**
 * The client preset with persisted documents: every typed document carries its id
 * (`__meta__.hash`, "sha256:<hex>" of the normalised text) and the preset writes the id → text
 * manifest beside them; that manifest goes to schema/ instead, where the gateway reads it.
 */
const clientWithTrustedDocuments: typeof clientPreset = {
  ...clientPreset,
  buildGeneratesSection: async (options) =>
    (await clientPreset.buildGeneratesSection(options)).map((output) =>
      output.filename.endsWith('/persisted-documents.json') ? { ...output, filename: TRUSTED_DOCUMENTS } : output,
    ),
};

const config: CodegenConfig = {
  // With the applied directives (@cost, @listSize), which graphql's printSchema leaves out.
  schema: printSchemaWithCosts(buildSchema()),
  documents: ['schema/operations/**/*.graphql', 'bench/operations.graphql'],
  ignoreNoDocuments: false,
  // Node runs .ts directly, so generated relative imports must name the .ts file.
  importExtension: '.ts',
  generates: {
    'schema/schema.graphql': { plugins: ['schema-ast'], config: { includeDirectives: true } },
    // Verbatim: the subgraph printer's own output, `extend schema @link(...)` and the keys included.
    'schema/subgraph.graphql': { plugins: [{ add: { content: printSubgraphSchema(buildSchema({ federation: true })) } }] },
    'test/generated/': {
      preset: clientWithTrustedDocuments,
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: 'sha256' } },
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
          JSON: 'unknown',
          DateOrDateTime: 'string',
        },
      },
    },
  },
};

export default config;
