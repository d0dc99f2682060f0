import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/fields';
import { splitWords } from '../../lib/words';

/**
 * The programs a user may run, typed as space-separated words (product.md §5). The text is kept
 * as typed, so a space can be typed before the next word; the list is what is saved.
 */
export function CommandsField({ commands, onChange }: { commands: readonly string[]; onChange: (commands: string[]) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => commands.join(' '));
  const type = (value: string): void => {
    setText(value);
    onChange(splitWords(value));
  };
  return <TextField label={t('users.commands')} value={text} onChange={type} help={t('users.commandsHelp')} mono spellCheck={false} />;
}
