import { atom } from 'jotai';
import { extractItem } from '../../api/resources';
import { reloadAtom } from '../../state/request';

/** Extracts an archive into `dest` (created when missing); the listing reloads afterwards. */
export const extractAtom = atom(null, async (_get, set, { archive, dest, override }: { archive: string; dest: string; override: boolean }) => {
  try {
    await extractItem(archive, dest, override);
  } finally {
    set(reloadAtom, (n) => n + 1);
  }
});
