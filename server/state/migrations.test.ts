import { describe, expect, it } from 'vitest';
import { emptyDatabase } from './initial';
import { migrate } from './migrations';

/** A state file as an older filemgr wrote it: branding without the fields added since. */
function olderFile(branding: Record<string, unknown>): Record<string, unknown> {
  const db = JSON.parse(JSON.stringify(emptyDatabase('json'))) as { settings: { branding: unknown } };
  db.settings.branding = branding;
  return db;
}

const FILEBROWSER_BRANDING = { name: 'Docs', disableExternal: false, disableUsedPercentage: true, files: '', theme: 'dark', color: '#123' };

describe('migrate', () => {
  it('gives a database without branding.issueTracker an empty one, keeping the rest and the schema version', () => {
    const raw = olderFile({ ...FILEBROWSER_BRANDING });
    const version = raw.version;
    const db = migrate(raw, 'old.json');
    expect(db.settings.branding).toEqual({ ...FILEBROWSER_BRANDING, issueTracker: '' });
    expect(db.version).toBe(version);
  });

  it('replaces an issue tracker that is not a string, and keeps one that is', () => {
    expect(migrate(olderFile({ ...FILEBROWSER_BRANDING, issueTracker: null }), 'a.json').settings.branding.issueTracker).toBe('');
    expect(migrate(olderFile({ ...FILEBROWSER_BRANDING, issueTracker: 42 }), 'b.json').settings.branding.issueTracker).toBe('');
    expect(migrate(olderFile({ ...FILEBROWSER_BRANDING, issueTracker: 'https://t.example/' }), 'c.json').settings.branding.issueTracker).toBe('https://t.example/');
  });

  it('fills it in a version-0 (hand-made) file as well', () => {
    const raw = olderFile({ ...FILEBROWSER_BRANDING });
    delete raw.version;
    expect(migrate(raw, 'hand.json').settings.branding.issueTracker).toBe('');
  });
});
