/**
 * GraphQL incremental delivery over `multipart/mixed` (Yoga's boundary `-`): each part is headers,
 * a blank line, then one JSON payload, followed by the next boundary. Used by the benchmark's @defer
 * timing and by test/protocol/defer-stream.test.ts.
 */

/** The complete parts at the head of `buffer`, as JSON text, and what is left to complete. */
export function multipartParts(buffer: string): { parts: string[]; rest: string } {
  const parts: string[] = [];
  let rest = buffer;
  for (let match = /\r\n\r\n(\{[\s\S]*?\})\r\n---/.exec(rest); match; match = /\r\n\r\n(\{[\s\S]*?\})\r\n---/.exec(rest)) {
    parts.push(match[1]!);
    rest = rest.slice(match.index + match[0].length - 3);
  }
  return { parts, rest };
}
