import { atom } from 'jotai';
import { runCommand } from '../../api/command';
import { stripAnsi } from './ansi';

export interface OutputLine {
  id: number;
  text: string;
  kind: 'command' | 'output' | 'error';
}

/** Lines kept in the panel; older ones scroll away for good. */
const MAX_LINES = 2000;
let nextId = 1;

export const outputAtom = atom<readonly OutputLine[]>([]);
export const runningAtom = atom(false);
/** Commands run so far, oldest first, for the up and down keys. */
export const historyAtom = atom<readonly string[]>([]);

function append(lines: readonly OutputLine[], line: Omit<OutputLine, 'id'>): readonly OutputLine[] {
  const next = [...lines, { ...line, id: nextId++ }];
  return next.length > MAX_LINES ? next.slice(-MAX_LINES) : next;
}

/** Runs a line in `folder`; its output streams into the panel, escape codes stripped. */
export const runLineAtom = atom(null, async (get, set, { folder, line, failed }: { folder: string; line: string; failed: string }) => {
  set(historyAtom, [...get(historyAtom).filter((l) => l !== line), line]);
  set(outputAtom, (lines) => append(lines, { text: `$ ${line}`, kind: 'command' }));
  set(runningAtom, true);
  try {
    const { ok } = await runCommand(folder, line, (text) => set(outputAtom, (lines) => append(lines, { text: stripAnsi(text), kind: 'output' })));
    if (!ok) set(outputAtom, (lines) => append(lines, { text: failed, kind: 'error' }));
  } finally {
    set(runningAtom, false);
  }
});
