import { SCHEMA_VERSION, type Database } from './schema';
import { DEFAULT_ACTIVITY_DAYS } from './initial';

/** Raised when the state file cannot be used; the message is one line an admin can act on. */
export class StateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateError';
  }
}

type Migration = (db: Record<string, unknown>) => void;

/**
 * Migrations from each older schema version to the next, index = from-version. Version 0 is a
 * file without a version (hand-made); it only needs the bookkeeping fields.
 */
const migrations: Migration[] = [
  (db) => {
    db.users ??= [];
    db.shares ??= [];
    const users = db.users as { id: number; sessionEpoch?: number }[];
    for (const u of users) u.sessionEpoch ??= 0;
    db.nextUserId ??= users.reduce((max, u) => Math.max(max, u.id), 0) + 1;
  },
];

/**
 * Fields added since without a schema bump: an older filemgr opening the file ignores them, so a
 * downgrade keeps working. A file written before them (or hand-edited) gets their default here.
 */
function fillAddedFields(db: Record<string, unknown>): void {
  if (typeof (db.settings as { activityDays?: unknown }).activityDays !== 'number') (db.settings as { activityDays?: number }).activityDays = DEFAULT_ACTIVITY_DAYS;
  db.tokens ??= [];
  db.totp ??= [];
  (db.settings as { trash?: unknown }).trash ??= { enabled: true, days: 30 };
  db.trash ??= [];
  const branding = (db.settings as { branding?: unknown }).branding;
  if (typeof branding !== 'object' || branding === null) return;
  const b = branding as Record<string, unknown>;
  if (typeof b.issueTracker !== 'string') b.issueTracker = '';
}

/** Brings a parsed state file up to SCHEMA_VERSION, or explains why it cannot. */
export function migrate(raw: unknown, path: string): Database {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new StateError(`the database ${path} does not hold a filemgr state object; restore it from a backup or point --database elsewhere`);
  }
  const db = raw as Record<string, unknown>;
  const version = typeof db.version === 'number' ? db.version : 0;
  if (version > SCHEMA_VERSION) {
    throw new StateError(`the database ${path} was written by a newer filemgr (schema ${version}, this build knows ${SCHEMA_VERSION}); upgrade filemgr`);
  }
  if (!db.settings || !db.server) {
    throw new StateError(`the database ${path} lacks its settings; restore it from a backup or point --database elsewhere`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) migrations[v]?.(db);
  fillAddedFields(db);
  db.version = SCHEMA_VERSION;
  return db as unknown as Database;
}
