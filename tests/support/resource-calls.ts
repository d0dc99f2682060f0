import { execFileSync } from 'node:child_process';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { type TestApp } from './test-app';
import type { Permissions } from '../../server/state/schema';

/** Test-only helpers shared by the resources and usage tests (imported by *.test.ts only). */

const NONE: Permissions = { admin: false, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: false };

/** A permission set with only the named flags on. */
export function perms(...on: (keyof Permissions)[]): Permissions {
  return { ...NONE, ...Object.fromEntries(on.map((k) => [k, true])) };
}

/** Adds `name` with scope '/' and only the given permissions. */
export async function userWith(t: TestApp, name: string, ...on: (keyof Permissions)[]): Promise<string> {
  await t.addUser({ username: name, scope: '/', perm: perms(...on) });
  return name;
}

/** An authenticated request (as the admin unless `as` is given). */
export function call(t: TestApp, req: InjectOptions & { as?: string }): Promise<LightMyRequestResponse> {
  const { as, headers, ...rest } = req;
  return t.app.inject({ ...rest, headers: { 'x-auth': t.token(as), ...(headers ?? {}) } });
}

/** Whether this machine lets tests mount a small tmpfs (root in a container that allows it). */
export function canMountTmpfs(): boolean {
  try {
    execFileSync('sh', ['-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d" && rmdir "$d"'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Mounts a tmpfs of `size` at `dir` for the length of `fn` (another device, or a small disk). */
export async function withTmpfs<T>(dir: string, size: string, fn: () => Promise<T>): Promise<T> {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  try {
    return await fn();
  } finally {
    execFileSync('umount', ['-l', dir]);
  }
}
