import { isIP } from 'node:net';
import type { OidcConfig } from '../config';

/** The --oidc.* values as given (flags, environment or config file). */
export type OidcFlags = OidcConfig;

/** True for a host name that can only mean this machine (tests, a provider beside filemgr). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

function issuerUrl(issuer: string): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`--oidc.issuer "${issuer}" is not an address such as https://auth.example.com`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new Error(`--oidc.issuer "${issuer}" must be https: (http: is accepted only for a provider on this machine, such as http://127.0.0.1:9000)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`--oidc.issuer "${issuer}" must be an https: address`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`--oidc.issuer "${issuer}" must not carry a query, a fragment or credentials`);
  }
  return url;
}

/**
 * The OpenID Connect configuration of beyond.md §4.3, or undefined when no issuer is set. Throws
 * an Error whose message names the flag at fault: an http: issuer off this machine, a missing
 * client id or secret (the client authenticates with client_secret_basic), no `openid` scope.
 */
export function checkOidcConfig(flags: OidcFlags): OidcConfig | undefined {
  const issuer = flags.issuer.trim();
  if (issuer === '') return undefined;
  issuerUrl(issuer);
  if (flags.clientId.trim() === '') throw new Error('--oidc.clientId is required with --oidc.issuer');
  if (flags.clientSecret === '') throw new Error('--oidc.clientSecret is required with --oidc.issuer (the client authenticates with client_secret_basic)');
  const scopes = flags.scopes.split(/[\s,]+/).filter(Boolean);
  if (!scopes.includes('openid')) throw new Error(`--oidc.scopes "${flags.scopes}" must include openid`);
  if (flags.usernameClaim.trim() === '') throw new Error('--oidc.usernameClaim must not be empty');
  return {
    ...flags,
    issuer,
    clientId: flags.clientId.trim(),
    scopes: scopes.join(' '),
    usernameClaim: flags.usernameClaim.trim(),
    groupsClaim: flags.groupsClaim.trim(),
    adminGroup: flags.adminGroup.trim(),
    name: flags.name.trim() || 'OpenID',
  };
}
