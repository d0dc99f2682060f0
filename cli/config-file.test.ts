import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigFile } from './config-file';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Three search directories (like ./, $HOME/, /etc/filemgr/), with the given files in them. */
async function searchDirs(files: Record<string, string>): Promise<string[]> {
  const base = await mkdtemp(join(tmpdir(), 'filemgr-config-search-'));
  dirs.push(base);
  const three = ['cwd', 'home', 'etc'].map((d) => join(base, d));
  await Promise.all(three.map((d) => mkdir(d)));
  await Promise.all(Object.entries(files).map(([path, text]) => writeFile(join(base, path), text)));
  return three;
}

describe('the config file search', () => {
  it('takes the first file in the order directory by directory, then .json, .yaml, .yml', async () => {
    const search = await searchDirs({ 'home/.filemgr.yml': 'port: 3\n', 'home/.filemgr.yaml': 'port: 2\n', 'etc/.filemgr.json': '{"port": 9}' });
    const found = await loadConfigFile('', search, '/');
    expect(found?.path).toBe(join(search[1] ?? '', '.filemgr.yaml'));
    expect(found?.values).toEqual({ port: 2 });
  });

  it('finds nothing when no directory holds one', async () => {
    expect(await loadConfigFile('', await searchDirs({}), '/')).toBeUndefined();
  });

  it('reports a file it cannot read where the search reaches it, not behind the file it takes', async () => {
    // A directory in a config file's place: reading it fails (EISDIR), for root too.
    const search = await searchDirs({ 'home/.filemgr.json': '{"port": 1}' });
    await mkdir(join(search[2] ?? '', '.filemgr.json'));
    expect((await loadConfigFile('', search, '/'))?.values).toEqual({ port: 1 });
    await mkdir(join(search[0] ?? '', '.filemgr.yaml'));
    await expect(loadConfigFile('', search, '/')).rejects.toThrow(/cannot read the config file .*cwd\/\.filemgr\.yaml: it is a directory \(EISDIR\)$/);
  });
});
