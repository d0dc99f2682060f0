import { extname } from 'node:path';
import type * as Yaml from 'yaml';
import type { Tags } from 'yaml';
import { loadLater } from '../server/lib/load-later';
import { UsageError } from './io';

export type DocumentFormat = 'json' | 'yaml';

// Only YAML config files and imports need the parser: not loaded by every start.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
const yaml = loadLater<typeof Yaml>('yaml', () => require('yaml'));

/** The format a file name asks for: .json, or .yaml/.yml; anything else is a usage error. */
export function formatOf(path: string): DocumentFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  throw new UsageError(`invalid format "${ext || path}": the file name must end in .json, .yaml or .yml`);
}

/**
 * YAML 1.1's float pattern matches a lone "." (the library follows the spec's regular
 * expression), which would turn `root: .` and `scope: .` into NaN. Go's yaml.v2 reads "." as a
 * string; so do we, by demanding a digit.
 */
function yaml11Tags(tags: Tags): Tags {
  return tags.map((tag) => {
    if (typeof tag !== 'object' || tag.tag !== 'tag:yaml.org,2002:float' || tag.format || !(tag.test instanceof RegExp) || !tag.test.test('.')) return tag;
    return Object.assign({}, tag, { test: /^[-+]?(?:[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)$/ });
  });
}

/**
 * Parses JSON or YAML; throws the parser's error (callers add which file it was). YAML is read
 * as YAML 1.1, the dialect filebrowser's Go library (yaml.v2) writes: yes/no are booleans and
 * `!!binary` (how it may write the key) is understood.
 */
export function parseDocument(format: DocumentFormat, text: string): unknown {
  return format === 'json' ? JSON.parse(text) : yaml().parse(text, { version: '1.1', customTags: yaml11Tags });
}

/**
 * JSON indented by four spaces (as filebrowser's export), or YAML 1.1, which quotes strings
 * such as "yes" or "0640" so that yaml.v2 reads them back as strings.
 */
export function serializeDocument(format: DocumentFormat, data: unknown): string {
  return format === 'json' ? `${JSON.stringify(data, null, 4)}\n` : yaml().stringify(data, { version: '1.1' });
}
