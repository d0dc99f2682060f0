import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-table';
import { GLOBAL_FLAGS, HELP_FLAG, SERVER_FLAGS, SERVE_ONLY_FLAGS, SETTINGS_FLAGS, USER_FLAGS, allFlags, envNames, upperSnake, type FlagDef } from './flags';
import { showDefault } from './help';
import { runCli } from '../tests/support/cli-io';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('the flag table', () => {
  it.each([
    ['baseURL', 'BASE_URL'],
    ['disableTypeDetectionByHeader', 'DISABLE_TYPE_DETECTION_BY_HEADER'],
    ['tokenExpirationTime', 'TOKEN_EXPIRATION_TIME'],
    ['socketPerm', 'SOCKET_PERM'],
    ['auth.method', 'AUTH_METHOD'],
    ['baseurl', 'BASEURL'],
  ])('spells %s as %s in the environment', (name, expected) => {
    expect(upperSnake(name)).toBe(expected);
  });

  it('maps no two flags to the same environment variable', () => {
    const seen = new Map<string, string>();
    for (const def of allFlags()) {
      for (const env of envNames(def)) {
        expect(seen.get(env), `${env} of --${def.name}`).toBeUndefined();
        seen.set(env, def.name);
      }
    }
    expect(seen.get('FB_PORT')).toBe('port');
    expect(seen.get('FILEMGR_BASE_URL')).toBe('baseURL');
    expect(seen.size).toBeGreaterThan(40);
  });

  it('gives every flag of a command a distinct name, spelling and short letter', () => {
    for (const cmd of COMMANDS) {
      const defs = [...GLOBAL_FLAGS, ...cmd.flags, HELP_FLAG];
      const spellings = defs.flatMap((d) => [d.name, ...(d.aliases ?? []), ...(d.deprecated ?? [])]);
      const shorts = defs.flatMap((d) => (d.short ? [d.short] : []));
      expect(new Set(spellings).size, `spellings of "${cmd.name}"`).toBe(spellings.length);
      expect(new Set(shorts).size, `short letters of "${cmd.name}"`).toBe(shorts.length);
    }
  });

  it.each([
    ['address', '127.0.0.1'], ['port', 8080], ['root', '.'], ['database', './filemgr.json'], ['disableExec', true],
    ['imageProcessors', 4], ['tokenExpirationTime', '2h'], ['socketPerm', 0o666], ['username', 'admin'], ['log', 'stdout'],
  ])('defaults --%s to %j', (name, value) => {
    expect(allFlags().find((d) => d.name === name)?.default).toEqual(value);
  });

  it.each([
    ['a', 'address'], ['p', 'port'], ['r', 'root'], ['b', 'baseURL'], ['d', 'database'], ['c', 'config'], ['l', 'log'], ['t', 'cert'], ['k', 'key'],
  ])('gives -%s to --%s', (short, name) => {
    expect(allFlags().find((d) => d.name === name)?.short).toBe(short);
  });
});

/** The README's row for a flag: name and short letter, default, first variable, description. */
function readmeRow(def: FlagDef): string {
  const names = [`\`--${def.name}\``, ...(def.short ? [`\`-${def.short}\``] : [])].join(', ');
  const env = envNames(def)[0];
  return `| ${names} | \`${showDefault(def)}\` | ${env ? `\`${env}\`` : '—'} | ${def.description.replace(/\|/g, '\\|')} |`;
}

describe('the README', () => {
  it('lists every flag with the default, variable and description of the flag table', async () => {
    const readme = await readFile(join(__dirname, '..', 'README.md'), 'utf8');
    const rows = new Set(readme.split('\n').filter((l) => l.startsWith('| `--')));
    const defs = [...GLOBAL_FLAGS, ...SERVER_FLAGS, ...SERVE_ONLY_FLAGS, ...SETTINGS_FLAGS, ...USER_FLAGS];
    for (const def of defs) expect(rows, `--${def.name}`).toContain(readmeRow(def));
    expect(rows.size).toBe(defs.length);
  });
});

describe('--help', () => {
  it.each(COMMANDS.map((c) => [c.name || '(serve)', c] as const))('of %s lists every flag with its default and environment variable', async (_name, cmd) => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-help-'));
    const { code, stdout, stderr } = await runCli([...cmd.name.split(' ').filter((w) => w), '--help'], { cwd });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(`filemgr ${cmd.name}`.trim());
    for (const def of [...GLOBAL_FLAGS, ...cmd.flags]) {
      const lines = stdout.split('\n');
      const at = lines.findIndex((l) => l.startsWith('  ') && l.trimStart().replace(/^-\w, /, '').split(' ')[0] === `--${def.name}`);
      expect(at, `--${def.name} in help of "${cmd.name}"`).toBeGreaterThanOrEqual(0);
      const notes = lines[at + 1] ?? '';
      expect(notes).toContain(`default ${showDefault(def)}`);
      expect(notes).toContain(def.env ? `env FILEMGR_${upperSnake(def.name)} or FB_${upperSnake(def.name)}` : 'command line only');
    }
  });

  it('of the root lists the commands', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-help-'));
    const { stdout } = await runCli(['--help'], { cwd });
    for (const cmd of COMMANDS.filter((c) => c.name)) expect(stdout).toContain(cmd.name);
  });

  it('of a group lists its commands', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-help-'));
    const { code, stdout } = await runCli(['config', '--help'], { cwd });
    expect(code).toBe(0);
    expect(stdout).toMatch(/config init +Create a new database/);
    expect(stdout).toContain('config import');
  });
});
