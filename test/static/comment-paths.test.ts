import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No comment names a file that does not exist: a file renamed or deleted leaves its old name in the
 * comments that pointed at it, and the reader goes looking for nothing.
 *
 * A name is read from the commenting file's folder or any folder above it, each with or without
 * `src/` (`../helpers/kit.ts`, `upstream/cache-policy.ts`); failing that, any file whose path ends
 * with it will do (`lazy-model.ts`, `stages/send.ts`). URLs, globs (`auth-*.test.ts`), npm
 * packages' files (`@scope/name/file.js`, `graphql-yoga/...`), OTHER_PROGRAMS' and the files WRITTEN_WHEN_RUN are not checked.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = /^(src|test|bench|sandbox|packages|examples)\/.*\.(ts|tsx|js|mjs|cjs)$/;
const GENERATED = /^(test\/generated|examples\/web\/src\/gql)\//;
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.git']);
const EXTENSIONS = 'ts|tsx|mts|js|mjs|cjs|md|json|jsonc|graphql|gql|yaml|yml|conf|html|css|sh|lua|toml|txt';
const PATH = new RegExp(`^([\\w@.-]*/)*[\\w@-][\\w@.-]*\\.(${EXTENSIONS})$`);
/** Files of the programs the gateway works with, named as their own docs name them. */
const OTHER_PROGRAMS = new Set(['sentinel.conf']);
/** Files a command writes when it runs, which git ignores: a clean clone has none until then. */
const WRITTEN_WHEN_RUN = new Set(['supergraph.graphql']);

/** Every file under `dir` (a path from the root), skipped folders aside. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = dir ? `${dir}/${name}` : name;
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}
const ALL_FILES = filesUnder('');
/** Every file's path and each of its tails from a slash on (`/kit.ts`, `/helpers/kit.ts`...). */
const TAILS = new Set(ALL_FILES.flatMap((path) => [...`/${path}`.matchAll(/\//g)].map((slash) => `/${path}`.slice(slash.index))));

/**
 * The comments of a source file, each with the line it starts on: TypeScript's scanner alone (a full
 * parse of every file costs seconds of the fast lane), asked to read a regular expression or a
 * template's middle where its last token says one starts.
 */
function commentsOf(path: string): { line: number; text: string }[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    path.endsWith('x') ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard,
    text,
  );
  const comments: { line: number; text: string }[] = [];
  let line = 1;
  let counted = 0;
  /** Lines counted from the last comment's: the comments come in order. */
  const lineOf = (position: number) => {
    for (; counted < position; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };
  const templates: number[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) {
      if (!ENDS_AN_OPERAND.has(previous)) kind = scanner.reScanSlashToken();
    } else if (kind === ts.SyntaxKind.OpenBraceToken && templates.length > 0) templates[templates.length - 1]! += 1;
    else if (kind === ts.SyntaxKind.CloseBraceToken && templates.at(-1) === 0) {
      templates.pop();
      kind = scanner.reScanTemplateToken(false);
    } else if (kind === ts.SyntaxKind.CloseBraceToken && templates.length > 0) templates[templates.length - 1]! -= 1;
    if (kind === ts.SyntaxKind.TemplateHead || kind === ts.SyntaxKind.TemplateMiddle) templates.push(0);
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push({ line: lineOf(scanner.getTokenStart()), text: scanner.getTokenText() });
    } else if (kind !== ts.SyntaxKind.WhitespaceTrivia && kind !== ts.SyntaxKind.NewLineTrivia) previous = kind;
  }
  return comments;
}

/** The tokens after which a slash divides; after any other, it starts a regular expression. */
const ENDS_AN_OPERAND = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
]);

/** The file names a comment holds, each with its line within the comment (from 0). */
function pathsIn(comment: string): { offset: number; path: string }[] {
  return comment.split('\n').flatMap((line, offset) =>
    line
      .replace(/\b[a-z][\w+.-]*:\/\/\S*/gi, ' ')
      .split(/[\s`'"()[\]<>,;:#|]+/)
      .map((word) => word.replace(/[.!?]+$/, ''))
      .filter(
        (word) =>
          PATH.test(word) &&
          !word.startsWith('@') &&
          !word.includes('node_modules') &&
          !OTHER_PROGRAMS.has(word) &&
          !WRITTEN_WHEN_RUN.has(word),
      )
      .map((path) => ({ offset, path })),
  );
}

/** Whether `name`, in a comment of `file`, is a file of the repository or of an npm package. */
function resolves(name: string, file: string): boolean {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(ROOT, dir, name)) || existsSync(join(ROOT, dir, 'src', name))) return true;
    if (dir === '.') break;
  }
  const tail = `/${name.replace(/^(\.\.?\/)+/, '')}`;
  return TAILS.has(tail) || existsSync(join(ROOT, 'node_modules', name.split('/')[0]!));
}

describe('file names in comments', () => {
  it('are read as the comments write them, and a stale one is found', () => {
    const names = (comment: string) => pathsIn(comment).map(({ path }) => path);
    expect(names('// see src/live/groups.ts, `docs/operations.md#live` (kit.ts); http://x.example/a.js')).toEqual([
      'src/live/groups.ts',
      'docs/operations.md',
      'kit.ts',
    ]);
    expect(names('/* test/integration/auth-*.test.ts, @n1ru4l/store/esm/throttle.js, e.g. v1.2, <name>.md */')).toEqual([]);
    expect(resolves('upstream/cache-policy.ts', 'src/upstream/stages/send.ts')).toBe(true);
    expect(resolves('../helpers/kit.ts', 'test/static/x.test.ts')).toBe(true);
    expect(resolves('live/shared-reruns.ts', 'src/live/pushes.ts')).toBe(false);
  });

  it('name files that exist', () => {
    // Only a file with a name that resolves nowhere, anywhere in its text, needs its comments read.
    const suspects = ALL_FILES.filter((file) => SCANNED.test(file) && !GENERATED.test(file)).filter((file) =>
      pathsIn(readFileSync(join(ROOT, file), 'utf8')).some(({ path }) => !resolves(path, file)),
    );
    const stale = suspects.flatMap((file) =>
      commentsOf(file).flatMap(({ line, text }) =>
        pathsIn(text)
          .filter(({ path }) => !resolves(path, file))
          .map(({ offset, path }) => `${file}:${line + offset} ${path}`),
      ),
    );
    expect(stale).toEqual([]);
  });
});
