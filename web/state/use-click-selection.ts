import { useAtom, useAtomValue, type Atom, type PrimitiveAtom } from 'jotai';
import { rangeSelection, toggled } from '../lib/selection';

/** The keys held during a click. */
export interface Modifiers {
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/** Where a list keeps its selection: the selected names, the last click's index, the multiple mode. */
export interface SelectionAtoms {
  selected: PrimitiveAtom<ReadonlySet<string>>;
  anchor: PrimitiveAtom<number | null>;
  multiple: Atom<boolean>;
}

/**
 * Click selection by name, the same in the listing and on the share page (product.md §2
 * 'Keyboard'): a click selects the item alone, Ctrl/Cmd-click or the multiple mode toggles it,
 * Shift-click selects the range from the last click (added to the selection with Ctrl/Cmd).
 */
export function useClickSelection(items: readonly { name: string }[], atoms: SelectionAtoms) {
  const [selected, setSelected] = useAtom(atoms.selected);
  const [anchor, setAnchor] = useAtom(atoms.anchor);
  const multiple = useAtomValue(atoms.multiple);

  const toggle = (index: number): void => {
    const name = items[index]?.name;
    if (name === undefined) return;
    setSelected(toggled(selected, name));
    setAnchor(index);
  };

  const only = (index: number): void => {
    const name = items[index]?.name;
    setSelected(new Set(name === undefined ? [] : [name]));
    setAnchor(index);
  };

  /** Selects from the anchor to `index`, added to the selection with Ctrl/Cmd held. */
  const range = (index: number, add: boolean): void => {
    setSelected(rangeSelection(items, selected, { anchor: anchor ?? index, index, add }));
  };

  const select = (index: number, mods: Modifiers): void => {
    const ctrl = mods.ctrlKey || mods.metaKey;
    if (mods.shiftKey) return range(index, ctrl);
    if (ctrl || multiple) return toggle(index);
    only(index);
  };

  return { selected, setSelected, multiple, toggle, only, range, select };
}
