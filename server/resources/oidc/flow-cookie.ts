import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What one browser's sign-in attempt must remember between /login and /callback. */
export interface FlowState {
  state: string;
  nonce: string;
  /** The PKCE code verifier. */
  verifier: string;
  /** The app path to land on (already checked same-origin). */
  redirect: string;
  /** The origin the flow started on: the redirect_uri must be the same at the token endpoint. */
  origin: string;
  /** Expiry, ms since the epoch. */
  expires: number;
}

export const FLOW_COOKIE = 'filemgr_oidc';
/** A sign-in at the provider may take this long (typing a password, a second factor). */
export const FLOW_TTL_MS = 10 * 60_000;

/**
 * The cookie key: derived (HKDF) from the settings signing key, which every instance reads from
 * the one state store, so a flow started on one instance ends on any other. Changing the signing
 * key ends flows in progress as it ends sessions.
 */
function cookieKey(settingsKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(settingsKey, 'base64'), Buffer.alloc(0), 'filemgr oidc flow cookie', 32));
}

/** Seals a flow into a cookie value: AES-256-GCM, so it can be neither read nor forged. */
export function sealFlow(flow: FlowState, settingsKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cookieKey(settingsKey), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function isFlow(v: unknown): v is FlowState {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return ['state', 'nonce', 'verifier', 'redirect', 'origin'].every((k) => typeof f[k] === 'string') && typeof f.expires === 'number';
}

/** Opens a sealed flow; undefined when it was tampered with, sealed with another key, or has expired. */
export function openFlow(value: string | undefined, settingsKey: string, nowMs: number): FlowState | undefined {
  if (!value || !/^[A-Za-z0-9_-]{40,4096}$/.test(value)) return undefined;
  const raw = Buffer.from(value, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', cookieKey(settingsKey), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const flow: unknown = JSON.parse(text);
    return isFlow(flow) && flow.expires > nowMs ? flow : undefined;
  } catch {
    return undefined;
  }
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie value: HttpOnly, SameSite=Lax (the provider's redirect back is a top-level GET), scoped to the OIDC routes. */
export function flowCookie(value: string, opts: { path: string; secure: boolean; maxAgeS: number }): string {
  const parts = [`${FLOW_COOKIE}=${value}`, `Path=${opts.path}`, `Max-Age=${opts.maxAgeS}`, 'HttpOnly', 'SameSite=Lax'];
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}
