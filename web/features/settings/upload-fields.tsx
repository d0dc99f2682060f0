import type { SettingsView } from '@contract/settings';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/fields';
import { FALLBACK_CHUNK_SIZE, formatBytes, parseBytes } from '../../lib/bytes';
import { wholeNumberOf } from '../../lib/words';

type Tus = SettingsView['tus'];

/** product.md §9: the chunk size is read 1.5 s after typing stops. */
export const CHUNK_SIZE_DEBOUNCE_MS = 1500;

/** The chunk size in bytes for what was typed: its value, or 1 MB when it cannot be read. */
export function chunkSizeOf(text: string): number {
  return parseBytes(text) ?? FALLBACK_CHUNK_SIZE;
}

/**
 * The resumable-upload settings: chunk size as text with a unit ("10MB"), applied 1.5 s after
 * typing stops (an unreadable value becomes 1 MB and the field says so), and the retry count.
 */
export function UploadFields({ tus, onChange }: { tus: Tus; onChange: (tus: Tus) => void }) {
  const { t } = useTranslation();
  const [chunkText, setChunkText] = useState(() => formatBytes(tus.chunkSize));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const typeChunk = (text: string): void => {
    setChunkText(text);
    // The parsed value is applied at once so that a save right away sends it; only the
    // rewrite of an unreadable entry to "1MB" waits until typing stops.
    onChange({ ...tus, chunkSize: chunkSizeOf(text) });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (parseBytes(text) === null) setChunkText(formatBytes(FALLBACK_CHUNK_SIZE));
    }, CHUNK_SIZE_DEBOUNCE_MS);
  };

  const typeRetries = (text: string): void => onChange({ ...tus, retryCount: wholeNumberOf(text, 65535) });

  return (
    <fieldset className="fieldset">
      <legend>{t('global.uploads')}</legend>
      <TextField label={t('global.chunkSize')} value={chunkText} onChange={typeChunk} help={t('global.chunkSizeHelp')} mono spellCheck={false} />
      <TextField label={t('global.retryCount')} value={String(tus.retryCount)} onChange={typeRetries} help={t('global.retryCountHelp')}
        inputMode="numeric" />
    </fieldset>
  );
}
