import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { UploadRecord } from './shared-uploads';

/** Whose upload, and where it goes. */
export interface UploadOwner {
  userId: number;
  /** Real path the complete file is renamed to (the gated target, symlinks followed). */
  target: string;
  /** The owner's gate: true when a real path still lies in their scope (checked before removals). */
  confines: (realPath: string) => Promise<boolean>;
  /** A secret that tells this upload from others to the same target (uploads through a link). */
  tag?: string;
}

/** One unfinished upload. */
export interface Upload {
  readonly key: string;
  /** This upload among earlier and later ones of the same key (shared-uploads.ts). */
  readonly id: string;
  readonly target: string;
  readonly temp: string;
  readonly length: number;
  /** Set once it finished, was aborted or expired: a request still holding it answers 404. */
  gone: boolean;
  /** While a PATCH runs (streaming or stalled): the offset durable so far, for a HEAD that will not wait. */
  durable?: (() => number) | undefined;
}

/** The size and the modes of a new upload (settings.fileMode / dirMode, api.md §5.8). */
export interface UploadSpec {
  length: number;
  fileMode: number;
  dirMode: number;
}

export type Confines = UploadOwner['confines'];

/** GHSA-m9f5-2232-frp6: removes a temporary file unless its folder was swapped for a link out of scope. */
export async function removeTemp(temp: string, confines: Confines): Promise<void> {
  if (await confines(dirname(temp))) await rm(temp, { force: true });
}

/** What the other instances are told of an upload (shared-uploads.ts). */
export const recordOf = (u: Upload): UploadRecord => ({ id: u.id, target: u.target, temp: u.temp, length: u.length });
