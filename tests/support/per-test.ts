import { rm } from 'node:fs/promises';
import { afterEach } from 'vitest';
import { buildTestApp, type TestApp, type TestAppOptions } from './test-app';

/** Starts test apps for a test file and closes them after each test. */
export function appsForEachTest(): (opts?: TestAppOptions) => Promise<TestApp> {
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((t) => t.close()));
  });
  return async (opts = {}) => {
    const t = await buildTestApp(opts);
    apps.push(t);
    return t;
  };
}

/** A list of temporary directories that are removed (and the list emptied) after each test. */
export function dirsRemovedAfterEachTest(): string[] {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  return dirs;
}
