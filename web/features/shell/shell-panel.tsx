import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { folderAtom } from '../../state/listing';
import { shellOpenAtom } from '../../state/panels';
import { historyAtom, outputAtom, runLineAtom, runningAtom } from './state';

/** Up and down walk the history; past the newest entry the field is empty again. */
function useHistoryKeys(setLine: (line: string) => void) {
  const history = useAtomValue(historyAtom);
  const [at, setAt] = useState<number | null>(null);
  const onKey = (event: KeyboardEvent): void => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    const from = at ?? history.length;
    const next = Math.max(0, Math.min(history.length, from + (event.key === 'ArrowUp' ? -1 : 1)));
    setAt(next === history.length ? null : next);
    setLine(history[next] ?? '');
  };
  return { onKey, reset: () => setAt(null) };
}

/**
 * The shell panel (product.md §2): a command runs in the folder on screen, its output streams in
 * line by line without escape codes; the field is disabled meanwhile; 'clear' and 'exit' are the
 * panel's own commands.
 */
export function ShellPanel() {
  const { t } = useTranslation();
  const [open, setOpen] = useAtom(shellOpenAtom);
  const folder = useAtomValue(folderAtom) ?? '/';
  const [output, setOutput] = useAtom(outputAtom);
  const running = useAtomValue(runningAtom);
  const run = useSetAtom(runLineAtom);
  const [line, setLine] = useState('');
  const history = useHistoryKeys(setLine);
  const input = useRef<HTMLInputElement>(null);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!running) input.current?.focus();
  }, [running, open]);
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [output]);

  const submit = (): void => {
    const command = line.trim();
    setLine('');
    history.reset();
    if (command === 'clear') return setOutput([]);
    if (command === 'exit') return setOpen(false);
    if (command) void run({ folder, line: command, failed: t('shell.closed') });
  };

  if (!open) return null;
  return (
    <section className="shell" aria-label={t('shell.label')}>
      <div className="shell-head">
        <Icon name="terminal" />
        <span className="shell-folder" dir="ltr">{folder}</span>
        <button type="button" className="icon-button" aria-label={t('prompts.close')} onClick={() => setOpen(false)}><Icon name="close" /></button>
      </div>
      <div ref={log} role="log" aria-label={t('shell.output')} className="shell-output" dir="ltr">
        {output.map((l) => <div key={l.id} className={`shell-line ${l.kind}`}>{l.text}</div>)}
      </div>
      <form className="shell-prompt" dir="ltr" onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <span aria-hidden="true">$</span>
        <input ref={input} className="shell-input" aria-label={t('shell.command')} value={line} disabled={running} autoComplete="off" spellCheck={false}
          onChange={(e) => setLine(e.target.value)} onKeyDown={history.onKey} />
      </form>
    </section>
  );
}
