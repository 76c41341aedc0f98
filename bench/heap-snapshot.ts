import { readFileSync } from 'node:fs';

/**
 * A V8 heap snapshot (`v8.writeHeapSnapshot`, the .heapsnapshot JSON DevTools reads) parsed into
 * typed arrays, and its dominator tree (Lengauer–Tarjan over the edges that hold: weak ones skipped,
 * as DevTools skips them) with each object's retained size. bench/heap-retainers.ts attributes what
 * it holds to retainer categories.
 */

/** A heap snapshot as arrays indexed by node ordinal (0 is the synthetic root) and by edge. */
export interface HeapGraph {
  nodeCount: number;
  /** Index into `nodeTypes`. */
  nodeType: Uint8Array;
  /** Index into `strings`: the constructor's name for an object, the function's for a closure, the text for a string. */
  nodeName: Uint32Array;
  /** V8's id of the object, the same in every snapshot of one process for as long as the object lives. */
  nodeId: Uint32Array;
  selfSize: Float64Array;
  /** The node's edges are firstEdge[n] .. firstEdge[n + 1] - 1. */
  firstEdge: Uint32Array;
  /** Index into `edgeTypes`. */
  edgeType: Uint8Array;
  /** Index into `strings` for named edges, the element's index for element and hidden edges. */
  edgeName: Uint32Array;
  /** The node ordinal the edge points to. */
  edgeTo: Uint32Array;
  strings: string[];
  nodeTypes: string[];
  edgeTypes: string[];
}

interface SnapshotJson {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
    node_count: number;
    edge_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** The position of `field` among a snapshot's fields; a snapshot without it cannot be read. */
function fieldIndex(fields: readonly string[], field: string): number {
  const at = fields.indexOf(field);
  if (at < 0) throw new Error(`heap snapshot: no "${field}" among its fields (${fields.join(', ')})`);
  return at;
}

/** The nodes' columns of a parsed snapshot, and where each node's edges start. */
function nodeColumns(json: SnapshotJson): Pick<HeapGraph, 'nodeCount' | 'nodeType' | 'nodeName' | 'nodeId' | 'selfSize' | 'firstEdge'> {
  const fields = json.snapshot.meta.node_fields;
  const width = fields.length;
  const [type, name, id, size, edges] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((field) => fieldIndex(fields, field)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const nodeCount = json.nodes.length / width;
  const nodeType = new Uint8Array(nodeCount);
  const nodeName = new Uint32Array(nodeCount);
  const nodeId = new Uint32Array(nodeCount);
  const selfSize = new Float64Array(nodeCount);
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (let node = 0, at = 0; node < nodeCount; node++, at += width) {
    nodeType[node] = json.nodes[at + type]!;
    nodeName[node] = json.nodes[at + name]!;
    nodeId[node] = json.nodes[at + id]!;
    selfSize[node] = json.nodes[at + size]!;
    firstEdge[node + 1] = firstEdge[node]! + json.nodes[at + edges]!;
  }
  return { nodeCount, nodeType, nodeName, nodeId, selfSize, firstEdge };
}

/** The edges' columns of a parsed snapshot, their targets turned from offsets into the nodes array into node ordinals. */
function edgeColumns(json: SnapshotJson): Pick<HeapGraph, 'edgeType' | 'edgeName' | 'edgeTo'> {
  const fields = json.snapshot.meta.edge_fields;
  const width = fields.length;
  const nodeWidth = json.snapshot.meta.node_fields.length;
  const [type, name, to] = ['type', 'name_or_index', 'to_node'].map((field) => fieldIndex(fields, field)) as [number, number, number];
  const edgeCount = json.edges.length / width;
  const edgeType = new Uint8Array(edgeCount);
  const edgeName = new Uint32Array(edgeCount);
  const edgeTo = new Uint32Array(edgeCount);
  for (let edge = 0, at = 0; edge < edgeCount; edge++, at += width) {
    edgeType[edge] = json.edges[at + type]!;
    edgeName[edge] = json.edges[at + name]!;
    edgeTo[edge] = json.edges[at + to]! / nodeWidth;
  }
  return { edgeType, edgeName, edgeTo };
}

/** Reads a .heapsnapshot file (as written by `v8.writeHeapSnapshot`) into typed arrays. */
export function readHeapSnapshot(path: string): HeapGraph {
  const json = JSON.parse(readFileSync(path, 'utf8')) as SnapshotJson;
  const graph: HeapGraph = {
    ...nodeColumns(json),
    ...edgeColumns(json),
    strings: json.strings,
    nodeTypes: json.snapshot.meta.node_types[0],
    edgeTypes: json.snapshot.meta.edge_types[0],
  };
  if (graph.firstEdge[graph.nodeCount] !== graph.edgeTo.length) throw new Error('heap snapshot: its nodes count more edges than it has');
  return graph;
}

/** The root: the snapshot's synthetic first node, parent of the GC roots. */
export const ROOT = 0;

/** Whether a node's edge holds its target, for the dominator tree. */
type Holding = (from: number, edge: number) => boolean;

/** A WeakMap's entry as V8 names the edges to its value, from the key and from the table alike: the table's node id. */
const EPHEMERON = /pair in WeakMap \(table @(\d+)\)$/;

/** The node named `name` (a synthetic root's), -1 if none. */
function nodeNamed(graph: HeapGraph, name: string): number {
  const index = graph.strings.indexOf(name);
  return index < 0 ? -1 : graph.nodeName.indexOf(index);
}

/**
 * Which edges hold their target, as DevTools decides: weak edges do not, nor do shortcut edges
 * (bookkeeping links V8 adds beside the real ones) except the root's. Unlike DevTools, two more do
 * not, being weak in V8 though the snapshot does not say so: the string table's (an internalized
 * string, a property name or a literal, lives as long as the code or the object that uses it), and
 * a WeakMap's table's edge to an entry's value, which lives as long as its key (a cache of analyses
 * per document is the documents' cache's, not the module's that keeps the WeakMap).
 */
function holdingEdges(graph: HeapGraph): Holding {
  const weak = graph.edgeTypes.indexOf('weak');
  const shortcut = graph.edgeTypes.indexOf('shortcut');
  const internal = graph.edgeTypes.indexOf('internal');
  const stringTable = nodeNamed(graph, '(Internalized strings)');
  const tableOf = new Map<number, number>();
  graph.strings.forEach((text, index) => {
    const found = text.includes('pair in WeakMap') ? EPHEMERON.exec(text) : null;
    if (found) tableOf.set(index, Number(found[1]));
  });
  return (from, edge) => {
    const type = graph.edgeType[edge]!;
    if (type === weak || (type === shortcut && from !== ROOT) || from === stringTable) return false;
    return type !== internal || tableOf.get(graph.edgeName[edge]!) !== graph.nodeId[from];
  };
}

/** The nodes reachable from the root by holding edges, in depth-first preorder, and each one's tree parent and preorder number (-1: unreached). */
interface Preorder {
  /** Preorder number → node. */
  order: Int32Array;
  /** How many nodes are reached (order's used length). */
  reached: number;
  /** Node → its preorder number, -1 when unreached. */
  number: Int32Array;
  /** Node → its parent in the depth-first tree. */
  parent: Int32Array;
}

/** Depth-first search from the root along holding edges, without recursion (the heap is millions of nodes deep at worst). */
function depthFirst(graph: HeapGraph, holds: Holding): Preorder {
  const n = graph.nodeCount;
  const order = new Int32Array(n);
  const number = new Int32Array(n).fill(-1);
  const parent = new Int32Array(n).fill(-1);
  const stackNode = new Int32Array(n);
  const stackEdge = new Uint32Array(n);
  let reached = 0;
  let depth = 0;
  number[ROOT] = reached;
  order[reached++] = ROOT;
  stackNode[0] = ROOT;
  stackEdge[0] = graph.firstEdge[ROOT]!;
  while (depth >= 0) {
    const node = stackNode[depth]!;
    const edge = stackEdge[depth]!;
    if (edge >= graph.firstEdge[node + 1]!) {
      depth--;
      continue;
    }
    stackEdge[depth] = edge + 1;
    const to = graph.edgeTo[edge]!;
    if (number[to] !== -1 || !holds(node, edge)) continue;
    number[to] = reached;
    order[reached++] = to;
    parent[to] = node;
    depth++;
    stackNode[depth] = to;
    stackEdge[depth] = graph.firstEdge[to]!;
  }
  return { order, reached, number, parent };
}

/** Each reached node's holders: the nodes with a holding edge to it, node n's being from[first[n]] .. from[first[n + 1] - 1]. */
export interface Holders {
  first: Uint32Array;
  from: Uint32Array;
}

/** Each reached node's holders along holding edges, as one flat list with offsets (CSR). */
function predecessors(graph: HeapGraph, number: Int32Array, holds: Holding): Holders {
  const first = new Uint32Array(graph.nodeCount + 1);
  const counted = (visit: (from: number, to: number) => void) => {
    for (let from = 0; from < graph.nodeCount; from++) {
      if (number[from] === -1) continue;
      for (let edge = graph.firstEdge[from]!; edge < graph.firstEdge[from + 1]!; edge++) {
        if (holds(from, edge)) visit(from, graph.edgeTo[edge]!);
      }
    }
  };
  counted((_, to) => first[to + 1]!++);
  for (let node = 0; node < graph.nodeCount; node++) first[node + 1]! += first[node]!;
  const next = first.slice(0, graph.nodeCount);
  const from = new Uint32Array(first[graph.nodeCount]!);
  counted((source, to) => (from[next[to]!++] = source));
  return { first, from };
}

/**
 * The immediate dominator of every node (Lengauer–Tarjan, the simple version: path compression
 * without balancing), the root's being itself. Nodes the root does not reach through holding
 * edges (held only weakly) are given the root, as DevTools gives them.
 */
function immediateDominators(graph: HeapGraph): { dominator: Int32Array; preorder: Preorder; holders: Holders } {
  const holds = holdingEdges(graph);
  const preorder = depthFirst(graph, holds);
  const { order, reached, number, parent } = preorder;
  const holders = predecessors(graph, number, holds);
  const { first, from } = holders;
  const n = graph.nodeCount;
  // semi: the semidominator's preorder number; label and ancestor: the link-eval forest.
  const semi = Int32Array.from(number);
  const label = Int32Array.from({ length: n }, (_, node) => node);
  const ancestor = new Int32Array(n).fill(-1);
  const dominator = new Int32Array(n).fill(ROOT);
  const bucketHead = new Int32Array(n).fill(-1);
  const bucketNext = new Int32Array(n).fill(-1);
  const path = new Int32Array(n);

  /** The node of least semidominator on the forest path above `node`, compressing the path on the way. */
  const evaluate = (node: number): number => {
    if (ancestor[node] === -1) return node;
    let depth = 0;
    for (let at = node; ancestor[ancestor[at]!] !== -1; at = ancestor[at]!) path[depth++] = at;
    while (depth > 0) {
      const at = path[--depth]!;
      const up = ancestor[at]!;
      if (semi[label[up]!]! < semi[label[at]!]!) label[at] = label[up]!;
      ancestor[at] = ancestor[up]!;
    }
    return label[node]!;
  };

  for (let i = reached - 1; i > 0; i--) {
    const node = order[i]!;
    for (let p = first[node]!; p < first[node + 1]!; p++) {
      const best = evaluate(from[p]!);
      if (semi[best]! < semi[node]!) semi[node] = semi[best]!;
    }
    const semidominator = order[semi[node]!]!;
    bucketNext[node] = bucketHead[semidominator]!;
    bucketHead[semidominator] = node;
    const up = parent[node]!;
    ancestor[node] = up;
    for (let waiting = bucketHead[up]!; waiting !== -1; waiting = bucketNext[waiting]!) {
      const best = evaluate(waiting);
      dominator[waiting] = semi[best]! < semi[waiting]! ? best : up;
    }
    bucketHead[up] = -1;
  }
  for (let i = 1; i < reached; i++) {
    const node = order[i]!;
    if (dominator[node] !== order[semi[node]!]) dominator[node] = dominator[dominator[node]!]!;
  }
  dominator[ROOT] = ROOT;
  return { dominator, preorder, holders };
}

/** The dominator tree of a snapshot and the sizes it gives. */
export interface DominatorTree {
  dominator: Int32Array;
  /** Who holds each node, the edges the tree was computed from. */
  holders: Holders;
  /** Nodes with every node after its dominator: the reached ones in preorder, then the unreached ones. */
  topDown: Int32Array;
  /** Bytes freed if the node went: its own and those of everything it dominates. */
  retained: Float64Array;
}

/** Reached nodes in preorder, then those held only weakly (dominated by the root, so after it too). */
function topDownOrder(nodeCount: number, preorder: Preorder): Int32Array {
  const topDown = new Int32Array(nodeCount);
  topDown.set(preorder.order.subarray(0, preorder.reached));
  let at = preorder.reached;
  for (let node = 0; node < nodeCount; node++) if (preorder.number[node] === -1) topDown[at++] = node;
  return topDown;
}

/** The dominator tree and each node's retained size. */
export function dominatorTree(graph: HeapGraph): DominatorTree {
  const { dominator, preorder, holders } = immediateDominators(graph);
  const topDown = topDownOrder(graph.nodeCount, preorder);
  const retained = Float64Array.from(graph.selfSize);
  for (let i = graph.nodeCount - 1; i > 0; i--) {
    const node = topDown[i]!;
    retained[dominator[node]!]! += retained[node]!;
  }
  return { dominator, holders, topDown, retained };
}
