import type { SettingsView } from '@contract/settings';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/fields';
import { splitLines, splitWords } from '../../lib/words';

type Commands = SettingsView['commands'];

const EVENTS = ['save', 'copy', 'rename', 'upload', 'delete'].flatMap((e) => [`before_${e}`, `after_${e}`]);

/** The events to show: the ten of api.md §3.3 in a fixed order, then any other stored key. */
export function eventsOf(commands: Commands): string[] {
  return [...EVENTS, ...Object.keys(commands).filter((key) => !EVENTS.includes(key)).sort()];
}

function EventField({ event, lines, onChange }: { event: string; lines: readonly string[]; onChange: (lines: string[]) => void }) {
  const id = useId();
  const [text, setText] = useState(() => lines.join('\n'));
  return (
    <div className="field">
      <label className="field-label mono" htmlFor={id}>{event}</label>
      <textarea id={id} className="input mono" dir="ltr" rows={2} value={text} spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          onChange(splitLines(e.target.value));
        }} />
    </div>
  );
}

interface CommandRunnerProps {
  shell: readonly string[];
  commands: Commands;
  onChange: (patch: { shell?: string[]; commands?: Commands }) => void;
}

/** The command runner card's fields: the shell (words) and the commands of each event (lines). */
export function CommandRunnerFields({ shell, commands, onChange }: CommandRunnerProps) {
  const { t } = useTranslation();
  const [shellText, setShellText] = useState(() => shell.join(' '));
  return (
    <>
      <TextField label={t('global.shell')} value={shellText} mono spellCheck={false} placeholder="/bin/sh -c" help={t('global.shellHelp')}
        onChange={(text) => {
          setShellText(text);
          onChange({ shell: splitWords(text) });
        }} />
      <fieldset className="fieldset event-commands">
        <legend>{t('global.eventCommands')}</legend>
        <p className="field-help">{t('global.eventCommandsHelp')}</p>
        {eventsOf(commands).map((event) => (
          <EventField key={event} event={event} lines={commands[event] ?? []} onChange={(lines) => onChange({ commands: { ...commands, [event]: lines } })} />
        ))}
      </fieldset>
    </>
  );
}
