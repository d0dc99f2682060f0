import { atom } from 'jotai';
import { saveFile } from '../../api/resources';
import { failureText } from '../../lib/notice';
import { notifyAtom } from '../../state/notices';

/**
 * Writes `content` to the file at `path` (PUT, api.md §3.7) and says how it went in a notice;
 * resolves with whether it was saved. The caller keeps the text either way: a failed save loses
 * nothing.
 */
export const saveTextAtom = atom(null, async (_get, set, input: { path: string; content: string }): Promise<boolean> => {
  try {
    await saveFile(input.path, input.content);
    set(notifyAtom, { kind: 'success', message: { key: 'editor.saved' } });
    return true;
  } catch (error) {
    set(notifyAtom, { kind: 'error', message: failureText(error, true) });
    return false;
  }
});
