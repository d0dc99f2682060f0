import { describe, expect, it } from 'vitest';
import { describeEdge, folderBelow, importEdges, isTestFile, lineCount, sourceFiles, type ImportEdge } from './import-graph';

// The one-way imports of web/ (ARCHITECTURE.md): app -> screens -> features -> components -> i18n
// -> state -> api -> paths -> lib, and no feature imports another (static or dynamic import()).

/** The layers of web/, top to bottom; a new folder of web/ gets its row here and in ARCHITECTURE.md. */
const WEB_LAYERS: Record<string, number> = {
  main: 8, app: 8, routes: 8,
  screens: 7,
  features: 6,
  components: 5,
  i18n: 4, pages: 4,
  state: 3,
  api: 2,
  paths: 1,
  lib: 0, styles: 0,
};

const edges = importEdges(['web']);

function webPart(path: string): string | undefined {
  if (!path.startsWith('web/')) return undefined;
  return path.slice('web/'.length).split('/')[0]!.replace(/\.(ts|tsx|css)$/, '');
}

function violations(rule: (e: ImportEdge) => boolean): string[] {
  return edges.filter((e) => !isTestFile(e.from)).filter(rule).map(describeEdge);
}

describe('web import rules (ARCHITECTURE.md)', () => {
  it('finds the imports it checks, dynamic ones included', () => {
    expect(edges.some((e) => e.from === 'web/features/preview/viewer.tsx' && e.to === 'web/features/preview/pdf-viewer')).toBe(true);
  });

  it('gives every file of web/ a layer', () => {
    const files = sourceFiles('web').filter((f) => !isTestFile(f));
    expect([...new Set(files.map(webPart).filter((part) => part !== undefined && !(part in WEB_LAYERS)))]).toEqual([]);
  });

  it('never lets a feature import another feature', () => {
    expect(violations((e) => {
      const from = folderBelow(e.from, 'web/features');
      const to = folderBelow(e.to, 'web/features');
      return from !== undefined && to !== undefined && from !== to;
    })).toEqual([]);
  });

  it('never lets a web layer import a higher one', () => {
    expect(violations((e) => {
      const [from, to] = [webPart(e.from), webPart(e.to)];
      if (from === undefined || to === undefined) return false;
      return (WEB_LAYERS[to] ?? 0) > (WEB_LAYERS[from] ?? 0);
    })).toEqual([]);
  });

  it('reaches outside web/ only for the server contract types', () => {
    expect(violations((e) => !e.to.startsWith('web/') && !e.to.startsWith('server/contract/'))).toEqual([]);
  });

  it('keeps every web source file at 300 lines or fewer', () => {
    expect(sourceFiles('web').filter((f) => !isTestFile(f) && lineCount(f) > 300)).toEqual([]);
  });
});
