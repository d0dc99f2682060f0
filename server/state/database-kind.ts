/**
 * Which state store a `--database` value selects (beyond.md §10): a `postgres://` or
 * `postgresql://` URL opens PostgreSQL, anything else is the path of the JSON file. The shared
 * ephemerals (ephemeral-pg.ts, epochs-pg.ts) pick their backing from the same value.
 */
export type DatabaseKind = 'postgres' | 'file';

/** 'postgres' for a PostgreSQL URL, else 'file'. */
export function databaseKind(database: string): DatabaseKind {
  return /^postgres(?:ql)?:\/\//i.test(database.trim()) ? 'postgres' : 'file';
}

/**
 * The database for messages and logs: a PostgreSQL URL without its password (and without any
 * `password=` query parameter); a file path unchanged. Never print the raw URL.
 */
export function redactDatabase(database: string): string {
  if (databaseKind(database) === 'file') return database;
  try {
    const url = new URL(database.trim());
    if (url.password !== '') url.password = '***';
    for (const key of [...url.searchParams.keys()]) {
      if (/pass/i.test(key)) url.searchParams.set(key, '***');
    }
    return url.toString();
  } catch {
    // Not parseable: show only the scheme, since anything after it may hold the password.
    return 'postgres://(unparseable URL)';
  }
}

/** Replaces every occurrence of the URL's password in `text` (a driver's error message may quote it). */
export function redactIn(text: string, database: string): string {
  if (databaseKind(database) === 'file') return text;
  let password = '';
  try {
    password = decodeURIComponent(new URL(database.trim()).password);
  } catch {
    return text;
  }
  let out = text.split(database).join(redactDatabase(database));
  if (password.length >= 3) out = out.split(password).join('***');
  return out;
}
