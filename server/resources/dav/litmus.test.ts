import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';

/**
 * RFC 4918's own test suite (Debian's litmus, scripts/test-packages.txt) against a real server on
 * a free port: every test of basic, copymove, props, locks and http passes, without a warning.
 */
const SUITES = { basic: 16, copymove: 13, props: 30, locks: 41, http: 4 } as const;

interface Run {
  code: number | null;
  output: string;
}

function litmus(url: string, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    // litmus writes debug.log and child.log into its working directory: a temp one.
    const child = spawn('litmus', [url, TEST_ADMIN.username, TEST_ADMIN.password], { cwd, env: { ...process.env, TESTS: Object.keys(SUITES).join(' ') } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.each([[''], ['/files']])('litmus with baseURL "%s"', (baseURL) => {
  let t: TestApp;
  let run: Run;
  let cwd: string;
  beforeAll(async () => {
    t = await buildTestApp({ config: { baseURL } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    cwd = await mkdtemp(join(tmpdir(), 'litmus-'));
    run = await litmus(`http://127.0.0.1:${port}${baseURL}/dav/`, cwd);
  }, 300_000);
  afterAll(async () => {
    await t.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it.each(Object.entries(SUITES))('passes every test of %s (%i)', (suite, count) => {
    expect(run.output).toContain(`<- summary for \`${suite}': of ${count} tests run: ${count} passed, 0 failed. 100.0%`);
  });

  it('issues no warning and skips nothing', () => {
    expect(run.output).not.toMatch(/WARNING|SKIPPED|FAIL/);
    expect(run.code).toBe(0);
  });
});
