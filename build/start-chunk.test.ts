import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTree, type Tree } from '../tests/support/tree';
import { repoLayout } from './layout';
import { checkStartGrowth } from './start-chunk';
import { bundleWeb, webOutDir } from './web-bundle';

// The entry uses a, b and c; lazy one uses a, lazy two uses b, lazy three uses a and c. A plain
// split makes a chunk per set ({main, one, three}, {main, two}, {main, three}): three requests.
const APP: Tree = {
  'web/main.tsx': 'import { a } from "./a";\nimport { b } from "./b";\nimport { c } from "./c";\nconsole.log(a(), b(), c());\nvoid import("./one");\nvoid import("./two");\nvoid import("./three");\n',
  'web/a.ts': 'export function a() { return "module-a"; }\n',
  'web/b.ts': 'export function b() { return "module-b"; }\n',
  'web/c.ts': 'export function c() { return "module-c"; }\n',
  'web/one.ts': 'import { a } from "./a";\nexport const one = a();\n',
  'web/two.ts': 'import { b } from "./b";\nexport const two = b();\n',
  'web/three.ts': 'import { a } from "./a";\nimport { c } from "./c";\nexport const three = a() + c();\n',
  'web/index.html': '<html><head><!-- filemgr:entry --></head></html>',
};

describe('the start chunk', () => {
  it('puts everything the entry loads at start in one chunk, which the lazy modules import', async () => {
    const root = await makeTree(APP);
    const layout = { ...repoLayout(root), screens: [] };
    const entry = await bundleWeb(layout);
    expect(entry.preload).toHaveLength(1);
    const start = readFileSync(join(webOutDir(layout), entry.preload[0] ?? ''), 'utf8');
    for (const text of ['module-a', 'module-b', 'module-c']) expect(start).toContain(text);
    const chunks = join(webOutDir(layout), 'assets/chunks');
    for (const lazy of ['one', 'two', 'three']) {
      const js = readFileSync(join(chunks, readFileSync(join(webOutDir(layout), entry.js), 'utf8').match(new RegExp(`${lazy}-[A-Z0-9]{8}\\.js`))?.[0] ?? ''), 'utf8');
      expect(js).not.toContain('module-');
      expect(js).toContain(entry.preload[0]?.split('/').pop());
    }
  });

  it('leaves a package\'s lazily imported CommonJS file as it is', async () => {
    const root = await makeTree({
      ...APP,
      'web/main.tsx': `${APP['web/main.tsx'] as string}void import("cjs-lib").then((m) => console.log(m.default.value));\n`,
      'node_modules/cjs-lib/package.json': '{"name":"cjs-lib","main":"index.js"}',
      'node_modules/cjs-lib/index.js': 'const part = require("./part");\nexports.value = part + "-value";\n',
      'node_modules/cjs-lib/part.js': 'module.exports = "cjs";\n',
    });
    const layout = { ...repoLayout(root), screens: [] };
    const entry = await bundleWeb(layout);
    const chunks = join(webOutDir(layout), 'assets/chunks');
    const name = readFileSync(join(webOutDir(layout), entry.js), 'utf8').match(/cjs-lib-[A-Z0-9]{8}\.js/)?.[0] ?? '';
    // Appending an export would make it an ES module whose `exports` is an undefined global.
    const js = readFileSync(join(chunks, name), 'utf8');
    expect(js).toContain('"-value"');
    expect(js).not.toContain('__start');
    expect(js).not.toMatch(/(?<![.\w])exports\.value/);
  });

  it('refuses a start that grows past the plain split (a barrel made whole)', () => {
    expect(() => checkStartGrowth(100_000, 114_000)).not.toThrow();
    expect(() => checkStartGrowth(100_000, 115_000)).toThrow('grew from 100000 to 115000 bytes');
  });
});
