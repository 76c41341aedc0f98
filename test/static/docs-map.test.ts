import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * docs/contributing.md and docs/architecture.md are held to the code (issue 31, item 8):
 *
 * - The map (the `text` blocks of contributing.md's "Layout" section) names every source file of
 *   src/, sandbox/src/ and packages/settings/src/ (tests aside), and names no file that does not
 *   exist. How a block is read:
 *   - A line whose first character is at column 10 or before starts an entry; its first word is the
 *     entry's name. Deeper lines continue the entry above them.
 *   - A name ending in `/` is a folder: the entries indented under it are its own. A folder at
 *     column 0 is a root; the roots checked are src/, sandbox/src/ and packages/settings/src/
 *     (schema/, test/, bench/... are described, not checked).
 *   - Every `<path>.ts` in an entry (its name included) is a path from the entry's folder:
 *     `send.ts` in stages/'s entry, or `stages/send.ts` in upstream/'s, is src/upstream/stages/send.ts.
 *     Only such names give a file its place. A name not found there may point elsewhere: it is then
 *     read from each enclosing folder up to the root (`events/intake.ts` in routes/'s entry is
 *     src/events/intake.ts); a name found nowhere is a stale name.
 * - architecture.md's layer diagram lists the layers of test/static/architecture.test.ts's LAYERS, in order.
 * - architecture.md's list of Yoga plugins is the request path's, in order (read from
 *   transport/request-path.ts: see requestPathPlugins).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHECKED_ROOTS = ['src/', 'sandbox/src/', 'packages/settings/src/'];
const CONTRIBUTING = 'docs/contributing.md';

/** The source files a root holds, tests aside, as paths from the repository root. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(`${path}/`);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The lines of a markdown section, from its `## ` heading to the next one, with their line numbers. */
function sectionOf(markdown: string, heading: string): { line: number; text: string }[] {
  const lines = markdown.split('\n').map((text, index) => ({ line: index + 1, text }));
  const start = lines.findIndex(({ text }) => text === `## ${heading}`);
  if (start < 0) return [];
  const end = lines.findIndex(({ text }, index) => index > start && /^## /.test(text));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The ```text blocks among `lines`, each as its lines (less the fence's indent, in a list item). */
function textBlocks(lines: { line: number; text: string }[]): { line: number; text: string }[][] {
  const blocks: { line: number; text: string }[][] = [];
  let open: { line: number; text: string }[] | undefined;
  let indent = 0;
  for (const line of lines) {
    if (open) {
      if (/^\s*```\s*$/.test(line.text)) {
        blocks.push(open);
        open = undefined;
      } else open.push({ line: line.line, text: line.text.replace(new RegExp(`^ {0,${indent}}`), '') });
    } else if (/^\s*```text\s*$/.test(line.text)) {
      open = [];
      indent = /^ */.exec(line.text)![0].length;
    }
  }
  return blocks;
}

interface Entry {
  /** Its first line, in the doc. */
  line: number;
  /** The folder its names are read from, from the repository root (`src/upstream/stages/`). */
  folder: string;
  /** The folders enclosing that one, innermost first, down to its root. */
  enclosing: string[];
  /** Its root (`src/`), or undefined outside the checked roots. */
  root: string | undefined;
  /** Set when the entry is a folder. */
  isFolder: boolean;
  text: string;
}

/** The entries of the map's blocks (see the rules above). */
function entriesOf(blocks: { line: number; text: string }[][]): Entry[] {
  const entries: Entry[] = [];
  for (const block of blocks) {
    const folders: { indent: number; path: string }[] = [];
    let current: Entry | undefined;
    for (const { line, text } of block) {
      const start = /^( *)(\S+)/.exec(text);
      if (!start) continue;
      const indent = start[1]!.length;
      if (indent > 10) {
        if (current) current.text += `\n${text}`;
        continue;
      }
      const name = start[2]!;
      while (folders.length > 0 && folders.at(-1)!.indent >= indent) folders.pop();
      const parent = folders.at(-1)?.path ?? '';
      const isFolder = name.endsWith('/');
      if (isFolder) folders.push({ indent, path: `${parent}${name}` });
      const folder = isFolder ? `${parent}${name}` : parent;
      const chain = folders
        .map((f) => f.path)
        .filter((path) => path !== folder)
        .reverse();
      const root = CHECKED_ROOTS.find((candidate) => folders[0]?.path === candidate);
      current = { line, folder, enclosing: chain, root, isFolder, text };
      entries.push(current);
    }
  }
  return entries;
}

/** `<path>.ts` names in a text; not a part of a longer path, a glob or a package name. */
const NAME = /(?<![\w./<>*@-])((?:[\w.-]+\/)*[\w.-]+\.ts)(?![\w/])/g;

interface MapCheck {
  /** Source files of the checked roots that no entry names from its own folder. */
  unnamed: string[];
  /** Names (and folders) the map gives that are not there, with where they are written. */
  stale: string[];
}

function checkMap(markdown: string, file: string): MapCheck {
  const entries = entriesOf(textBlocks(sectionOf(markdown, 'Layout'))).filter((entry) => entry.root !== undefined);
  const placed = new Set<string>();
  const stale: string[] = [];
  for (const entry of entries) {
    if (entry.isFolder && !existsSync(join(ROOT, entry.folder))) stale.push(`${file}:${entry.line}: folder ${entry.folder} does not exist`);
    for (const match of entry.text.matchAll(NAME)) {
      const name = match[1]!;
      if (existsSync(join(ROOT, entry.folder, name))) {
        placed.add(`${entry.folder}${name}`);
        continue;
      }
      if (entry.enclosing.some((folder) => existsSync(join(ROOT, folder, name)))) continue;
      stale.push(`${file}:${entry.line}: ${name} (in the entry of ${entry.folder}) does not exist`);
    }
  }
  const unnamed = CHECKED_ROOTS.flatMap(sourceFiles).filter((path) => !placed.has(path));
  return { unnamed, stale };
}

const contributing = readFileSync(join(ROOT, CONTRIBUTING), 'utf8');

describe(`${CONTRIBUTING}'s map (Layout)`, () => {
  const { unnamed, stale } = checkMap(contributing, CONTRIBUTING);

  it('names every source file of src/, sandbox/src/ and packages/settings/src/', () => {
    expect(unnamed, `files the map does not name (add each to its folder's entry in ${CONTRIBUTING}, "Layout")`).toEqual([]);
  });

  it('names no file or folder that does not exist', () => {
    expect(stale, `names in ${CONTRIBUTING}'s map that are not in the tree (renamed or removed?)`).toEqual([]);
  });

  it('would see a file left out, and a name of nothing', () => {
    // The first file the map names once, taken out of its entry; and a name of nothing added under src/.
    const names = [...contributing.matchAll(NAME)].map((match) => match[1]!);
    const once = names.find(
      (name) => /^[\w.-]+\.ts$/.test(name) && names.filter((other) => other === name).length === 1 && existsSync(join(ROOT, 'src', name)),
    )!;
    expect(once).toBeDefined();
    const without = contributing.replace(new RegExp(`(?<![\\w./-])${once.replace(/\./g, '\\.')}(?![\\w/])`), 'left-out');
    expect(checkMap(without, CONTRIBUTING).unnamed).toContain(`src/${once}`);
    const bogus = contributing.replace(/^src\/\n/m, 'src/\n  no-such-file.ts   a name of nothing\n');
    expect(checkMap(bogus, CONTRIBUTING).stale.join('\n')).toContain('no-such-file.ts (in the entry of src/) does not exist');
  });
});

const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

describe("docs/architecture.md's layer diagram", () => {
  it('lists the layers of test/static/architecture.test.ts (LAYERS), top first', () => {
    const source = readFileSync(join(ROOT, 'test/static/architecture.test.ts'), 'utf8');
    const declared = /const LAYERS[^=]*=\s*\[([\s\S]*?)\n\];/.exec(source)?.[1] ?? '';
    const layers = [...declared.matchAll(/\[([^\]]*)\]/g)].map((layer) => [...layer[1]!.matchAll(/'([^']+)'/g)].map((name) => name[1]!));
    expect(layers.length).toBeGreaterThan(5);
    const [diagram] = textBlocks(sectionOf(architecture, 'The layers'));
    const drawn: string[][] = [[]];
    for (const { text } of diagram ?? []) {
      if (/^\s*│\s*$/.test(text)) drawn.push([]);
      // A row's names: the list it starts with at column 0 to 2, comma-separated (a trailing comma
      // goes on to the next row); a row indented deeper continues a description.
      const names = /^ {0,2}((?:(?:[\w.-]+\/)*[\w.-]+(?:\.ts|\/),\s*)*(?:[\w.-]+\/)*[\w.-]+(?:\.ts|\/))/.exec(text)?.[1] ?? '';
      drawn.at(-1)!.push(
        ...names
          .split(/,\s*/)
          .filter(Boolean)
          .map((name) => name.replace(/\/$/, '')),
      );
    }
    // The order inside a layer is the drawing's own.
    const sorted = (rows: string[][]) => rows.map((row) => [...row].sort());
    expect(sorted(drawn), 'the layers drawn (between │ lines), top first, against LAYERS').toEqual(sorted(layers));
  });
});

// --- the request path's plugins ----------------------------------------------------------------

/** Every function of src/ by name (declarations and `const name = (...) =>`), with its file. */
function functionsOfSrc(): Map<string, { file: string; node: ts.FunctionLikeDeclaration }> {
  const functions = new Map<string, { file: string; node: ts.FunctionLikeDeclaration }>();
  for (const file of sourceFiles('src/')) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionDeclaration(node) && node.name) functions.set(node.name.text, { file, node });
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isArrowFunction(node.initializer)) {
        functions.set(node.name.text, { file, node: node.initializer });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return functions;
}

/**
 * Where a list of plugins named by a property comes from: the values of the properties called
 * `property` written inside the function `in`, in source order (several when the function picks one:
 * trusted documents or persisted queries; a limit or none).
 */
const GROUPS: Record<string, { in: string; property: string }> = {
  // The parts gateway.ts hands the request path.
  'parts.routes': { in: 'createGateway', property: 'routes' },
  'parts.audit': { in: 'createGateway', property: 'audit' },
  'parts.auth.plugin': { in: 'createCallerAuth', property: 'plugin' },
  'parts.persisted.plugins': { in: 'persistedDocuments', property: 'plugins' },
  'parts.perClient.plugin': { in: 'clientRateLimit', property: 'plugin' },
  // The plugins of answers in parts, by name.
  'delivery.answerableAcceptOnly': { in: 'incrementalDelivery', property: 'answerableAcceptOnly' },
  'delivery.streamFormAccepted': { in: 'incrementalDelivery', property: 'streamFormAccepted' },
  'delivery.streamAnswers': { in: 'incrementalDelivery', property: 'streamAnswers' },
};

/**
 * The plugins of the request path (`requestPath` in transport/request-path.ts), in order, each by the
 * name it is made with: `useCORS` for `useCORS(parts.auth.cors)`, `live.plugin` for a part's property
 * (`parts.` left off). A call of a function of src/ whose name does not start with `use` and that
 * returns a list (`whatMayBeAsked(parts)`) stands for that list, a local list for its elements, and
 * the properties of GROUPS for the values they are given where they are made. Both branches of a
 * condition count (`parts.tracer ? [useTracing(...)] : []`); `undefined` and a plugin written inline,
 * with no name, are left out. Anything else the test cannot read fails it, naming what.
 */
function requestPathPlugins(): string[] {
  const functions = functionsOfSrc();
  const unreadable: string[] = [];
  const propertyValues = (group: { in: string; property: string }): ts.Expression[] => {
    const found = functions.get(group.in);
    if (!found) {
      unreadable.push(`no function ${group.in} in src/`);
      return [];
    }
    const values: ts.Expression[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAssignment(node) && node.name.getText() === group.property) values.push(node.initializer);
      ts.forEachChild(node, visit);
    };
    visit(found.node);
    if (values.length === 0) unreadable.push(`no property ${group.property} in ${group.in}`);
    return values;
  };
  const returnedList = (node: ts.FunctionLikeDeclaration): ts.ArrayLiteralExpression | undefined => {
    if (node.body && ts.isArrayLiteralExpression(node.body)) return node.body;
    let list: ts.ArrayLiteralExpression | undefined;
    const visit = (child: ts.Node): void => {
      if (ts.isFunctionLike(child)) return;
      if (ts.isReturnStatement(child) && child.expression && ts.isArrayLiteralExpression(child.expression)) list ??= child.expression;
      ts.forEachChild(child, visit);
    };
    if (node.body) ts.forEachChild(node.body, visit);
    return list;
  };
  const path = functions.get('requestPath');
  /** A list declared in requestPath itself (`const afterRoutes = [...]`). */
  const localList = (name: string): ts.ArrayLiteralExpression | undefined => {
    let list: ts.ArrayLiteralExpression | undefined;
    const visit = (node: ts.Node): void => {
      if (
        ts.isVariableDeclaration(node) &&
        node.name.getText() === name &&
        node.initializer &&
        ts.isArrayLiteralExpression(node.initializer)
      )
        list = node.initializer;
      ts.forEachChild(node, visit);
    };
    if (path) visit(path.node);
    return list;
  };
  const expand = (node: ts.Expression): string[] => {
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return expand(node.expression);
    if (ts.isArrayLiteralExpression(node))
      return node.elements.flatMap((element) => (ts.isSpreadElement(element) ? expand(element.expression) : expand(element)));
    if (ts.isConditionalExpression(node)) return [...expand(node.whenTrue), ...expand(node.whenFalse)];
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) return expand(node.left);
    if (ts.isObjectLiteralExpression(node)) return [];
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      // `list.filter(...)`, `list.map(wrapper)`: the list's plugins, each kept or wrapped.
      if (ts.isPropertyAccessExpression(callee) && ['map', 'filter'].includes(callee.name.text)) return expand(callee.expression);
      const name = callee.getText();
      const found = functions.get(name);
      const list = !name.startsWith('use') && found ? returnedList(found.node) : undefined;
      return list ? expand(list) : [name];
    }
    const text = node.getText();
    if (text === 'undefined') return [];
    if (ts.isPropertyAccessExpression(node) && GROUPS[text]) return propertyValues(GROUPS[text]).flatMap(expand);
    if (ts.isIdentifier(node) && localList(text)) return expand(localList(text)!);
    if (ts.isPropertyAccessExpression(node) || ts.isIdentifier(node)) return [text.replace(/^parts\./, '')];
    unreadable.push(`${text} (a ${ts.SyntaxKind[node.kind]})`);
    return [];
  };
  const list = path && returnedList(path.node);
  if (!list) unreadable.push('no list returned by requestPath in src/');
  const plugins = list ? expand(list) : [];
  expect(unreadable, 'parts of the plugin list this test cannot read').toEqual([]);
  return plugins;
}

describe("docs/architecture.md's Yoga plugins", () => {
  it("lists every plugin of the request path, in the request path's order", () => {
    const plugins = requestPathPlugins();
    expect(plugins).toContain('useCORS');
    // The first text block of "A query": one plugin per unindented line, its name first.
    const [list] = textBlocks(sectionOf(architecture, 'A query'));
    const documented = (list ?? []).filter(({ text }) => /^\S/.test(text)).map(({ text }) => text.split(/\s/)[0]!);
    expect(documented).toEqual(plugins);
  });
});
