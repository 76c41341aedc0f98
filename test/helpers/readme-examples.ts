import { readFileSync } from 'node:fs';

/** The README's operation examples, as its "Operations" tables give them: one per operation name. */
export interface ReadmeExample {
  name: string;
  example: string;
}

export function readmeExamples(): ReadmeExample[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const operations = readme.slice(readme.indexOf('## Operations'), readme.indexOf('## Where to go next'));
  return [...operations.matchAll(/^\| `([^`]+)`[^|]*\| `(.+)` \|$/gm)].map(([, name, example]) => ({ name: name!, example: example! }));
}
