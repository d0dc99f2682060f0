import bcrypt from 'bcryptjs';
import { AppError } from '../errors';
import { hasLine, loadCommonPasswords } from './common-passwords';

/** bcrypt cost of new hashes (api.md §8.1, §12). */
export const BCRYPT_COST = 10;

/** A real cost-10 hash compared against when a user does not exist, so both paths take as long. */
const DUMMY_HASH = '$2a$10$kFaFpYp2OhrmCwYVcKVJhu/EQLbBEacx5XngGNhcZyKuYh7ZAfFP2';

const BCRYPT_SHAPE = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

let commonList: Promise<Buffer> | undefined;

/** True when `password` is one of the 100,000 most used passwords (exact match). */
export async function isCommonPassword(password: string): Promise<boolean> {
  // Loaded on first use, kept out of the startup path; a failed load is retried next time.
  commonList ??= loadCommonPasswords().catch((err: unknown) => {
    commonList = undefined;
    throw err;
  });
  return hasLine(await commonList, password);
}

/** Hashes with bcrypt cost 10 as `$2a$`, the variant filebrowser writes, so exports stay portable. */
export async function hashPassword(password: string): Promise<string> {
  const salt = (await bcrypt.genSalt(BCRYPT_COST)).replace(/^\$2b\$/, '$2a$');
  return bcrypt.hash(password, salt);
}

/** Compares a password with a stored `$2a$`/`$2b$`/`$2y$` hash; a malformed hash never matches. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (!BCRYPT_SHAPE.test(hash)) {
    await bcrypt.compare(password, DUMMY_HASH);
    return false;
  }
  return bcrypt.compare(password, hash);
}

/** Spends the time of one comparison for an unknown user (equal-time answers, api.md §11). */
export async function burnComparison(password: string): Promise<void> {
  await bcrypt.compare(password, DUMMY_HASH);
}

/**
 * Checks a new password (api.md §8.3): not empty, at least `minimumLength` bytes, not a common
 * password. Throws 400 with the wire message the login page parses.
 */
export async function validatePassword(password: string, minimumLength: number): Promise<void> {
  if (password === '') throw new AppError('bad_request', 'password is empty');
  if (Buffer.byteLength(password, 'utf8') < minimumLength) {
    throw new AppError('bad_request', `password is too short, minimum length is ${minimumLength}`);
  }
  if (await isCommonPassword(password)) throw new AppError('bad_request', 'password is too easy');
}

/** Validates then hashes a new password. */
export async function validateAndHash(password: string, minimumLength: number): Promise<string> {
  await validatePassword(password, minimumLength);
  return hashPassword(password);
}
