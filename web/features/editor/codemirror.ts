// CodeMirror 6 behind a small handle. This module and its imports form the editor's own chunk,
// loaded on the first text file opened; each language pack is a further chunk of its own.
import { LanguageDescription, syntaxHighlighting } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { Compartment, EditorState, Prec, type Extension, type Text } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { lightHighlight } from './highlight';

export interface EditorOptions {
  parent: HTMLElement;
  doc: string;
  /** The file name: the textbox's accessible name (ui.md) and the key to its language. */
  name: string;
  readOnly: boolean;
  dark: boolean;
  /** Ctrl/Cmd+S inside the editor. */
  onSave: () => void;
  /** The first change after opening or after a save: the document may now differ from the file. */
  onFirstChange: () => void;
}

export interface EditorHandle {
  /** The document as it is now; an immutable value, so a save can send it while typing goes on. */
  snapshot: () => Text;
  /** Whether the document differs from what was last loaded or saved (compared only when asked). */
  isDirty: () => boolean;
  /** `doc` was written to the file: changes made since still count. */
  markSaved: (doc: Text) => boolean;
  setDark: (dark: boolean) => void;
  focus: () => void;
  destroy: () => void;
}

/** One-dark in the dark theme; in the light one, colours that keep AA contrast. */
function themeFor(dark: boolean): Extension {
  return dark ? oneDark : syntaxHighlighting(lightHighlight);
}

const sizing = EditorView.theme({
  '&': { blockSize: '100%' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', fontSize: '14px', lineHeight: '1.55' },
});

function baseExtensions(options: EditorOptions, changed: () => void): Extension[] {
  return [
    basicSetup,
    sizing,
    // Each line takes the direction of its own text: Arabic prose reads right to left, code stays left to right.
    EditorView.perLineTextDirection.of(true),
    EditorView.contentAttributes.of({ 'aria-label': options.name, 'aria-readonly': String(options.readOnly) }),
    EditorState.readOnly.of(options.readOnly),
    Prec.highest(keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (options.onSave(), true) }])),
    // Counting is all a keystroke costs: the document is never copied or compared here.
    EditorView.updateListener.of((update) => {
      if (update.docChanged) changed();
    }),
  ];
}

async function loadLanguage(view: EditorView, slot: Compartment, name: string): Promise<void> {
  const description = LanguageDescription.matchFilename(languages, name);
  if (!description) return;
  const support = await description.load();
  view.dispatch({ effects: slot.reconfigure(support) });
}

/** Mounts an editor on `options.parent` holding `options.doc`; its language loads in the background. */
export function createEditor(options: EditorOptions): EditorHandle {
  const theme = new Compartment();
  const language = new Compartment();
  let changed = false;
  const onChange = (): void => {
    if (changed) return;
    changed = true;
    options.onFirstChange();
  };
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [baseExtensions(options, onChange), theme.of(themeFor(options.dark)), language.of([])],
    }),
  });
  let saved = view.state.doc;
  // A language pack that fails to load leaves plain text: the file can still be edited.
  loadLanguage(view, language, options.name).catch(() => undefined);
  return {
    snapshot: () => view.state.doc,
    isDirty: () => changed && !view.state.doc.eq(saved),
    markSaved: (doc) => {
      saved = doc;
      changed = !view.state.doc.eq(doc);
      return changed;
    },
    setDark: (dark) => view.dispatch({ effects: theme.reconfigure(themeFor(dark)) }),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
