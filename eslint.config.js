// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

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
    // The tests read the gateway's JSON answers loosely on purpose: their assertions check the shape.
    files: ['test/**', '**/test/**', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  prettier,
);
