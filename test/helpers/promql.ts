/**
 * What Prometheus reads, read by a test: the text a gateway's /metrics exposes (series and their
 * label names), and the metrics and labels a PromQL expression names. Not a PromQL parser (no
 * promtool here, and no library that parses PromQL for Node is kept): a tokenizer and a walk that
 * finds every vector selector, its matchers' label names, and the label lists of by, without, on,
 * ignoring, group_left and group_right. An identifier before `(` that is no PromQL function fails,
 * so a typo in a function's name is caught too.
 */

/** Each series name exposed, with the label names seen on its samples. */
export type Exposition = Map<string, Set<string>>;

/**
 * Reads Prometheus' text format as prom-client writes it. A family declared by `# TYPE` that has no
 * sample yet (a labelled counter nothing has counted) gives its names with no labels: a query that
 * selects on its labels fails until traffic has made a series.
 */
export function readExposition(text: string): Exposition {
  const series: Exposition = new Map();
  const add = (name: string, labels: Iterable<string> = []) => {
    const known = series.get(name) ?? new Set<string>();
    for (const label of labels) known.add(label);
    series.set(name, known);
  };
  for (const line of text.split('\n')) {
    const declared = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (declared) {
      const [, family, type] = declared as unknown as [string, string, string];
      if (type === 'histogram')
        for (const suffix of ['_bucket', '_sum', '_count']) add(`${family}${suffix}`, suffix === '_bucket' ? ['le'] : []);
      else if (type === 'summary')
        for (const suffix of ['', '_sum', '_count']) add(`${family}${suffix}`, suffix === '' ? ['quantile'] : []);
      else add(family);
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+\S+/.exec(line);
    if (sample)
      add(
        sample[1]!,
        [...(sample[2] ?? '').matchAll(/([a-zA-Z_]\w*)="(?:[^"\\]|\\.)*"/g)].map((m) => m[1]!),
      );
  }
  return series;
}

/** What an expression names: its selectors (metric and matcher labels) and its grouping labels. */
export interface PromqlReading {
  selectors: { metric: string | undefined; labels: string[] }[];
  groupingLabels: string[];
}

const AGGREGATIONS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
  'limitk',
  'limit_ratio',
]);
const FUNCTIONS = new Set([
  ...[
    'abs',
    'absent',
    'absent_over_time',
    'ceil',
    'changes',
    'clamp',
    'clamp_max',
    'clamp_min',
    'day_of_month',
    'day_of_week',
    'day_of_year',
    'days_in_month',
    'delta',
    'deriv',
    'exp',
    'floor',
  ],
  ...[
    'histogram_avg',
    'histogram_count',
    'histogram_fraction',
    'histogram_quantile',
    'histogram_stddev',
    'histogram_stdvar',
    'histogram_sum',
    'holt_winters',
    'double_exponential_smoothing',
    'hour',
    'idelta',
    'increase',
    'irate',
  ],
  ...[
    'label_join',
    'label_replace',
    'ln',
    'log10',
    'log2',
    'minute',
    'month',
    'predict_linear',
    'rate',
    'resets',
    'round',
    'scalar',
    'sgn',
    'sort',
    'sort_desc',
    'sort_by_label',
    'sort_by_label_desc',
    'sqrt',
  ],
  ...[
    'time',
    'timestamp',
    'vector',
    'year',
    'avg_over_time',
    'min_over_time',
    'max_over_time',
    'sum_over_time',
    'count_over_time',
    'quantile_over_time',
    'stddev_over_time',
    'stdvar_over_time',
    'last_over_time',
    'present_over_time',
    'mad_over_time',
  ],
  ...['acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'cos', 'cosh', 'sin', 'sinh', 'tan', 'tanh', 'deg', 'rad', 'pi'],
]);
const BINARY_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'atan2']);
const LABEL_LISTS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

type Token = { kind: 'ident' | 'string' | 'number' | 'variable' | 'punct'; text: string };

const TOKEN =
  /\s+|#[^\n]*|(?<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)|(?<variable>\$\{[^}]*\}|\$\w+)|(?<ident>[a-zA-Z_:][\w:]*)|(?<number>\d[\w.]*(?:[eE][+-]?\d+)?)|(?<punct>=~|!~|==|!=|<=|>=|[-+*/%^<>=(){}[\],@:])/y;

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expr);
    if (!match) throw new Error(`PromQL: cannot read ${JSON.stringify(expr.slice(at, at + 20))} in ${expr}`);
    const kind = (['string', 'variable', 'ident', 'number', 'punct'] as const).find((name) => match.groups![name] !== undefined);
    if (kind) tokens.push({ kind, text: match[0] });
  }
  return tokens;
}

export function readPromql(expr: string): PromqlReading {
  const tokens = tokenize(expr);
  const reading: PromqlReading = { selectors: [], groupingLabels: [] };
  const at = (i: number) => tokens[i]?.text;
  /** The identifiers between `(` at `open` and its `)`: a label list. Returns the index after it. */
  const labelList = (open: number, into: string[]) => {
    let i = open + 1;
    for (; at(i) !== ')'; i++) {
      if (i >= tokens.length) throw new Error(`PromQL: unclosed label list in ${expr}`);
      if (tokens[i]!.kind === 'ident') into.push(at(i)!);
    }
    return i + 1;
  };
  /** The label names of the matchers in `{` at `open` ... `}`. Returns the index after it. */
  const matchers = (open: number, into: string[]) => {
    let i = open + 1;
    for (; at(i) !== '}'; i++) {
      if (i >= tokens.length) throw new Error(`PromQL: unclosed selector in ${expr}`);
      if (tokens[i]!.kind === 'ident' && ['=', '!=', '=~', '!~'].includes(at(i + 1) ?? '')) into.push(at(i)!);
    }
    return i + 1;
  };
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token.text === '[') {
      while (i < tokens.length && at(i) !== ']') i++; // a range or subquery: durations and variables
      i++;
    } else if (token.text === '{') {
      const labels: string[] = [];
      i = matchers(i, labels);
      reading.selectors.push({ metric: undefined, labels });
    } else if (token.kind !== 'ident') i++;
    else if (LABEL_LISTS.has(token.text)) i = at(i + 1) === '(' ? labelList(i + 1, reading.groupingLabels) : i + 1;
    else if (BINARY_KEYWORDS.has(token.text)) i++;
    else if (token.text === 'offset') i += 2;
    else if (AGGREGATIONS.has(token.text) && ['(', 'by', 'without'].includes(at(i + 1) ?? '')) i++;
    else if (at(i + 1) === '(') {
      if (!FUNCTIONS.has(token.text)) throw new Error(`PromQL: ${token.text}() is no PromQL function, in ${expr}`);
      i++;
    } else {
      const labels: string[] = [];
      i = at(i + 1) === '{' ? matchers(i + 1, labels) : i + 1;
      reading.selectors.push({ metric: token.text, labels });
    }
  }
  return reading;
}
