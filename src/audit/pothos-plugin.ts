import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import { attemptStart, recordAttempt } from './attempts.ts';

/**
 * Takes what each mutation field's resolver ended with, for the audit trail, which writes it there
 * and then: a field that never ran (@skip, @include, an operation stopped first) has no record, and
 * one whose client left still has its own when it ends. A Pothos plugin (the
 * builder's own hook for wrapping resolvers, around mutation fields only, so no other field pays for
 * it); listed first, it sees the answer the errors plugin made of a refusal or failure: a Forbidden,
 * a ValidationError, an UpstreamRejection. No library writes a GraphQL audit trail.
 */
class PothosAuditPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  // Around the argument mappers, not only the resolver: a refusal before the input is read and an
  // input rule's ValidationError happen there, and each is an attempt too.
  override wrapArgMappers(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (fieldConfig.kind !== 'Mutation') return resolver;
    return async (parent, args, context, info) => {
      const start = attemptStart(context);
      try {
        const value = await resolver(parent, args, context, info);
        recordAttempt(context, info, args as Record<string, unknown>, { value }, start);
        return value;
      } catch (thrown) {
        recordAttempt(context, info, args as Record<string, unknown>, { thrown }, start);
        throw thrown;
      }
    };
  }
}

const pluginName = 'audit';
export default pluginName;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos' types live in a global namespace that only a namespace declaration can augment
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      audit: PothosAuditPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, PothosAuditPlugin);
