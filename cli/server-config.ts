import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseGoDuration } from '../server/lib/go-duration';
import type { ServerConfig } from '../server/config';
import type { ListenTarget } from '../server/start';
import type { ServerSettings } from '../server/state/schema';
import { COMMIT, VERSION } from '../server/version';
import { checkOidcConfig } from '../server/accounts/oidc-config';
import { databaseKind } from '../server/state/database-kind';
import { besideDatabase } from './database';
import { CliError, UsageError } from './io';
import { applyServerFlags, tcpTargetSet } from './server-settings';
import type { FlagValues } from './values';

export interface ResolvedServer {
  config: ServerConfig;
  target: ListenTarget;
  /** Things to log once the logger exists. */
  warnings: string[];
}

/** A Go duration as filebrowser parses tokenExpirationTime: "90m", "1h30m", "45s", "0". */
const GO_DURATION = /^(0|([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|\u00b5s|ms|s|m|h)(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|\u00b5s|ms|s|m|h))*)$/;

/** --oidc.*: undefined without an issuer; a bad combination stops the start with the reason. */
function oidcOf(flags: FlagValues): ServerConfig['oidc'] {
  const s = (name: string): string => flags.string(`oidc.${name}`);
  try {
    return checkOidcConfig({
      issuer: s('issuer'), clientId: s('clientId'), clientSecret: s('clientSecret'), scopes: s('scopes'),
      usernameClaim: s('usernameClaim'), groupsClaim: s('groupsClaim'), adminGroup: s('adminGroup'),
      createUsers: flags.bool('oidc.createUsers'), passwordLogin: flags.bool('oidc.passwordLogin'), name: s('name'),
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || port > 65535) throw new CliError(`the port "${text}" is not a port number (0-65535)`);
  return port;
}

/** Each --trustedProxy is an IP address or a CIDR block (10.0.0.0/8, fd00::/8). */
function checkTrustedProxies(entries: string[]): string[] {
  for (const entry of entries) {
    const [ip = '', bits, ...more] = entry.split('/');
    const family = isIP(ip);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || more.length > 0) throw new UsageError(`invalid --trustedProxy "${entry}": expected an IP address or a CIDR block`);
  }
  return entries;
}

function normalizeBaseURL(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function mergedServer(stored: ServerSettings, flags: FlagValues, cwd: string): ServerSettings {
  const server = structuredClone(stored);
  applyServerFlags(server, flags, { onlySet: true, cwd });
  if (flags.isSet('socket') && server.socket !== '' && tcpTargetSet(flags)) {
    throw new UsageError('--socket cannot be used with --address, --port, --cert or --key');
  }
  // An address given now beats a socket stored earlier (filebrowser does the same).
  if (tcpTargetSet(flags) && !flags.isSet('socket')) server.socket = '';
  return server;
}

function pathOrSpecial(cwd: string, value: string, specials: string[]): string {
  return specials.includes(value) ? value : resolve(cwd, value);
}

function targetOf(server: ServerSettings, flags: FlagValues, port: number): ListenTarget {
  if (server.socket !== '') return { kind: 'socket', path: server.socket, perm: flags.number('socketPerm') };
  return { kind: 'tcp', address: server.address, port, tls: server.tlsCert !== '' && server.tlsKey !== '' };
}

/**
 * The server's run-time configuration: flags, environment and config file override the values
 * stored in the database only where they were set explicitly; the rest comes from the database,
 * then defaults. Paths are made absolute against `cwd`.
 */
export function resolveServerConfig(flags: FlagValues, stored: ServerSettings, ctx: { cwd: string; database: string }): ResolvedServer {
  const server = mergedServer(stored, flags, ctx.cwd);
  const warnings: string[] = [];
  if ((server.tlsCert === '') !== (server.tlsKey === '') && server.socket === '') {
    throw new UsageError('--cert and --key must be given together');
  }
  let tokenExpirationTime = server.tokenExpirationTime;
  if (!GO_DURATION.test(tokenExpirationTime)) {
    warnings.push(`tokenExpirationTime "${tokenExpirationTime}" is not a duration such as 2h or 90m; using 2h`);
    tokenExpirationTime = '2h';
  }
  let indexInterval = parseGoDuration(flags.string('indexInterval'));
  if (indexInterval === undefined || indexInterval < 0) {
    warnings.push(`indexInterval "${flags.string('indexInterval')}" is not a duration such as 5m or 1h; using 5m`);
    indexInterval = 300_000;
  }
  if (flags.string('redisCacheUrl') !== '') warnings.push('--redisCacheUrl is ignored: filemgr keeps upload state in this process');
  const port = parsePort(server.port);
  const config: ServerConfig = {
    root: resolve(ctx.cwd, server.root),
    baseURL: normalizeBaseURL(server.baseURL),
    address: server.address,
    port,
    socket: server.socket === '' ? '' : resolve(ctx.cwd, server.socket),
    socketPerm: flags.number('socketPerm'),
    cert: server.tlsCert === '' ? '' : resolve(ctx.cwd, server.tlsCert),
    key: server.tlsKey === '' ? '' : resolve(ctx.cwd, server.tlsKey),
    log: pathOrSpecial(ctx.cwd, server.log, ['stdout', 'stderr', '']),
    cacheDir: flags.string('cacheDir') === '' ? '' : resolve(ctx.cwd, flags.string('cacheDir')),
    imageProcessors: flags.number('imageProcessors'),
    indexInterval,
    tokenExpirationTime,
    enableThumbnails: server.enableThumbnails,
    resizePreview: server.resizePreview,
    enableExec: server.enableExec,
    typeDetectionByHeader: server.typeDetectionByHeader,
    followExternalSymlinks: server.followExternalSymlinks,
    disableWebDAV: flags.bool('disableWebDAV'),
    trustedProxies: checkTrustedProxies(flags.list('trustedProxy')),
    // With PostgreSQL: the first admin password file in the working directory (serve.ts) stays hidden.
    databasePath: besideDatabase(ctx.database, ctx.cwd),
    version: VERSION,
    commit: COMMIT,
  };
  const oidc = oidcOf(flags);
  if (oidc) config.oidc = oidc;
  if (databaseKind(ctx.database) === 'postgres') config.databaseUrl = ctx.database.trim();
  return { config, target: targetOf({ ...server, socket: config.socket }, flags, port), warnings };
}
