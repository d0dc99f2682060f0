import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFlags, envNames } from '../cli/flags';

const UNIT = join(__dirname, 'filemgr.service');

/** The [Service] section's settings, each key with all its values in order. */
async function service(): Promise<Map<string, string[]>> {
  const text = await readFile(UNIT, 'utf8');
  const section = text.split(/^\[/m).find((s) => s.startsWith('Service]')) ?? '';
  const settings = new Map<string, string[]>();
  for (const line of section.split('\n').slice(1)) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) settings.set(m[1] ?? '', [...(settings.get(m[1] ?? '') ?? []), m[2] ?? '']);
  }
  return settings;
}

function environment(settings: Map<string, string[]>): Map<string, string> {
  return new Map((settings.get('Environment') ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

describe('scripts/filemgr.service', () => {
  it('runs as a dedicated user with the hardening options', async () => {
    const s = await service();
    const one = (key: string) => s.get(key)?.at(-1);
    expect([one('User'), one('Group')]).toEqual(['filemgr', 'filemgr']);
    for (const [key, value] of [['NoNewPrivileges', 'true'], ['ProtectSystem', 'strict'], ['ProtectHome', 'true'], ['PrivateTmp', 'true'], ['PrivateDevices', 'true'], ['CapabilityBoundingSet', ''], ['RestrictSUIDSGID', 'true']]) {
      expect(one(key ?? ''), key).toBe(value);
    }
  });

  it('makes exactly the served root and filemgr\'s own directories writable', async () => {
    const s = await service();
    const env = environment(s);
    const writable = (s.get('ReadWritePaths') ?? []).flatMap((v) => v.split(/\s+/)).map((p) => p.replace(/^-/, ''));
    expect(writable.sort()).toEqual([env.get('FILEMGR_ROOT'), '/var/lib/filemgr', '/var/cache/filemgr'].sort());
    // The database, and so the first admin password file beside it, lives in the state directory.
    expect(env.get('FILEMGR_DATABASE')).toBe(`/var/lib/${s.get('StateDirectory')?.[0]}/filemgr.json`);
    expect(env.get('FILEMGR_CACHE_DIR')?.startsWith(`/var/cache/${s.get('CacheDirectory')?.[0]}/`)).toBe(true);
  });

  it('sets only variables filemgr reads', async () => {
    const known = new Set(allFlags().flatMap(envNames));
    const names = [...environment(await service()).keys()].filter((n) => n.startsWith('FILEMGR_'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(known, name).toContain(name);
  });

  it('is the unit the README installs, with the password file it names', async () => {
    const readme = await readFile(join(__dirname, '..', 'README.md'), 'utf8');
    expect(readme).toContain('sudo install -m 0644 scripts/filemgr.service /etc/systemd/system/');
    expect(readme).toContain('/var/lib/filemgr/filemgr.json.admin-password');
    expect(await readFile(UNIT, 'utf8')).toContain('/var/lib/filemgr/filemgr.json.admin-password');
  });
});
