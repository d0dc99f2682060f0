import { atom } from 'jotai';

/** The modal card on screen; later milestones add the listing's prompts to this union. */
export type Prompt = { kind: 'help' } | { kind: 'newDir' } | { kind: 'newFile' };

export const promptAtom = atom<Prompt | null>(null);

export const showPromptAtom = atom(null, (_get, set, prompt: Prompt) => set(promptAtom, prompt));

export const closePromptAtom = atom(null, (_get, set) => set(promptAtom, null));
