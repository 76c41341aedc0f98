// @ts-check
import js from '@eslint/js';
import path from 'node:path';
import prettier from 'eslint-config-prettier';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

/**
 * A lazy record (src/upstream/lazy-model.ts) spread, Object.assign'd or taken apart with `...rest`
 * has every field parsed at once, and its first broken field fails the whole read, not its own.
 * No type can forbid a spread and no syntax tells a record from other objects: this rule asks the
 * type checker whether the value is a bank record (a type named in `types`, or the fields of a
 * z.object() shape written under `shapesIn`, alone or in a union or intersection as extended()
 * gives it). Inside a function handed to `.transform()` every value is zod's whole parse: left alone.
 */
const noLazyRecordSpread = {
  meta: {
    type: 'problem',
    messages: {
      spread:
        'A lazy record ({{type}}) copied by {{how}} parses every field at once and fails on the first broken one: read its fields through, or use extended() (src/upstream/lazy-model.ts).',
    },
    schema: [
      {
        type: 'object',
        properties: { types: { type: 'array', items: { type: 'string' } }, shapesIn: { type: 'string' } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    const { types = [], shapesIn = '' } = context.options[0] ?? {};
    /** The path of `node`'s file from the repository's root. @param {import('typescript').Node} node */
    const fileOf = (node) => path.relative(import.meta.dirname, node.getSourceFile().fileName);
    /** A type alias or interface of `types` (`<file>#<name>`), or a mapped type written in one. @param {import('typescript').Declaration} declaration */
    const isNamed = (declaration) => {
      const node = ts.isTypeAliasDeclaration(declaration) || ts.isInterfaceDeclaration(declaration) ? declaration : declaration.parent;
      return (
        node !== undefined &&
        (ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) &&
        types.includes(`${fileOf(node)}#${node.name.text}`)
      );
    };
    /** A field of a `*.object({ ... })` shape under `shapesIn`. @param {import('typescript').Declaration} declaration */
    const isShapeField = (declaration) => {
      const call = declaration.parent?.parent;
      return (
        (ts.isPropertyAssignment(declaration) || ts.isShorthandPropertyAssignment(declaration)) &&
        call !== undefined &&
        ts.isCallExpression(call) &&
        ts.isPropertyAccessExpression(call.expression) &&
        call.expression.name.text === 'object' &&
        fileOf(declaration).startsWith(shapesIn)
      );
    };
    /** @param {import('typescript').Type} type @returns {boolean} */
    const isLazyRecord = (type) =>
      type.isUnionOrIntersection()
        ? type.types.some(isLazyRecord)
        : [type.aliasSymbol, type.getSymbol()].some((symbol) => symbol?.declarations?.some(isNamed) === true) ||
          type.getProperties().some((property) => property.declarations?.some(isShapeField) === true);
    /** Within a function handed to `.transform()`. */
    const inTransform = (node) => {
      const ancestors = context.sourceCode.getAncestors(node);
      return ancestors.some(
        (call) =>
          call.type === 'CallExpression' &&
          call.callee.type === 'MemberExpression' &&
          call.callee.property.type === 'Identifier' &&
          call.callee.property.name === 'transform' &&
          call.arguments.some((argument) => ancestors.includes(argument)),
      );
    };
    const check = (node, how) => {
      const type = services.getTypeAtLocation(node);
      if (!isLazyRecord(type) || inTransform(node)) return;
      context.report({ node, messageId: 'spread', data: { how, type: services.program.getTypeChecker().typeToString(type) } });
    };
    return {
      'ObjectExpression > SpreadElement': (node) => check(node.argument, 'a spread'),
      'ObjectPattern > RestElement': (node) => check(node.parent, 'a ...rest'),
      "CallExpression[callee.object.name='Object'][callee.property.name='assign']": (node) => {
        for (const source of node.arguments.slice(1)) check(source.type === 'SpreadElement' ? source.argument : source, 'Object.assign');
      },
    };
  },
};

/**
 * `npm run lint`: ESLint's and typescript-eslint's recommended rules, and the type-aware ones that
 * catch what a server living on promises gets wrong: a promise dropped (no-floating-promises),
 * one handed where its answer is ignored (no-misused-promises), an await of what is no promise, a
 * throw or rejection of what is no Error, a string made of an object, a type assertion that asserts
 * nothing. typescript-eslint's no-unsafe-* family is left out: the tests read JSON answers as
 * `any` on purpose, and the product code parses every outside payload with zod. Formatting is
 * Prettier's alone (eslint-config-prettier turns the layout rules off).
 */
export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'coverage/**',
      'examples/web/dist/**',
      'test/generated/**',
      'examples/web/src/gql/**',
      '.scratch/**',
      '.docs-snippets-*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // A leading underscore names what is there on purpose and not read (`_root`, `{ http: _http, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // The sandbox's domains merge their collections and services into the core's interfaces by
      // declaration merging, which needs an interface that extends one and declares nothing yet.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['test/**', '**/test/**', '**/*.test.ts'],
    plugins: { gateway: { rules: { 'no-lazy-record-spread': noLazyRecordSpread } } },
    rules: {
      'gateway/no-lazy-record-spread': [
        'error',
        // beneficiaryModel is declared with its Beneficiary.
        { types: ['src/upstream/camel-case.ts#CamelCased', 'src/upstream/beneficiaries.ts#Beneficiary'], shapesIn: 'src/upstream/' },
      ],
    },
  },
  {
    // The tests read the gateway's JSON answers loosely on purpose: their assertions check the shape.
    files: ['test/**', '**/test/**', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  prettier,
);
