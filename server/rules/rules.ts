import { randomBytes } from 'node:crypto';
import { stat, unlink, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { AppError } from '../errors';
import { isWithin } from '../lib/within';
import type { Rule, Settings, UserRecord } from '../state/schema';
import { compileRuleRegex } from './regex';

/** One rule ready to match: a compiled regex, or a normalised path prefix. */
interface CompiledRule {
  allow: boolean;
  regex: RegExp | null;
  /** Whether a regex rule had no usable expression: it then matches nothing (api.md §6.2). */
  inert: boolean;
  path: string;
  lowerPath: string;
}

/** What a rule check needs about one user: global then user rules, dotfile flag, case folding. */
export interface RuleContext {
  readonly global: readonly CompiledRule[];
  readonly user: readonly CompiledRule[];
  readonly hideDotfiles: boolean;
  /** Path rules compare lower-cased (case-insensitive filesystem). */
  readonly fold: boolean;
}

// Rule lists are replaced, never mutated, by store.update: their identity is a safe cache key.
const compiled = new WeakMap<readonly Rule[], CompiledRule[]>();

/** Lexically cleans a rule path: leading '/', no '.'/'..' segments, no trailing '/' (except root). */
function cleanRulePath(path: string): string {
  const cleaned = posix.normalize(`/${path}`);
  return cleaned.length > 1 && cleaned.endsWith('/') ? cleaned.slice(0, -1) : cleaned;
}

function compileRule(rule: Rule): CompiledRule {
  const path = cleanRulePath(rule.path ?? '');
  if (!rule.regex) return { allow: rule.allow, regex: null, inert: false, path, lowerPath: path.toLowerCase() };
  const raw = rule.regexp?.raw;
  let regex: RegExp | null = null;
  if (typeof raw === 'string') {
    try {
      regex = compileRuleRegex(raw);
    } catch {
      // Saved rules are validated; a hand-edited invalid one must deny nothing and crash nothing.
      regex = null;
    }
  }
  return { allow: rule.allow, regex, inert: regex === null, path, lowerPath: path.toLowerCase() };
}

function compileRules(rules: readonly Rule[] | null | undefined): CompiledRule[] {
  if (!rules || rules.length === 0) return [];
  let hit = compiled.get(rules);
  if (!hit) {
    hit = rules.map(compileRule);
    compiled.set(rules, hit);
  }
  return hit;
}

/** The rule context of `user`: settings.rules then user.rules, the user's dotfile flag, folding. */
export function ruleContextFor(user: Pick<UserRecord, 'rules' | 'hideDotfiles'>, settings: Pick<Settings, 'rules'>, caseInsensitive: boolean): RuleContext {
  return {
    global: compileRules(settings.rules),
    user: compileRules(user.rules),
    hideDotfiles: user.hideDotfiles,
    fold: caseInsensitive,
  };
}

/** True when at least one global or user rule exists (the descendant walk is needed only then). */
export function hasRules(ctx: RuleContext): boolean {
  return ctx.global.length > 0 || ctx.user.length > 0;
}

/** Strips a trailing '/' from a canonical user path (a directory request) except for the root. */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** True when the last segment of `path` starts with '.' (only the base name counts, api.md §6.2). */
export function isDotfile(path: string): boolean {
  const trimmed = withoutTrailingSlash(path);
  const base = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return base.startsWith('.');
}

function matches(rule: CompiledRule, path: string, fold: boolean): boolean {
  if (rule.regex) return rule.regex.test(path);
  if (rule.inert) return false;
  if (rule.path === '/') return true;
  // Whole segments only: rule /uploads matches /uploads and /uploads/x, never /uploads_backup.
  const [rulePath, target] = fold ? [rule.lowerPath, path.toLowerCase()] : [rule.path, path];
  return isWithin(rulePath, target);
}

function rulesAllow(ctx: RuleContext, path: string): boolean {
  let allow = true;
  for (const rule of ctx.global) if (matches(rule, path, ctx.fold)) allow = rule.allow;
  for (const rule of ctx.user) if (matches(rule, path, ctx.fold)) allow = rule.allow;
  return allow;
}

/**
 * Whether the user may see `path` (a canonical user path): hidden dotfile, then global rules,
 * then the user's; the last matching rule wins and the default is allow (api.md §6.2).
 */
export function isAllowed(ctx: RuleContext, path: string): boolean {
  const target = withoutTrailingSlash(path);
  if (ctx.hideDotfiles && isDotfile(target)) return false;
  return rulesAllow(ctx, target);
}

/** Moves `path` from below `from` to below `to` (both canonical, without trailing '/'). */
function rebase(path: string, from: string, to: string): string {
  const rel = path.slice(from === '/' ? 0 : from.length);
  if (to === '/') return rel.startsWith('/') ? rel : `/${rel}`;
  return rel === '' ? to : `${to}${rel}`;
}

/** Where a recursive copy or move lands: every source path maps to destination + relative path. */
export interface DescendantTarget {
  from: string;
  to: string;
}

/**
 * The descendant check of recursive DELETE/copy/move (api.md §6.3): true when every path of the
 * walked source tree, and with `target` every corresponding destination path, is allowed by the
 * rules. Dotfile hiding is ignored here, as upstream does. Without rules nothing is walked.
 */
export async function descendantsAllowed(ctx: RuleContext, paths: Iterable<string> | AsyncIterable<string>, target?: DescendantTarget): Promise<boolean> {
  if (!hasRules(ctx)) return true;
  const from = target ? withoutTrailingSlash(target.from) : '';
  const to = target ? withoutTrailingSlash(target.to) : '';
  for await (const raw of paths) {
    const path = withoutTrailingSlash(raw);
    if (!rulesAllow(ctx, path)) return false;
    if (target && !rulesAllow(ctx, rebase(path, from, to))) return false;
  }
  return true;
}

/** Refuses (400) a rule list with a malformed rule or a regular expression that does not compile. */
export function validateRules(rules: unknown): void {
  if (!Array.isArray(rules)) throw new AppError('bad_request', 'rules must be a list');
  rules.forEach((rule: unknown, i) => {
    if (typeof rule !== 'object' || rule === null) throw new AppError('bad_request', `rule ${i} is not an object`);
    const r = rule as Partial<Rule>;
    if (!r.regex) return;
    const raw = r.regexp?.raw;
    if (typeof raw !== 'string' || raw === '') throw new AppError('bad_request', `rule ${i} has no regular expression`);
    try {
      compileRuleRegex(raw);
    } catch (err) {
      throw new AppError('bad_request', `invalid regular expression in rule ${i}: ${(err as Error).message}`);
    }
  });
}

/**
 * Probes whether the filesystem holding `root` is case-insensitive: creates a probe file, stats its
 * upper-cased name and always removes the probe. An unwritable root falls back to the platform
 * (Windows and macOS are case-insensitive by default).
 */
export async function detectCaseInsensitive(root: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const name = `fb-case-probe-${randomBytes(8).toString('hex')}`;
  const probe = join(root, name);
  try {
    await writeFile(probe, '', { flag: 'wx', mode: 0o600 });
  } catch {
    return platform === 'win32' || platform === 'darwin';
  }
  try {
    await stat(join(root, name.toUpperCase()));
    return true;
  } catch {
    return false;
  } finally {
    await unlink(probe).catch(() => undefined);
  }
}
