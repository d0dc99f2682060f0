import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const alias = { '@contract': `${root}server/contract` };

// Four projects: server (inject + temp dirs), server-pg (the API tests on PostgreSQL), web (pure logic and i18n parity), e2e (the built
// executable driven by Debian's Chromium). e2e runs files one at a time: each starts a server.
export default defineConfig({
  root,
  resolve: { alias },
  test: {
    // One temp directory per run, removed at its end (tests/support/run-tmpdir.ts).
    globalSetup: ['tests/support/run-tmpdir.ts'],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          root,
          environment: 'node',
          include: ['server/**/*.test.ts', 'cli/**/*.test.ts', 'build/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        // The API tests again with the state in PostgreSQL (beyond.md §10): one server per test
        // file (tests/support/test-database.ts), a fresh database per app.
        resolve: { alias },
        test: {
          name: 'server-pg',
          root,
          environment: 'node',
          include: ['server/resources/**/*.test.ts'],
          env: { FILEMGR_TEST_DATABASE: 'postgres' },
          setupFiles: ['tests/support/pg-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          root,
          environment: 'node',
          include: ['web/**/*.test.ts', 'web/**/*.test.tsx', 'tests/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          root,
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
