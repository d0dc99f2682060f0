import { atom } from 'jotai';
import type { PageConfig } from '@contract/page-config';
import { readPageConfig } from '../lib/page-config';

/** The page configuration of window.FileBrowser; main.tsx sets it before the first render. */
export const configAtom = atom<PageConfig>(readPageConfig(undefined));
