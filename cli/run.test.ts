import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../tests/support/cli-io';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'filemgr-cli-'));
}

describe('filemgr command line', () => {
  it.each([
    [['--foo'], 'filemgr: unknown flag --foo; see filemgr --help\n'],
    [['-z'], 'filemgr: unknown shorthand flag -z; see filemgr --help\n'],
    [['nope'], 'filemgr: unknown command "nope"; see filemgr --help\n'],
    [['config'], 'filemgr: config needs a command: init, set, cat, export, import; see filemgr config --help\n'],
    [['config', 'nope'], 'filemgr: unknown command "config nope"; see filemgr config --help\n'],
    [['config', 'set', '--foo'], 'filemgr: unknown flag --foo; see filemgr config set --help\n'],
    [['--prot', '80'], 'filemgr: unknown flag --prot (did you mean --port?); see filemgr --help\n'],
    [['--baseUrl=/x'], 'filemgr: unknown flag --baseUrl (did you mean --baseURL?); see filemgr --help\n'],
    [['--cache-dri', 'x'], 'filemgr: unknown flag --cache-dri (did you mean --cacheDir?); see filemgr --help\n'],
    [['users', 'add', 'a', 'b', '--perm.admn'], 'filemgr: unknown flag --perm.admn (did you mean --perm.admin?); see filemgr users add --help\n'],
    [['hash'], 'filemgr: hash needs <password>; see filemgr hash --help\n'],
    [['hash', 'a', 'b'], 'filemgr: too many arguments for hash (expected <password>); see filemgr hash --help\n'],
    [['version', 'extra'], 'filemgr: unknown command "version extra"; see filemgr version --help\n'],
    [['--port', 'x'], 'filemgr: invalid value "x" for --port: expected a whole number; see filemgr --help\n'],
    [['--imageProcessors', '0'], 'filemgr: --imageProcessors must be at least 1 (got 0); see filemgr --help\n'],
    [['config', 'export', 'out.txt'], 'filemgr: invalid format ".txt": the file name must end in .json, .yaml or .yml; see filemgr config export --help\n'],
  ])('answers %j with one usage line and exit 2', async (argv, line) => {
    const { code, stdout, stderr } = await runCli(argv, { cwd: await tempDir() });
    expect(stderr).toBe(line);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });

  it('prints a bcrypt hash of cost 10 that verifies, without checking the password', async () => {
    const { code, stdout } = await runCli(['hash', 'a'], { cwd: await tempDir() });
    expect(code).toBe(0);
    const hash = stdout.trim();
    expect(hash).toMatch(/^\$2a\$10\$/);
    expect(await bcrypt.compare('a', hash)).toBe(true);
  });

  it('prints the version as filemgr v<semver>/<commit>', async () => {
    const { code, stdout } = await runCli(['version'], { cwd: await tempDir() });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^filemgr v\d+\.\d+\.\d+\S*\/\S+\n$/);
  });

  it('prints the versions of Node.js, sharp and libvips with --verbose, and that no code cache or embedded asset is used from source', async () => {
    const { code, stdout } = await runCli(['version', '--verbose'], { cwd: await tempDir() });
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toBe(`Node.js ${process.version}`);
    expect(lines[2]).toMatch(/^sharp \d+\.\d+\.\d+/);
    expect(lines[3]).toMatch(/^libvips \d+\.\d+\.\d+/);
    expect(lines[4]).toBe('code cache none');
    expect(lines[5]).toBe('assets not embedded');
  });

  it('treats "help <command>" as "<command> --help"', async () => {
    const { code, stdout } = await runCli(['help', 'config', 'set'], { cwd: await tempDir() });
    expect(code).toBe(0);
    expect(stdout).toContain('filemgr config set [flags]');
  });

  it('finds the command words behind global flags', async () => {
    const cwd = await tempDir();
    const { code, stderr } = await runCli(['-d', 'db.json', 'config', 'cat'], { cwd });
    expect(code).toBe(1);
    expect(stderr).toBe(`filemgr: the database ${join(cwd, 'db.json')} does not exist; run filemgr (or filemgr config init) to create it, or pass --database\n`);
  });

  it('prints a notice for a deprecated spelling and goes on', async () => {
    const cwd = await tempDir();
    const { code, stderr } = await runCli(['config', 'init', '--create-user-dir'], { cwd });
    expect(code).toBe(0);
    expect(stderr).toBe('filemgr: flag --create-user-dir is deprecated, use --createUserDir\n');
  });

  it('stops with one line and exit 1 when the config file does not parse', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, '.filemgr.json'), '{ "port": ');
    const { code, stderr } = await runCli(['config', 'cat'], { cwd });
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^filemgr: cannot parse the config file ${join(cwd, '.filemgr.json')}: [^\\n]+\\n$`));
  });

  it('stops when an explicit config file is missing', async () => {
    const cwd = await tempDir();
    const { code, stderr } = await runCli(['config', 'cat', '--config', 'nope.yaml'], { cwd });
    expect(code).toBe(1);
    expect(stderr).toBe(`filemgr: the config file ${join(cwd, 'nope.yaml')} does not exist\n`);
  });

  it('takes the database from a YAML config file found in $HOME, and reports unknown keys', async () => {
    const cwd = await tempDir();
    const home = await tempDir();
    await writeFile(join(home, '.filemgr.yml'), `database: ${join(home, 'from-home.json')}\nbogus: 1\n`);
    const { code, stderr } = await runCli(['config', 'cat'], { cwd, env: { HOME: home } });
    expect(code).toBe(1);
    expect(stderr).toContain(`filemgr: ignoring unknown key "bogus" in ${join(home, '.filemgr.yml')}\n`);
    expect(stderr).toContain(`the database ${join(home, 'from-home.json')} does not exist`);
  });

  it('prefers ./ over $HOME for the config file', async () => {
    const cwd = await tempDir();
    const home = await tempDir();
    await writeFile(join(cwd, '.filemgr.json'), JSON.stringify({ database: 'here.json' }));
    await writeFile(join(home, '.filemgr.json'), JSON.stringify({ database: 'home.json' }));
    const { stderr } = await runCli(['config', 'cat'], { cwd, env: { HOME: home } });
    expect(stderr).toContain(`the database ${join(cwd, 'here.json')} does not exist`);
  });
});
