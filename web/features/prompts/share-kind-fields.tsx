import { useAtomValue } from 'jotai';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShareKind } from '@contract/share';
import { abilitiesAtom } from '../../state/abilities';

/** '' or '0' is no limit (0); otherwise a whole number from 1, else null. */
export function limitOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d{1,9}$/.test(trimmed)) return null;
  return Number(trimmed);
}

interface ShareKindFieldsProps {
  kind: ShareKind;
  onKind: (kind: ShareKind) => void;
  /** Upload links ask for files into a folder the user may create files in. */
  uploadAllowed: boolean;
  limit: string;
  onLimit: (text: string) => void;
  limitInvalid: boolean;
}

/**
 * beyond.md §2 in the share prompt: radio group "Link type" (Download link, Upload link) and the
 * spinbutton "Download limit", shown for download links only.
 */
export function ShareKindFields({ kind, onKind, uploadAllowed, limit, onLimit, limitInvalid }: ShareKindFieldsProps) {
  const { t } = useTranslation();
  const option = (value: ShareKind, label: string, disabled = false) => (
    <label className="link-kind-option">
      <input type="radio" name="share-kind" value={value} checked={kind === value} disabled={disabled} onChange={() => onKind(value)} />
      <span>{label}</span>
    </label>
  );
  return (
    <>
      <fieldset className="link-kind" role="radiogroup" aria-describedby="share-kind-help">
        <legend className="field-label">{t('fileRequest.linkType')}</legend>
        {option('download', t('fileRequest.downloadLink'))}
        {option('upload', t('fileRequest.uploadLink'), !uploadAllowed)}
        <p id="share-kind-help" className="field-help">{t(kind === 'upload' ? 'fileRequest.uploadHint' : 'fileRequest.downloadHint')}</p>
      </fieldset>
      {kind === 'download' && (
        <label className="field">
          <span className="field-label">{t('fileRequest.downloadLimit')}</span>
          <input className="input" type="number" min={0} step={1} value={limit} aria-invalid={limitInvalid || undefined}
            aria-describedby="share-limit-help" onChange={(e) => onLimit(e.target.value)} />
          <span id="share-limit-help" className={limitInvalid ? 'form-error' : 'field-help'} role={limitInvalid ? 'alert' : undefined}>
            {t(limitInvalid ? 'fileRequest.limitInvalid' : 'fileRequest.limitHint')}
          </span>
        </label>
      )}
    </>
  );
}

/**
 * The kind and the download limit of a new link: the fields to render, and `read` that gives
 * both (null, with the limit marked invalid, when the limit is not a whole number from 0).
 */
export function useLinkKind(isDir: boolean): { fields: ReactNode; read: () => { kind: ShareKind; maxDownloads: number } | null } {
  const [kind, setKind] = useState<ShareKind>('download');
  const [limit, setLimit] = useState('');
  const [limitInvalid, setLimitInvalid] = useState(false);
  const mayCreate = useAtomValue(abilitiesAtom).create;
  const uploadAllowed = isDir && mayCreate;
  const onLimit = (text: string): void => {
    setLimit(text);
    setLimitInvalid(false);
  };
  const fields = <ShareKindFields kind={kind} onKind={setKind} uploadAllowed={uploadAllowed} limit={limit} onLimit={onLimit} limitInvalid={limitInvalid} />;
  const read = () => {
    const maxDownloads = kind === 'upload' ? 0 : limitOf(limit);
    if (maxDownloads === null) setLimitInvalid(true);
    return maxDownloads === null ? null : { kind, maxDownloads };
  };
  return { fields, read };
}
