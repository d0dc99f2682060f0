import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logTarget } from './logger';
import { textLine } from './log-text';
import { run } from './run';
import { memoryIo, runCli } from '../tests/support/cli-io';

const STAMP = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d';
const time = Date.UTC(2025, 0, 31, 12, 0, 0);

describe('text log lines', () => {
  it.each([
    [{ level: 30, time, pid: 1, hostname: 'h', msg: 'filemgr v1 listening on http://127.0.0.1:8080' }, 'INFO  filemgr v1 listening on http://127.0.0.1:8080'],
    [{ level: 30, time, reqId: 'req-1', req: { method: 'GET', url: '/api/resources/', remoteAddress: '192.0.2.1' }, res: { statusCode: 200 }, responseTime: 3.2, msg: 'request completed' }, 'INFO  GET /api/resources/ 200 3.2 ms from 192.0.2.1'],
    [{ level: 20, time, req: { method: 'GET', url: '/api/renew', remoteAddress: '::1' }, res: { statusCode: 200 }, responseTime: 1, msg: 'request completed' }, 'DEBUG GET /api/renew 200 1 ms from ::1'],
    [{ level: 30, time, msg: 'rejected request', code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }, 'INFO  rejected request code=FST_ERR_CTP_INVALID_MEDIA_TYPE'],
    [{ level: 40, time, msg: 'careful', hint: { a: 1 } }, 'WARN  careful hint={"a":1}'],
    [{ level: 50, time, msg: 'unexpected error', err: { message: 'boom', stack: 'Error: boom\n    at x' } }, 'ERROR unexpected error\n    Error: boom\n        at x'],
  ])('shows %j as a line for people', (entry, expected) => {
    const line = textLine(JSON.stringify(entry));
    expect(line).toMatch(new RegExp(`^${STAMP} `));
    expect(line.replace(new RegExp(`^${STAMP} `), '')).toBe(expected);
  });

  it('passes a line that is not JSON through', () => {
    expect(textLine('plain words')).toBe('plain words');
  });
});

describe('--logFormat', () => {
  /** The pino stream logTarget picked for a stdout that is (or is not) a terminal. */
  function written(isTTY: boolean, format: 'auto' | 'text' | 'json'): string {
    let out = '';
    const io = { ...memoryIo('/'), stdout: { isTTY, write: (c: string) => (out += c) } };
    const options = logTarget('stdout', io, format).options as { stream: { write(line: string): unknown } };
    options.stream.write(`${JSON.stringify({ level: 30, time, msg: 'hello' })}\n`);
    return out;
  }

  it.each([
    [true, 'auto', 'text'],
    [false, 'auto', 'json'],
    [true, 'json', 'json'],
    [false, 'text', 'text'],
  ] as const)('on a terminal=%s with %s writes %s', (isTTY, format, kind) => {
    expect(written(isTTY, format)).toMatch(kind === 'json' ? /^\{"level":30,.*"msg":"hello"\}\n$/ : new RegExp(`^${STAMP} INFO  hello\n$`));
  });

  it('serves with text lines, one per request', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-log-text-'));
    await mkdir(join(cwd, 'files'));
    const io = memoryIo(cwd);
    const done = run(['-r', 'files', '-p', '0', '--logFormat', 'text'], { HOME: cwd }, io);
    const where = (await io.waitFor(/listening on http:\S+/)).replace('listening on ', '');
    await (await fetch(`${where}/health`)).text();
    io.stop();
    expect(await done).toBe(0);
    const lines = io.out().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${STAMP} INFO  filemgr v\\S+ listening on http://127\\.0\\.0\\.1:\\d+$`)));
    expect(lines.filter((l) => l.includes('/health'))).toEqual([expect.stringMatching(new RegExp(`^${STAMP} INFO  GET /health 200 [\\d.]+ ms from 127\\.0\\.0\\.1$`))]);
    expect(io.out()).not.toContain('{"level"');
  });

  it('refuses a format it does not know', async () => {
    const r = await runCli(['--logFormat', 'xml'], { cwd: await mkdtemp(join(tmpdir(), 'filemgr-log-text-')) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('filemgr: invalid value "xml" for --logFormat: expected one of auto, text, json; see filemgr --help\n');
  });
});
