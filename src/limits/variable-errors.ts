import {
  coerceInputValue,
  GraphQLError,
  isInputType,
  isNonNullType,
  typeFromAST,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from 'graphql';

/**
 * Why the variables do not fit the operation, one coded error per problem: BAD_USER_INPUT with the
 * variable's name (`variable`) and where inside it (`issues[].path`, the variable's name first, like
 * a ValidationError's `["input", "sourceAmount"]`), so a form can mark the field. graphql-js says the
 * same in words only (its errors carry no code and no path); its coercion is run again here for
 * the paths, only for variables it has refused.
 */
export function variableErrors(schema: GraphQLSchema, operation: OperationDefinitionNode, values: Record<string, unknown>): GraphQLError[] {
  const errors: GraphQLError[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    // A variable of an unknown or output type fails validation before this is reached.
    if (!type || !isInputType(type)) continue;
    const given = Object.hasOwn(values, name) ? values[name] : undefined;
    if (given === undefined || given === null) {
      if (isNonNullType(type) && (given === null || !definition.defaultValue)) {
        const problem = given === null ? `must not be null` : 'was not provided';
        errors.push(
          badVariable(definition, [], `Variable "$${name}" of required type "${String(type)}" ${problem}.`, `required (${String(type)})`),
        );
      }
      continue;
    }
    coerceInputValue(given, type, (path, _invalid, error) => {
      // graphql-js names a missing or unknown field at its parent object; the form needs the field.
      const field = /^Field "([^"]+)" (?:of required type|is not defined)/.exec(error.message)?.[1];
      const where = field === undefined ? path : [...path, field];
      // The value is not repeated: it may be the whole input, and messages are logged.
      errors.push(
        badVariable(
          definition,
          where,
          `Variable "$${name}" is invalid at "${[name, ...where].join('.')}": ${error.message}`,
          error.message,
        ),
      );
    });
  }
  return errors;
}

function badVariable(definition: VariableDefinitionNode, path: readonly (string | number)[], message: string, rule: string): GraphQLError {
  const variable = definition.variable.name.value;
  return new GraphQLError(message, {
    nodes: definition,
    extensions: { code: 'BAD_USER_INPUT', variable, issues: [{ path: [variable, ...path], message: rule }], http: { status: 400 } },
  });
}
