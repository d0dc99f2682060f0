import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';

const INFO = 'filemgr totp secret v1';
// Recovery codes: 10 characters of an alphabet without look-alikes (0/o, 1/l/i): 31 symbols, about 50 bits.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_COUNT = 10;

// Per-instance cache of the last derivation: the signing key rarely changes (a CLI may rotate it).
let derived: { signingKey: string; key: Buffer } | undefined;

/** The AES-256 key of the TOTP secrets: HKDF-SHA256 of the settings' signing key (beyond.md §4.2). */
function secretKey(signingKey: string): Buffer {
  if (derived?.signingKey !== signingKey) {
    derived = { signingKey, key: Buffer.from(hkdfSync('sha256', Buffer.from(signingKey, 'base64'), Buffer.alloc(0), INFO, 32)) };
  }
  return derived.key;
}

/** Encrypts a base32 secret with AES-256-GCM: `iv.ciphertext.tag`, each base64url. */
export function sealSecret(signingKey: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(signingKey), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}

/** The base32 secret of a sealed one, or null when it cannot be opened (another signing key, damage). */
export function openSecret(signingKey: string, sealed: string): string | null {
  const [iv, body, tag] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !body || !tag || iv.length !== 12 || tag.length !== 16) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', secretKey(signingKey), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** A recovery code as typed: lower case, without spaces and dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** The stored form of a recovery code (50 random bits each, single use: a plain hash suffices). */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}

function recoveryCode(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += RECOVERY_ALPHABET[randomInt(31)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** Ten new recovery codes, shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_COUNT }, recoveryCode);
}
