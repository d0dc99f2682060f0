import { describe, expect, it } from 'vitest';
import { describeEdge, folderBelow, importEdges, isTestFile, lineCount, sourceFiles, type ImportEdge } from './import-graph';

// The one-way imports of ARCHITECTURE.md, held by code: server layers, resources, cli, tests.
// The web's rules are in web-import-rules.test.ts.

/**
 * The layers of server/, top to bottom: a file imports its own layer or lower ones, never higher.
 * A new folder of server/ gets its row here and in ARCHITECTURE.md.
 */
const SERVER_LAYERS: Record<string, number> = {
  app: 7, 'app-services': 7, start: 7, 'silent-connections': 7,
  resources: 6,
  plugins: 5, http: 5,
  activity: 4,
  accounts: 4, archive: 4, index: 4, command: 4, hooks: 4, media: 4, search: 4, setup: 4, tus: 4, quota: 4,
  fs: 3,
  rules: 2,
  state: 1,
  lib: 0, contract: 0, errors: 0, config: 0, version: 0,
};

const CODE_DIRS = ['server', 'cli', 'build', 'scripts'];
const edges = importEdges([...CODE_DIRS, 'web', 'tests']);
const nonTest = (e: ImportEdge): boolean => !isTestFile(e.from);

/** The layer name of a server path ('server/fs/scope' -> 'fs', 'server/app' -> 'app'). */
function serverPart(path: string): string | undefined {
  if (!path.startsWith('server/')) return undefined;
  return path.slice('server/'.length).split('/')[0]!.replace(/\.(ts|tsx)$/, '');
}

function violations(rule: (e: ImportEdge) => boolean): string[] {
  return edges.filter(rule).map(describeEdge);
}

describe('import rules (ARCHITECTURE.md)', () => {
  it('finds the imports it checks', () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges.some((e) => e.from === 'server/app.ts' && e.to === 'server/resources/raw/routes')).toBe(true);
    // Dynamic import() counts: the preview's lazily loaded PDF viewer.
    expect(edges.some((e) => e.from === 'web/features/preview/viewer.tsx' && e.to === 'web/features/preview/pdf-viewer')).toBe(true);
  });

  it('gives every file of server/ a layer', () => {
    const unplaced = sourceFiles('server').filter((f) => !isTestFile(f)).map(serverPart).filter((part) => part !== undefined && !(part in SERVER_LAYERS));
    expect([...new Set(unplaced)]).toEqual([]);
  });

  it('never lets a server layer import a higher one', () => {
    expect(violations((e) => {
      const [from, to] = [serverPart(e.from), serverPart(e.to)];
      if (from === undefined || to === undefined || !nonTest(e)) return false;
      return (SERVER_LAYERS[to] ?? 0) > (SERVER_LAYERS[from] ?? 0);
    })).toEqual([]);
  });

  it('never lets a resource import another resource (app.ts composes them)', () => {
    expect(violations((e) => {
      const from = folderBelow(e.from, 'server/resources');
      const to = folderBelow(e.to, 'server/resources');
      return from !== undefined && to !== undefined && from !== to;
    })).toEqual([]);
  });

  it('lets only app.ts (the route table), app-services.ts (their services) and the tests import server/resources/', () => {
    expect(violations((e) => e.to.startsWith('server/resources/') && !e.from.startsWith('server/resources/') && !['server/app.ts', 'server/app-services.ts'].includes(e.from) && nonTest(e))).toEqual([]);
  });

  it('keeps server/contract free of everything but other contract files', () => {
    expect(violations((e) => e.from.startsWith('server/contract/') && !e.to.startsWith('server/contract/'))).toEqual([]);
  });

  it('keeps server/ free of cli/, build/, scripts/ and web/', () => {
    expect(violations((e) => e.from.startsWith('server/') && /^(cli|build|scripts|web)\//.test(e.to))).toEqual([]);
  });

  it('lets no source outside the tests import tests/ or a test file', () => {
    expect(violations((e) => nonTest(e) && (e.to.startsWith('tests/') || /\.test$/.test(e.to)))).toEqual([]);
  });
});

describe('file sizes (ARCHITECTURE.md)', () => {
  const files = [...CODE_DIRS, 'tests'].flatMap(sourceFiles);

  it('keeps every source file at 300 lines or fewer', () => {
    expect(files.filter((f) => !isTestFile(f) && lineCount(f) > 300)).toEqual([]);
  });

  it('keeps every test file at 600 lines or fewer', () => {
    expect(files.filter((f) => isTestFile(f) && lineCount(f) > 600)).toEqual([]);
  });
});
