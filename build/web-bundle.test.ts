import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTree, type Tree } from '../tests/support/tree';
import { compileIndex } from '../server/plugins/web-assets/index-template';
import { repoLayout as realLayout, type BuildLayout } from './layout';
import { bundleWeb, copyPublic, renderIndex, webOutDir } from './web-bundle';

/** The repository layout of a test tree, without the real app's screens (tests name their own). */
function repoLayout(root: string, screens: BuildLayout['screens'] = []): BuildLayout {
  return { ...realLayout(root), screens };
}

const TEMPLATE = '<html><head><title>[{[ Title ]}]</title><!-- filemgr:entry --></head><body></body></html>';

const APP: Tree = {
  'web/main.tsx': 'import "./main.css";\nconst el = <p id="x">hi</p>;\nvoid import("./lazy").then((m) => m.later(el));\n',
  'web/lazy.ts': 'export function later(v: unknown) { console.log("later", v); }\n',
  'web/main.css': 'p { color: red }\n',
  'web/index.html': TEMPLATE,
  'web/public/img/logo.svg': '<svg/>',
  // The automatic JSX runtime import, resolved locally so the test needs no React.
  'node_modules/react/package.json': '{"name":"react","version":"0.0.0"}',
  'node_modules/react/jsx-runtime.js': 'export function jsx(t, p) { return { t, p }; }\n',
};

describe('the web bundle', () => {
  it('writes a hashed ESM entry, a hashed stylesheet and a lazily loaded chunk under assets/', async () => {
    const layout = repoLayout(await makeTree(APP));
    const entry = await bundleWeb(layout);
    expect(entry.js).toMatch(/^assets\/main-[A-Z0-9]{8}\.js$/);
    expect(entry.css).toMatch(/^assets\/main-[A-Z0-9]{8}\.css$/);
    const js = readFileSync(join(webOutDir(layout), entry.js), 'utf8');
    const lazy = /import\("\.\/chunks\/(lazy-[A-Z0-9]{8}\.js)"\)/.exec(js)?.[1];
    expect(lazy).toBeDefined();
    expect(readFileSync(join(webOutDir(layout), 'assets/chunks', lazy ?? ''), 'utf8')).toContain('later');
    expect(js).not.toMatch(/\n\s+\S/);
  });

  it('lists the chunks the entry imports statically, not the lazy ones, for modulepreload', async () => {
    // shared.ts is imported by the entry and by the lazy module: a chunk of its own.
    const layout = repoLayout(await makeTree({
      ...APP,
      'web/main.tsx': 'import { shared } from "./shared";\nshared();\nvoid import("./lazy").then((m) => m.later(1));\n',
      'web/lazy.ts': 'import { shared } from "./shared";\nexport function later(v: unknown) { shared(); console.log(v); }\n',
      'web/shared.ts': 'export function shared() { console.log("shared"); }\n',
    }));
    const entry = await bundleWeb(layout);
    expect(entry.preload).toHaveLength(1);
    expect(entry.preload[0]).toMatch(/^assets\/chunks\/chunk-[A-Z0-9]{8}\.js$/);
    expect(readFileSync(join(webOutDir(layout), entry.preload[0] ?? ''), 'utf8')).toContain('shared');
  });

  it('lists, per screen, its lazy chunk and the static imports the entry does not already preload', async () => {
    // main -> shared; screen (lazy) -> shared + own; other (lazy) is no screen of the table.
    const root = await makeTree({
      ...APP,
      'web/main.tsx': 'import { shared } from "./shared";\nshared();\nvoid import("./screen").then((m) => m.show());\nvoid import("./other");\n',
      'web/screen.ts': 'import { shared } from "./shared";\nimport { own } from "./own";\nexport function show() { shared(); own(); }\n',
      'web/other.ts': 'import { own } from "./own";\nown();\n',
      'web/own.ts': 'export function own() { console.log("own"); }\n',
      'web/shared.ts': 'export function shared() { console.log("shared"); }\n',
    });
    const entry = await bundleWeb(repoLayout(root, [{ module: join(root, 'web/screen.ts'), routes: ['/files'] }]));
    expect(entry.screens).toHaveLength(1);
    const [screen] = entry.screens;
    expect(screen?.routes).toEqual(['/files']);
    expect(screen?.chunks[0]).toMatch(/^assets\/chunks\/screen-[A-Z0-9]{8}\.js$/);
    expect(screen?.chunks).toHaveLength(2);
    expect(readFileSync(join(webOutDir(repoLayout(root)), screen?.chunks[1] ?? ''), 'utf8')).toContain('"own"');
    expect(screen?.chunks.some((c) => entry.preload.includes(c))).toBe(false);
  });

  it('fails when a listed screen is not a chunk of its own', async () => {
    const root = await makeTree(APP);
    await expect(bundleWeb(repoLayout(root, [{ module: join(root, 'web/main.css'), routes: ['/x'] }]))).rejects.toThrow('no chunk of its own for web/main.css');
  });

  it('copies web/public verbatim and refuses a public assets/ folder', async () => {
    const layout = repoLayout(await makeTree(APP));
    await copyPublic(layout);
    expect(readFileSync(join(webOutDir(layout), 'img/logo.svg'), 'utf8')).toBe('<svg/>');
    const clash = repoLayout(await makeTree({ ...APP, 'web/public/assets/x.js': '' }));
    await expect(copyPublic(clash)).rejects.toThrow('would collide');
  });

  it('renders the index with the entry tags and leaves the per-request placeholders', async () => {
    const layout = repoLayout(await makeTree(APP));
    await renderIndex(layout, { js: 'assets/main-AAAA.js', css: 'assets/main-BBBB.css', preload: ['assets/chunks/chunk-CCCC.js'] });
    const html = readFileSync(join(layout.dist, 'assets/index.html'), 'utf8');
    expect(html).toContain('<link rel="stylesheet" href="[{[ StaticURL ]}]/assets/main-BBBB.css">');
    expect(html).toContain('<script type="module" src="[{[ StaticURL ]}]/assets/main-AAAA.js"></script>');
    expect(html).toContain('<link rel="modulepreload" href="[{[ StaticURL ]}]/assets/chunks/chunk-CCCC.js">');
    expect(html.indexOf('[{[ Preload ]}]')).toBeGreaterThan(html.indexOf('chunk-CCCC.js'));
    expect(compileIndex(html)({ Title: 'T', Color: '', StaticURL: '/s', Nonce: '', Json: '', Preload: '<link rel="modulepreload" href="/s/p.js">', ReCaptcha: '', CustomCSS: '' })).toContain('<title>T</title>');
  });

  it.each([
    ['lacks the entry marker', '<html></html>', 'lacks the marker'],
    ['has an unknown placeholder', `${TEMPLATE}[{[ Nope ]}]`, 'unknown placeholder Nope'],
  ])('fails when the template %s', async (_name, template, message) => {
    const layout = repoLayout(await makeTree({ ...APP, 'web/index.html': template }));
    await expect(renderIndex(layout, { js: 'a.js', css: null, preload: [] })).rejects.toThrow(message);
    expect(existsSync(join(layout.dist, 'assets/index.html'))).toBe(false);
  });
});
