import { atom } from 'jotai';
import { deleteShare, listShares } from '../../api/shares';
import type { Share } from '../../api/types';
import { listUsers } from '../../api/users';
import { abilitiesAtom } from '../../state/abilities';

const sharesVersionAtom = atom(0);

export type ShareRow = Share & { username: string };

/** The caller's links; admins see everyone's, with the owner's name filled in (product.md §3). */
export const sharesAtom = atom(async (get): Promise<ShareRow[]> => {
  get(sharesVersionAtom);
  const admin = get(abilitiesAtom).admin;
  const [shares, users] = await Promise.all([listShares(), admin ? listUsers() : Promise.resolve([])]);
  const names = new Map(users.map((u) => [u.id, u.username]));
  return shares.map((share) => ({ ...share, username: names.get(share.userID) ?? '' }));
});

/** Deletes a link and refreshes the list. */
export const deleteShareAtom = atom(null, async (_get, set, hash: string) => {
  await deleteShare(hash);
  set(sharesVersionAtom, (v) => v + 1);
});
