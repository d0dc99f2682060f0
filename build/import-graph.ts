// The repository's import graph, read with the TypeScript scanner (static imports, `export ... from`,
// dynamic `import()` and `require`), for the tests that hold the one-way import rules of
// ARCHITECTURE.md: build/import-rules.test.ts (server, cli, tests) and build/web-import-rules.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository root (this file is in build/). */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const SOURCE = /\.(ts|tsx|js|mjs)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.tmp', '.git']);

/** One import: the importing file and the repository path it names (no extension), both '/'-separated. */
export interface ImportEdge {
  from: string;
  to: string;
  specifier: string;
}

/** The source files under `dir` (repository-relative), recursively. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string): void => {
    for (const entry of readdirSync(join(REPO_ROOT, rel), { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const child = posix.join(rel, entry.name);
      if (entry.isDirectory()) visit(child);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(child);
    }
  };
  visit(dir);
  return out.sort();
}

/** A test file (x.test.ts beside x.ts) or anything under tests/. */
export function isTestFile(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || file.startsWith('tests/');
}

/** The repository path an import names, or undefined for a package (node:, npm). */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('@contract/')) return posix.join('server/contract', specifier.slice('@contract/'.length));
  if (!specifier.startsWith('.')) return undefined;
  return posix.normalize(posix.join(dirname(from), specifier)).replace(SOURCE, '');
}

/** Every import of `file` that names a file of the repository. */
export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const scanned = ts.preProcessFile(text, true, true).importedFiles;
  const edges: ImportEdge[] = [];
  for (const { fileName } of scanned) {
    const to = resolveSpecifier(file, fileName);
    if (to !== undefined) edges.push({ from: file, to, specifier: fileName });
  }
  return edges;
}

/** The imports of every source file under the given folders. */
export function importEdges(dirs: string[]): ImportEdge[] {
  return dirs.flatMap((dir) => sourceFiles(dir).flatMap(importsOf));
}

/** The folder right below `prefix` that holds `path` ('server/resources/raw/x' -> 'raw'), or undefined. */
export function folderBelow(path: string, prefix: string): string | undefined {
  if (!path.startsWith(`${prefix}/`)) return undefined;
  const rest = path.slice(prefix.length + 1).split('/');
  return rest.length > 1 ? rest[0] : undefined;
}

/** A violation as a test prints it. */
export function describeEdge(edge: ImportEdge): string {
  return `${edge.from} imports '${edge.specifier}'`;
}

/** Physical line count of a file. */
export function lineCount(file: string): number {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}
