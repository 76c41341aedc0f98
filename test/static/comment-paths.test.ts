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
 * packages' files (`@scope/name/file.js`, `graphql-yoga/...`) and OTHER_PROGRAMS' are not checked.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = /^(src|test|bench|sandbox|packages|examples)\/.*\.(ts|tsx|js|mjs|cjs)$/;
const GENERATED = /^(test\/generated|examples\/web\/src\/gql)\//;
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.git']);
const EXTENSIONS = 'ts|tsx|mts|js|mjs|cjs|md|json|jsonc|graphql|gql|yaml|yml|conf|html|css|sh|lua|toml|txt';
const PATH = new RegExp(`^([\\w@.-]*/)*[\\w@-][\\w@.-]*\\.(${EXTENSIONS})$`);
/** Files of the programs the gateway works with, named as their own docs name them. */
const OTHER_PROGRAMS = new Set(['sentinel.conf']);

/** Every file under `dir` (a path from the root), skipped folders aside. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = dir ? `${dir}/${name}` : name;
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}
const ALL_FILES = filesUnder('');

/** The comments of a source file, each with the line it starts on. */
function commentsOf(path: string): { line: number; text: string }[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, path.endsWith('x') ? ts.ScriptKind.TSX : undefined);
  const comments = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const { pos, end } of ranges ?? []) comments.set(pos, text.slice(pos, end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...comments].map(([pos, comment]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
}

/** The file names a comment holds, each with its line within the comment (from 0). */
function pathsIn(comment: string): { offset: number; path: string }[] {
  return comment.split('\n').flatMap((line, offset) =>
    line
      .replace(/\b[a-z][\w+.-]*:\/\/\S*/gi, ' ')
      .split(/[\s`'"()[\]<>,;:#|]+/)
      .map((word) => word.replace(/[.!?]+$/, ''))
      .filter((word) => PATH.test(word) && !word.startsWith('@') && !word.includes('node_modules') && !OTHER_PROGRAMS.has(word))
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
  return ALL_FILES.some((path) => `/${path}`.endsWith(tail)) || existsSync(join(ROOT, 'node_modules', name.split('/')[0]!));
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
    const stale = ALL_FILES.filter((file) => SCANNED.test(file) && !GENERATED.test(file)).flatMap((file) =>
      commentsOf(file).flatMap(({ line, text }) =>
        pathsIn(text)
          .filter(({ path }) => !resolves(path, file))
          .map(({ offset, path }) => `${file}:${line + offset} ${path}`),
      ),
    );
    expect(stale).toEqual([]);
  });
});
