import { fileURLToPath } from 'node:url';
import { dominatorTree, readHeapSnapshot, ROOT, type DominatorTree, type HeapGraph, type Holders } from './heap-snapshot.ts';

/**
 * What a server's heap holds, by who holds it: every object's own size in a heap snapshot
 * (heap-snapshot.ts) attributed to one retainer category (RETAINER_CATEGORIES): the first object up
 * its dominator chain, itself first, that a category recognises by the rules below. It exists
 * because the gateway's live heap was 36 MB over bare Yoga's and nothing said what those megabytes
 * were; bench/memory-retainers.ts takes the snapshots and sums them.
 */

/**
 * Who holds memory in a GraphQL server, each category short and true to what it recognises (the
 * rules below). A node belongs to the first category recognised up its dominator chain, itself
 * first; `other` is what none recognised.
 */
export const RETAINER_CATEGORIES = [
  'event log',
  'record cache',
  'APQ and trusted documents',
  'parsed documents',
  'live-query store',
  'loaders',
  'GraphQL schema',
  'zod schemas',
  'compiled code',
  'module source',
  'module records',
  'in-flight requests',
  'off-heap',
  'other',
] as const;

export type RetainerCategory = (typeof RETAINER_CATEGORIES)[number];

/**
 * How a category recognises a node; any one that matches does. `passesDown: false`: the node alone
 * is the category's; what it dominates goes where its dominator's would, but never to the same
 * category (a module's record dominates the module's top-level state, which is not the record).
 */
interface RetainerRule {
  category: RetainerCategory;
  /** Constructor names of objects (class names; the name a minifier left, where the code is minified). */
  constructors?: readonly string[];
  /** Objects with all these properties (zod's schemas carry `_zod`, whatever their constructor is called). */
  properties?: readonly string[];
  /**
   * A function's variables that hold the category's store: a closure context holding every one
   * of `together` names the values of its `held` ones (a plain Map or an LRUCache, which no
   * constructor name tells apart from the others).
   */
  variables?: { together: readonly string[]; held: readonly string[] };
  passesDown?: false;
}

/** The gateway's own classes and stores, found by reading src/ (class names, and the variables closures keep their stores in). */
const RULES: readonly RetainerRule[] = [
  // src/events: the log, its fan-out and subscribers, and the memory bus's set of occurrences seen (createMemoryEventBus).
  { category: 'event log', constructors: ['EventLog', 'LocalEvents', 'Fanout', 'Subscriber'] },
  { category: 'event log', variables: { together: ['seen', 'local'], held: ['seen'] } },
  // src/upstream: the record cache and the small TTL caches beside it (TtlCache: rule sets, the webhook catalogue, token verdicts).
  { category: 'record cache', constructors: ['RecordCache', 'TtlCache'] },
  // src/limits/persisted-queries.ts (createPersistedQueryStore's `memory` LRU) and trusted-documents.ts (loadTrustedDocuments' `documents`).
  { category: 'APQ and trusted documents', variables: { together: ['memory', 'shared'], held: ['memory'] } },
  { category: 'APQ and trusted documents', variables: { together: ['documents', 'entries'], held: ['documents'] } },
  // Yoga's parse and validation caches (useParserAndValidationCache: each document's AST, and its validation result, the
  // parameters' context apart from the body's).
  { category: 'parsed documents', variables: { together: ['documentCache', 'errorCache'], held: ['documentCache', 'errorCache'] } },
  { category: 'parsed documents', variables: { together: ['validationCacheByRules'], held: ['validationCacheByRules'] } },
  // src/live: @n1ru4l/in-memory-live-query-store, and live/groups.ts's groups of identical live queries.
  { category: 'live-query store', constructors: ['InMemoryLiveQueryStore', 'ResourceTracker', 'Group', 'Inbox'] },
  // DataLoader instances, and the batch each one is filling (dataloader's `{ hasDispatched, keys, callbacks }`).
  { category: 'loaders', constructors: ['DataLoader'] },
  { category: 'loaders', properties: ['hasDispatched', 'callbacks'] },
  // graphql-js's schema and types, and Pothos' builder, its caches and type refs.
  {
    category: 'GraphQL schema',
    constructors: [
      'GraphQLSchema',
      'GraphQLObjectType',
      'GraphQLInterfaceType',
      'GraphQLUnionType',
      'GraphQLEnumType',
      'GraphQLInputObjectType',
      'GraphQLScalarType',
      'GraphQLList',
      'GraphQLNonNull',
      'GraphQLDirective',
      'SchemaBuilder',
      'BuildCache',
      'ConfigStore',
      'ArgumentRef',
      'ImplementableObjectRef',
      'ImplementableInterfaceRef',
      'ImplementableLoadableNodeRef',
      'InputObjectRef',
      'ObjectRef',
      'InterfaceRef',
      'UnionRef',
      'EnumRef',
      'ScalarRef',
      'NodeRef',
      'LoadableNodeRef',
      'QueryRef',
      'MutationRef',
      'SubscriptionRef',
      'BaseTypeRef',
      'FieldRef',
      'InputFieldRef',
    ],
  },
  { category: 'zod schemas', properties: ['_zod'] },
  // Node's module loaders and their caches, and the record of each module loaded: not what the module's code keeps.
  { category: 'module records', constructors: ['ModuleLoader', 'LoadCache', 'ResolveCache'] },
  {
    category: 'module records',
    constructors: [
      'ModuleJob',
      'ModuleJobSync',
      'ModuleWrap',
      'Module',
      'BuiltinModule',
      'system / SourceTextModule',
      'system / SourceTextModuleInfoEntry',
      'system / ModuleRequest',
      'system / SyntheticModule',
    ],
    passesDown: false,
  },
  // What requests under way hold: connections and requests open now, the server's and the pool's to the bank (undici's
  // Pool, Client and Request, the gateway's TextAnswer), and calls queued for a slot to the bank (src/upstream/fair-queue.ts).
  { category: 'in-flight requests', properties: ['waiters', 'unwatch'] },
  {
    category: 'in-flight requests',
    constructors: [
      'Socket',
      'TCP',
      'HTTPParser',
      'IncomingMessage',
      'ServerResponse',
      'WriteWrap',
      'Request',
      'Response',
      'Headers',
      'AbortController',
      'AbortSignal',
      'Parser',
      'TextAnswer',
      'Pool',
      'Client',
      'FairQueue',
    ],
  },
];

const OTHER = RETAINER_CATEGORIES.indexOf('other');
const NONE = -1;
const categoryIndex = (category: RetainerCategory): number => RETAINER_CATEGORIES.indexOf(category);

/** The rule each of `texts(rule)` names, by the index of that text in the snapshot's string table. */
function rulesByString(graph: HeapGraph, texts: (rule: RetainerRule) => readonly string[]): Map<number, RetainerRule> {
  const byText = new Map<string, RetainerRule>();
  for (const rule of RULES) for (const text of texts(rule)) byText.set(text, rule);
  const byIndex = new Map<number, RetainerRule>();
  graph.strings.forEach((text, index) => {
    const rule = byText.get(text);
    if (rule) byIndex.set(index, rule);
  });
  return byIndex;
}

/** The indices in the snapshot's string table of each of `texts`. */
function stringIndices(graph: HeapGraph, texts: readonly string[]): Set<number> {
  const wanted = new Set(texts);
  const found = new Set<number>();
  graph.strings.forEach((text, index) => wanted.has(text) && found.add(index));
  return found;
}

/** What each node is recognised as by itself: a category's index or NONE, and whether it passes the category down. */
interface Recognised {
  own: Int8Array;
  passesDown: Uint8Array;
}

/** Marks `node` as `category`'s unless something recognised it first. */
function mark(recognised: Recognised, node: number, category: number, passesDown: boolean): void {
  if (recognised.own[node] !== NONE) return;
  recognised.own[node] = category;
  recognised.passesDown[node] = passesDown ? 1 : 0;
}

/**
 * Recognition by the node's kind, before any rule: code of any sort (bytecode, machine code,
 * function infos, feedback) is compiled code; a string a script holds as its `source` is module
 * source; external strings (the text lives outside the JS heap: Node's own modules) and native
 * nodes (array buffers' bytes, Node's C++ handles) are off the heap, and pass nothing down.
 */
function recogniseKinds(graph: HeapGraph, recognised: Recognised): void {
  const type = (name: string) => graph.nodeTypes.indexOf(name);
  const [code, native, string, synthetic] = [type('code'), type('native'), type('string'), type('synthetic')];
  const scriptSource = stringIndices(graph, ['source']);
  // What Node keeps of a CommonJS module's text beside the script it compiled (Module[kModuleSource]).
  const keptSource = stringIndices(graph, ['<symbol node:module_source>']);
  const external = stringIndices(graph, ['(External strings)']);
  for (let node = 0; node < graph.nodeCount; node++) {
    const kind = graph.nodeType[node];
    const externals = kind === synthetic && external.has(graph.nodeName[node]!);
    for (let edge = graph.firstEdge[node]!; edge < graph.firstEdge[node + 1]!; edge++) {
      const [to, name] = [graph.edgeTo[edge]!, graph.edgeName[edge]!];
      if (externals) mark(recognised, to, categoryIndex('off-heap'), false);
      else if (graph.nodeType[to] === string && ((kind === code && scriptSource.has(name)) || keptSource.has(name)))
        mark(recognised, to, categoryIndex('module source'), true);
    }
  }
  for (let node = 0; node < graph.nodeCount; node++) {
    if (graph.nodeType[node] === native) mark(recognised, node, categoryIndex('off-heap'), false);
    else if (graph.nodeType[node] === code) mark(recognised, node, categoryIndex('compiled code'), true);
  }
}

/** Recognition by the rules: constructor names, telling properties, the variables a closure keeps a store in. */
function recogniseRules(graph: HeapGraph, recognised: Recognised): void {
  const [object, hidden] = [graph.nodeTypes.indexOf('object'), graph.nodeTypes.indexOf('hidden')];
  const [property, context] = [graph.edgeTypes.indexOf('property'), graph.edgeTypes.indexOf('context')];
  const byConstructor = rulesByString(graph, (rule) => rule.constructors ?? []);
  const wanted = stringIndices(
    graph,
    RULES.flatMap((rule) => [...(rule.properties ?? []), ...(rule.variables?.together ?? [])]),
  );
  const take = (node: number, rule: RetainerRule) => mark(recognised, node, categoryIndex(rule.category), rule.passesDown !== false);
  for (let node = 0; node < graph.nodeCount; node++) {
    const kind = graph.nodeType[node];
    if (kind !== object && kind !== hidden) continue;
    const named = byConstructor.get(graph.nodeName[node]!);
    if (named) take(node, named);
    const properties = new Set<string>();
    const variables = new Map<string, number>();
    for (let edge = graph.firstEdge[node]!; edge < graph.firstEdge[node + 1]!; edge++) {
      const [type, name] = [graph.edgeType[edge], graph.edgeName[edge]!];
      if (!wanted.has(name)) continue;
      if (type === property) properties.add(graph.strings[name]!);
      else if (type === context) variables.set(graph.strings[name]!, graph.edgeTo[edge]!);
    }
    if (properties.size === 0 && variables.size === 0) continue;
    for (const rule of RULES) {
      if (rule.properties?.every((name) => properties.has(name))) take(node, rule);
      if (rule.variables?.together.every((name) => variables.has(name)))
        for (const held of rule.variables.held) take(variables.get(held)!, rule);
    }
  }
}

/** Rounds of the holders' rule at most: each settles what the holders settled by the previous one hold. */
const HOLDER_ROUNDS = 8;

/** The one category every holder of `node` passes down; OTHER when they differ, when one passes none, or when nothing holds it. */
function holdersCategory(holders: Holders, passed: Int8Array, node: number): number {
  let shared = NONE;
  for (let at = holders.first[node]!; at < holders.first[node + 1]!; at++) {
    const holder = holders.from[at]!;
    if (holder === node) continue;
    const category = passed[holder]!;
    if (category === OTHER || (shared !== NONE && category !== shared)) return OTHER;
    shared = category;
  }
  return shared === NONE ? OTHER : shared;
}

/**
 * Every node's category: its own if recognised, else what its dominator passes down (`other` at
 * the root). A node that gets `other` so, because holders from several places share it (the root
 * dominates it), is the category all its holders are in, when they are all in one: a field config
 * that both the schema's types and Pothos' build cache hold is the schema's. The first round passes
 * categories down the tree; each next one settles the nodes whose holders the previous one settled.
 */
function categorise(graph: HeapGraph, tree: DominatorTree, recognised: Recognised): Int8Array {
  const category = new Int8Array(graph.nodeCount).fill(OTHER);
  const passed = new Int8Array(graph.nodeCount).fill(OTHER);
  passDown(tree, recognised, { category, passed }, false);
  for (let round = 0; round < HOLDER_ROUNDS; round++) if (passDown(tree, recognised, { category, passed }, true) === 0) break;
  return category;
}

/**
 * One round down the dominator tree: each node's category, and what it passes down (`passed`);
 * with `byHolders`, the holders' rule settles what it can. Returns how many nodes it settled.
 */
function passDown(
  tree: DominatorTree,
  recognised: Recognised,
  { category, passed }: { category: Int8Array; passed: Int8Array },
  byHolders: boolean,
): number {
  let settled = 0;
  for (const node of tree.topDown) {
    const above = node === ROOT ? OTHER : passed[tree.dominator[node]!]!;
    if (byHolders && recognised.own[node] === NONE && above === OTHER && node !== ROOT) {
      const shared = holdersCategory(tree.holders, passed, node);
      if (shared !== OTHER) {
        mark(recognised, node, shared, true);
        settled++;
      }
    }
    const own = recognised.own[node]!;
    category[node] = own === NONE ? above : own;
    if (own === NONE || recognised.passesDown[node]) passed[node] = category[node]!;
    else passed[node] = above === own ? OTHER : above;
  }
  return settled;
}

/**
 * What the load added that no category claims is the requests' own (promises, closures, execution
 * results, the bank's answers being read): the nodes of `other` whose ids the baseline, an earlier
 * snapshot of the same process taken idle, does not have.
 */
function claimNewForRequests(graph: HeapGraph, category: Int8Array, baseline: Uint32Array): void {
  const known = new Set(baseline);
  const inFlight = categoryIndex('in-flight requests');
  for (let node = 0; node < graph.nodeCount; node++)
    if (category[node] === OTHER && !known.has(graph.nodeId[node]!)) category[node] = inFlight;
}

/**
 * Every node's category, as an index into RETAINER_CATEGORIES: the first recognised up its
 * dominator chain, itself first. With a `baseline` (the node ids of an idle snapshot of the same
 * process), what is new since and unclaimed is the in-flight requests'.
 */
export function nodeCategories(graph: HeapGraph, tree: DominatorTree, baseline?: Uint32Array): Int8Array {
  const recognised: Recognised = { own: new Int8Array(graph.nodeCount).fill(NONE), passesDown: new Uint8Array(graph.nodeCount) };
  recogniseKinds(graph, recognised);
  recogniseRules(graph, recognised);
  const category = categorise(graph, tree, recognised);
  if (baseline) claimNewForRequests(graph, category, baseline);
  return category;
}

/** A script's package: `name` or `@scope/name` under node_modules, `node` for Node's own, else its top folder in the repository. */
function packageOf(scriptName: string, root: string): string {
  const path = scriptName.replace(/^file:\/\//, '');
  const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1]!;
  if (path.startsWith('node:') || !path.includes('/')) return 'node';
  return path.startsWith(root) ? (path.slice(root.length).split('/')[0] ?? path) : path;
}

/**
 * Each code node's and source string's package (index into the returned names; -1 unknown): a
 * function info's from its script, a closure's from its function info, and every code node reached
 * from them through code (bytecode, constant pools, feedback) from the first that reaches it.
 */
function packages(graph: HeapGraph, root: string): { of: Int32Array; names: string[] } {
  const code = graph.nodeTypes.indexOf('code');
  const closure = graph.nodeTypes.indexOf('closure');
  const weak = graph.edgeTypes.indexOf('weak');
  const [script, shared, source] = [stringIndices(graph, ['script']), stringIndices(graph, ['shared']), stringIndices(graph, ['source'])];
  const names: string[] = [];
  const index = new Map<string, number>();
  const of = new Int32Array(graph.nodeCount).fill(-1);
  const edgeTo = (node: number, names: Set<number>) => {
    for (let edge = graph.firstEdge[node]!; edge < graph.firstEdge[node + 1]!; edge++)
      if (names.has(graph.edgeName[edge]!)) return graph.edgeTo[edge]!;
    return -1;
  };
  const packageIndex = (scriptNode: number) => {
    const name = packageOf(graph.strings[graph.nodeName[scriptNode]!]!, root);
    if (!index.has(name)) index.set(name, names.push(name) - 1);
    return index.get(name)!;
  };
  const queue: number[] = [];
  const start = (node: number, viaShared: boolean) => {
    const found = edgeTo(node, viaShared ? shared : script);
    const target = viaShared && found !== -1 ? edgeTo(found, script) : found;
    if (target === -1 || graph.nodeType[target] !== code) return;
    of[node] = of[target] = packageIndex(target);
    const text = edgeTo(target, source);
    if (text !== -1) of[text] = of[target]!;
    queue.push(node);
  };
  for (let node = 0; node < graph.nodeCount; node++) if (graph.nodeType[node] === code) start(node, false);
  for (let node = 0; node < graph.nodeCount; node++) if (graph.nodeType[node] === closure) start(node, true);
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at]!;
    for (let edge = graph.firstEdge[node]!; edge < graph.firstEdge[node + 1]!; edge++) {
      const to = graph.edgeTo[edge]!;
      if (graph.edgeType[edge] === weak || graph.nodeType[to] !== code || of[to] !== -1) continue;
      of[to] = of[node]!;
      queue.push(to);
    }
  }
  return { of, names };
}

/** What a heap snapshot holds, by retainer category. */
export interface RetainerBreakdown {
  /** Bytes per category; they add up to `totalBytes`. */
  bytes: Record<RetainerCategory, number>;
  /** Every node's own size, summed: the JS heap's live bytes and, off it, external strings and native memory. */
  totalBytes: number;
  /** What `other` holds, by the nodes' own kind and constructor, largest first. */
  otherTop: { name: string; bytes: number }[];
  /** Compiled code and module source per package (node_modules' packages, Node's own, the repository's folders), largest first. */
  codeByPackage: { name: string; codeBytes: number; sourceBytes: number }[];
}

/** How many constructors of `other`, and packages of code, a breakdown lists. */
const LISTED = 15;

/** A node's kind and constructor as a breakdown lists it: `Map`, `closure fn`, `(array) (object properties)`, `(string)`. */
function kindName(graph: HeapGraph, node: number): string {
  const type = graph.nodeTypes[graph.nodeType[node]!]!;
  if (type === 'object') return graph.strings[graph.nodeName[node]!]!;
  if (type.endsWith('string') || type === 'number') return `(${type})`;
  return `(${type}) ${graph.strings[graph.nodeName[node]!]!.slice(0, 60)}`;
}

/** The `LISTED` largest entries of a tally, largest first. */
function largest<Row extends { bytes: number }>(rows: Iterable<Row>): Row[] {
  return [...rows].sort((a, b) => b.bytes - a.bytes).slice(0, LISTED);
}

/** Compiled code and module source summed per package. */
function byPackage(graph: HeapGraph, category: Int8Array, root: string): RetainerBreakdown['codeByPackage'] {
  const { of, names } = packages(graph, root);
  const rows = names.map((name) => ({ name, codeBytes: 0, sourceBytes: 0, bytes: 0 }));
  const unknown = { name: '(unknown)', codeBytes: 0, sourceBytes: 0, bytes: 0 };
  const [code, source] = [categoryIndex('compiled code'), categoryIndex('module source')];
  for (let node = 0; node < graph.nodeCount; node++) {
    if (category[node] !== code && category[node] !== source) continue;
    const row = rows[of[node]!] ?? unknown;
    if (category[node] === code) row.codeBytes += graph.selfSize[node]!;
    else row.sourceBytes += graph.selfSize[node]!;
    row.bytes += graph.selfSize[node]!;
  }
  return largest([...rows, unknown]).map(({ name, codeBytes, sourceBytes }) => ({ name, codeBytes, sourceBytes }));
}

/** How a snapshot is attributed. */
interface AttributeOptions {
  /** The repository's path, which names its own folders in `codeByPackage` (default: this file's repository). */
  root?: string;
  /** The node ids of an idle snapshot of the same process (HeapAnalysis.nodeIds): what the load added unclaimed is the requests' (nodeCategories). */
  baseline?: Uint32Array | undefined;
}

/** The repository's root, which names its own folders among the packages. */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Attributes every node's own size to one category (nodeCategories) and sums them. */
function attributeRetainers(graph: HeapGraph, tree: DominatorTree, options: AttributeOptions = {}): RetainerBreakdown {
  const category = nodeCategories(graph, tree, options.baseline);
  const bytes = Object.fromEntries(RETAINER_CATEGORIES.map((name) => [name, 0])) as Record<RetainerCategory, number>;
  const other = new Map<string, number>();
  let totalBytes = 0;
  for (let node = 0; node < graph.nodeCount; node++) {
    const size = graph.selfSize[node]!;
    totalBytes += size;
    bytes[RETAINER_CATEGORIES[category[node]!]!] += size;
    if (category[node] !== OTHER) continue;
    const name = kindName(graph, node);
    other.set(name, (other.get(name) ?? 0) + size);
  }
  const otherTop = largest([...other].map(([name, size]) => ({ name, bytes: size })));
  return { bytes, totalBytes, otherTop, codeByPackage: byPackage(graph, category, options.root ?? REPO_ROOT) };
}

/** A snapshot attributed, and its node ids: the baseline of a later snapshot of the same process. */
interface HeapAnalysis {
  breakdown: RetainerBreakdown;
  nodeIds: Uint32Array;
}

/** Reads a .heapsnapshot and attributes it (attributeRetainers). */
export function analyseHeapSnapshot(path: string, options: AttributeOptions = {}): HeapAnalysis {
  const graph = readHeapSnapshot(path);
  return { breakdown: attributeRetainers(graph, dominatorTree(graph), options), nodeIds: graph.nodeId };
}
