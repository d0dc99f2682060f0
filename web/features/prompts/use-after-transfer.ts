import { useAtomValue } from 'jotai';
import { useLocation } from 'wouter';
import { filesPath } from '../../paths';
import type { Transfer } from '../../state/prompts';
import { userAtom } from '../../state/session';

/**
 * What follows a finished copy or move (api.md: the user setting redirectAfterCopyMove): when it
 * was chosen in the Move/Copy prompt and the user has the setting on, the files screen goes to
 * the destination folder. `done` is transferAtom's answer (false: skipped or not finished yet).
 */
export function useAfterTransfer(): (transfer: Transfer, done: boolean) => void {
  const redirect = useAtomValue(userAtom)?.redirectAfterCopyMove ?? false;
  const [, navigate] = useLocation();
  return (transfer, done) => {
    if (done && redirect && transfer.fromPicker) navigate(filesPath(transfer.dest));
  };
}
