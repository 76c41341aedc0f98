import { describe, expect, it } from 'vitest';
import { dominatorTree, type HeapGraph } from '../../bench/heap-snapshot.ts';
import { nodeCategories, RETAINER_CATEGORIES, type RetainerCategory } from '../../bench/heap-retainers.ts';

/**
 * bench/heap-snapshot.ts on made-up heaps: the dominator tree, and which retainer category each
 * object's bytes go to (its first recognised dominator, the holders' rule, the idle baseline).
 */

const NODE_TYPES = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic'];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];

interface MadeNode {
  type: string;
  name: string;
  size?: number;
  /** [edge type, edge name, target's index]. */
  edges?: [string, string, number][];
}

/** A HeapGraph of `nodes`, the first the root; ids are 1, 3, 5... by position. */
function graphOf(nodes: MadeNode[]): HeapGraph {
  const strings: string[] = [];
  const text = (value: string) => (strings.includes(value) ? strings.indexOf(value) : strings.push(value) - 1);
  const edges = nodes.flatMap((node) => node.edges ?? []);
  const firstEdge = new Uint32Array(nodes.length + 1);
  nodes.forEach((node, i) => (firstEdge[i + 1] = firstEdge[i]! + (node.edges?.length ?? 0)));
  return {
    nodeCount: nodes.length,
    nodeType: Uint8Array.from(nodes, (node) => NODE_TYPES.indexOf(node.type)),
    nodeName: Uint32Array.from(nodes, (node) => text(node.name)),
    nodeId: Uint32Array.from(nodes, (_, i) => 2 * i + 1),
    selfSize: Float64Array.from(nodes, (node) => node.size ?? 10),
    firstEdge,
    edgeType: Uint8Array.from(edges, ([type]) => EDGE_TYPES.indexOf(type)),
    edgeName: Uint32Array.from(edges, ([, name]) => text(name)),
    edgeTo: Uint32Array.from(edges, ([, , to]) => to),
    strings,
    nodeTypes: NODE_TYPES,
    edgeTypes: EDGE_TYPES,
  };
}

/** Each node's category by name. */
function categoriesOf(graph: HeapGraph, baseline?: Uint32Array): RetainerCategory[] {
  return [...nodeCategories(graph, dominatorTree(graph), baseline)].map((index) => RETAINER_CATEGORIES[index]!);
}

describe('dominatorTree', () => {
  it('gives a node held from two branches the node where the branches part, and sums retained sizes up the tree', () => {
    // root → a → {b, c}; b → d; c → d; d → e; root ⇢ f (weak only).
    const graph = graphOf([
      {
        type: 'synthetic',
        name: '',
        edges: [
          ['element', '1', 1],
          ['weak', '2', 5],
        ],
      },
      {
        type: 'object',
        name: 'A',
        edges: [
          ['property', 'b', 2],
          ['property', 'c', 3],
        ],
      },
      { type: 'object', name: 'B', edges: [['property', 'd', 4]] },
      { type: 'object', name: 'C', edges: [['property', 'd', 4]] },
      { type: 'object', name: 'D', size: 100, edges: [['property', 'e', 6]] },
      { type: 'object', name: 'F' },
      { type: 'object', name: 'E', size: 1000 },
    ]);
    const tree = dominatorTree(graph);
    expect([...tree.dominator]).toEqual([0, 0, 1, 1, 1, 0, 4]);
    expect(tree.retained[1]).toBe(10 + 10 + 10 + 100 + 1000);
    expect(tree.retained[4]).toBe(1100);
    expect(tree.retained[0]).toBe(1150);
  });

  it('lets a WeakMap entry belong to its key, not to the table, and the string table hold nothing', () => {
    // The table is node 2 (id 5): V8 names the edges to an entry's value alike from the key and from the table.
    const pair = '1 / part of key (K @7) -> value (V @9) pair in WeakMap (table @5)';
    const graph = graphOf([
      {
        type: 'synthetic',
        name: '',
        edges: [
          ['element', '1', 1],
          ['element', '2', 3],
          ['element', '3', 5],
          ['element', '4', 7],
        ],
      },
      { type: 'object', name: 'WeakMap', edges: [['internal', 'table', 2]] },
      { type: 'array', name: '', edges: [['internal', pair, 4]] },
      { type: 'object', name: 'K', edges: [['internal', pair, 4]] },
      { type: 'object', name: 'V' },
      { type: 'synthetic', name: '(Internalized strings)', edges: [['internal', '1', 6]] },
      { type: 'string', name: 'literal' },
      { type: 'code', name: 'fn', edges: [['internal', 'constant', 6]] },
    ]);
    const tree = dominatorTree(graph);
    expect(tree.dominator[4]).toBe(3);
    expect(tree.dominator[6]).toBe(7);
  });
});

describe('nodeCategories', () => {
  it("gives each node the first category up its dominator chain, code and sources by kind, and a store's contents to the store", () => {
    const graph = graphOf([
      {
        type: 'synthetic',
        name: '',
        edges: [
          ['element', '1', 1],
          ['element', '2', 4],
          ['element', '3', 6],
        ],
      },
      { type: 'object', name: 'EventLog', edges: [['property', '#byCursor', 2]] },
      { type: 'object', name: 'Map', edges: [['internal', 'table', 3]] },
      { type: 'array', name: '' },
      { type: 'code', name: 'file:///app/node_modules/zod/index.js', edges: [['internal', 'source', 5]] },
      { type: 'string', name: 'export const z = 1;' },
      { type: 'object', name: 'Thing' },
    ]);
    expect(categoriesOf(graph)).toEqual(['other', 'event log', 'event log', 'event log', 'compiled code', 'module source', 'other']);
  });

  it('finds a store kept in a closure by its variables, and zod schemas by their `_zod`', () => {
    const graph = graphOf([
      {
        type: 'synthetic',
        name: '',
        edges: [
          ['element', '1', 1],
          ['element', '2', 3],
        ],
      },
      {
        type: 'object',
        name: 'system / Context',
        edges: [
          ['context', 'memory', 2],
          ['context', 'shared', 5],
        ],
      },
      { type: 'object', name: 'd' },
      { type: 'object', name: '_', edges: [['property', '_zod', 4]] },
      { type: 'object', name: 'Internals' },
      { type: 'hidden', name: 'undefined' },
    ]);
    expect(categoriesOf(graph)).toEqual(['other', 'other', 'APQ and trusted documents', 'zod schemas', 'zod schemas', 'other']);
  });

  it('gives a node held from two places of one category that category, and one held from two categories `other`', () => {
    const graph = graphOf([
      {
        type: 'synthetic',
        name: '',
        edges: [
          ['element', '1', 1],
          ['element', '2', 2],
          ['element', '3', 5],
        ],
      },
      {
        type: 'object',
        name: 'GraphQLObjectType',
        edges: [
          ['property', 'config', 3],
          ['property', 'shared', 4],
        ],
      },
      { type: 'object', name: 'BuildCache', edges: [['property', 'config', 3]] },
      { type: 'object', name: 'Object' },
      { type: 'object', name: 'Object' },
      { type: 'object', name: 'RecordCache', edges: [['property', 'shared', 4]] },
    ]);
    expect(categoriesOf(graph)).toEqual(['other', 'GraphQL schema', 'GraphQL schema', 'GraphQL schema', 'other', 'record cache']);
  });

  it("keeps a module record's own bytes apart from the module's state, and native memory off the heap", () => {
    const graph = graphOf([
      {
        type: 'synthetic',
        name: '',
        edges: [
          ['element', '1', 1],
          ['element', '2', 3],
        ],
      },
      { type: 'object', name: 'ModuleWrap', edges: [['property', 'state', 2]] },
      { type: 'object', name: 'Object' },
      { type: 'object', name: 'Socket', edges: [['internal', 'handle', 4]] },
      { type: 'native', name: 'Node / TCPSocketWrap', edges: [['internal', 'wraps', 5]] },
      { type: 'object', name: 'Object' },
    ]);
    expect(categoriesOf(graph)).toEqual(['other', 'module records', 'other', 'in-flight requests', 'off-heap', 'in-flight requests']);
  });

  it('counts what a load added that no store claims as the in-flight requests, given the idle snapshot', () => {
    const graph = graphOf([
      {
        type: 'synthetic',
        name: '',
        edges: [
          ['element', '1', 1],
          ['element', '2', 2],
        ],
      },
      { type: 'object', name: 'Object' },
      { type: 'object', name: 'Promise' },
    ]);
    expect(categoriesOf(graph, Uint32Array.of(1, 3))).toEqual(['other', 'other', 'in-flight requests']);
  });
});
