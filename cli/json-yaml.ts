import { extname } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { UsageError } from './io';

export type DocumentFormat = 'json' | 'yaml';

/** The format a file name asks for: .json, or .yaml/.yml; anything else is a usage error. */
export function formatOf(path: string): DocumentFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  throw new UsageError(`invalid format "${ext || path}": the file name must end in .json, .yaml or .yml`);
}

/** Parses JSON or YAML; throws the parser's error (callers add which file it was). */
export function parseDocument(format: DocumentFormat, text: string): unknown {
  return format === 'json' ? JSON.parse(text) : parseYaml(text);
}

/** JSON indented by four spaces (as filebrowser's export), or YAML. */
export function serializeDocument(format: DocumentFormat, data: unknown): string {
  return format === 'json' ? `${JSON.stringify(data, null, 4)}\n` : stringifyYaml(data);
}
