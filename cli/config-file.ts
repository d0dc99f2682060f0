import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CliError, UsageError } from './io';
import { formatOf, parseDocument, type DocumentFormat } from './json-yaml';
import { fsReason } from './fs-errors';

/** A parsed config file: flag names (or their old spellings) as keys. */
export interface ConfigFile {
  path: string;
  values: Record<string, unknown>;
}

const NAMES = ['.filemgr.json', '.filemgr.yaml', '.filemgr.yml'];

function parseText(path: string, text: string): Record<string, unknown> {
  let format: DocumentFormat;
  try {
    format = formatOf(path);
  } catch (err) {
    if (err instanceof UsageError) throw new CliError(`the config file ${path} must end in .json, .yaml or .yml`);
    throw err;
  }
  let data: unknown;
  try {
    data = parseDocument(format, text);
  } catch (err) {
    throw new CliError(`cannot parse the config file ${path}: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
  // An empty YAML file is an empty configuration.
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new CliError(`the config file ${path} must hold an object of flag names and values`);
  return data as Record<string, unknown>;
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new CliError(`cannot read the config file ${path}: ${fsReason(err)}`);
  }
}

/**
 * Loads the config file: the explicit one (which must exist), or the first of
 * .filemgr.json|.yaml|.yml found in `searchDirs` (./, $HOME/, /etc/filemgr/). A file that does
 * not parse stops the command; none found is no configuration.
 */
export async function loadConfigFile(explicit: string, searchDirs: readonly string[], cwd: string): Promise<ConfigFile | undefined> {
  if (explicit !== '') {
    const path = resolve(cwd, explicit);
    const text = await readIfPresent(path);
    if (text === undefined) throw new CliError(`the config file ${path} does not exist`);
    return { path, values: parseText(path, text) };
  }
  // Every candidate is read at once (nine reads one after another were a few ms of each start);
  // the first present in order wins, and a read error counts only where the search would reach it.
  const paths = searchDirs.flatMap((dir) => NAMES.map((name) => resolve(cwd, join(dir, name))));
  const reads = paths.map((path) => readIfPresent(path).then((text) => ({ text }), (error: unknown) => ({ error })));
  for (const [i, path] of paths.entries()) {
    const read = await (reads[i] as (typeof reads)[number]);
    if ('error' in read) throw read.error;
    if (read.text !== undefined) return { path, values: parseText(path, read.text) };
  }
  return undefined;
}

/** The keys of a config file that name no flag: reported, then ignored. */
export function unknownKeys(file: ConfigFile, known: ReadonlySet<string>): string[] {
  return Object.keys(file.values).filter((k) => !known.has(k));
}
