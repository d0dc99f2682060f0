import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandContext } from './command';
import { CliError } from './io';
import { formatOf, parseDocument, serializeDocument } from './json-yaml';
import { fsReason } from './fs-errors';

/**
 * Reads a JSON or YAML document named on the command line (relative to the working directory).
 * A name without .json, .yaml or .yml is a usage error before anything is read.
 */
export async function readDocumentArg(ctx: CommandContext, arg: string): Promise<unknown> {
  const path = resolve(ctx.io.cwd, arg);
  const format = formatOf(path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${fsReason(err)}`);
  }
  try {
    return parseDocument(format, text);
  } catch (err) {
    throw new CliError(`cannot parse ${path}: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
}

/** Writes a JSON or YAML document (mode 0600: it holds password hashes). */
export async function writeDocument(path: string, data: unknown): Promise<void> {
  await writeFile(path, serializeDocument(formatOf(path), data), { mode: 0o600 });
}
