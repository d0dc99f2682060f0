import type { TotpEnrolment, TotpStatus } from '@contract/totp';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/fields';
import { Icon } from '../../components/icon';
import { QrImage } from '../../components/qr-image';
import { Spinner } from '../../components/spinner';
import { failureText } from '../../lib/notice';
import { configAtom } from '../../state/config';
import { notifyAtom } from '../../state/notices';
import { useLatestSettled } from '../../state/settled';
import { confirmTotpAtom, disableTotpAtom, startTotpAtom, totpStatusAtom } from './two-factor-state';

/** Saves the recovery codes as a text file, made in the browser. */
function downloadCodes(codes: readonly string[]): void {
  const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'filemgr-recovery-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A form that runs `action` and reports its failure as a notice (a 400 with the server's own words). */
function useAction() {
  const notify = useSetAtom(notifyAtom);
  const [busy, setBusy] = useState(false);
  return {
    busy,
    run: (action: () => Promise<unknown>) => (event?: FormEvent): void => {
      event?.preventDefault();
      if (busy) return;
      setBusy(true);
      action().then(() => setBusy(false), (error: unknown) => {
        setBusy(false);
        notify({ kind: 'error', message: failureText(error, true) });
      });
    },
  };
}

function Enrolment({ enrolment, onCodes }: { enrolment: TotpEnrolment; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const confirm = useSetAtom(confirmTotpAtom);
  const [code, setCode] = useState('');
  const { busy, run } = useAction();
  return (
    <form className="two-factor-enrol" onSubmit={run(async () => onCodes(await confirm(code)))}>
      <p>{t('totp.scan')}</p>
      <QrImage className="two-factor-qr" value={enrolment.uri} label={t('totp.qrCode')} />
      <TextField label={t('totp.secret')} value={enrolment.secret} readOnly mono spellCheck={false} onChange={() => undefined} onFocus={(e) => e.currentTarget.select()} />
      <TextField label={t('totp.code')} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" required help={t('totp.codeHelp')} />
      <div className="card-actions">
        <button type="submit" className="button button-primary" aria-disabled={busy}>{t('totp.verify')}</button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="two-factor-codes">
      <p role="status">{t('totp.turnedOn')}</p>
      <p>{t('totp.recoveryHelp')}</p>
      <ul className="recovery-codes mono" dir="ltr" aria-label={t('totp.recoveryCodes')}>
        {codes.map((c) => <li key={c}>{c}</li>)}
      </ul>
      <div className="card-actions">
        <button type="button" className="button" onClick={() => downloadCodes(codes)}><Icon name="download" /><span>{t('totp.download')}</span></button>
        <button type="button" className="button button-primary" onClick={onDone}>{t('tokens.done')}</button>
      </div>
    </div>
  );
}

function TurnOff({ status }: { status: TotpStatus }) {
  const { t } = useTranslation();
  const disable = useSetAtom(disableTotpAtom);
  const notify = useSetAtom(notifyAtom);
  const [code, setCode] = useState('');
  const { busy, run } = useAction();
  const off = async (): Promise<void> => {
    await disable({ code });
    notify({ kind: 'success', message: { key: 'totp.turnedOff' } });
  };
  return (
    <form onSubmit={run(off)}>
      <p>{t('totp.isOn', { left: status.recoveryCodesLeft })}</p>
      <TextField label={t('totp.code')} value={code} onChange={setCode} autoComplete="one-time-code" required help={t('totp.offHelp')} />
      <div className="card-actions">
        <button type="submit" className="button button-danger" aria-disabled={busy}>{t('totp.turnOff')}</button>
      </div>
    </form>
  );
}

function Off({ status, onCodes }: { status: TotpStatus; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const start = useSetAtom(startTotpAtom);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const { busy, run } = useAction();
  if (enrolment) return <Enrolment enrolment={enrolment} onCodes={onCodes} />;
  return (
    <>
      {status.required && <p className="form-error" role="alert">{t('totp.required')}</p>}
      <p>{t('totp.isOff')}</p>
      <div className="card-actions">
        <button type="button" className="button button-primary" aria-disabled={busy} onClick={run(async () => setEnrolment(await start()))}>{t('totp.setUp')}</button>
      </div>
    </>
  );
}

function Body({ status }: { status: TotpStatus | undefined }): ReactNode {
  const { t } = useTranslation();
  // Held here: turning it on reloads the status, which swaps the enrolment for "is on".
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  if (!status) return <Spinner label={t('app.loading')} />;
  return status.enabled ? <TurnOff status={status} /> : <Off status={status} onCodes={setCodes} />;
}

/** Profile section "Two-factor sign-in" (beyond.md §4.2): set up with a QR code, recovery codes, turn off. */
export function TwoFactorCard() {
  // Without a login page (noauth, proxy) there is no password sign-in for a second factor to guard.
  return useAtomValue(configAtom).LoginPage ? <TwoFactorSection /> : null;
}

function TwoFactorSection() {
  const { t } = useTranslation();
  const status = useLatestSettled(totpStatusAtom);
  return (
    <section className="card settings-card two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="card-title">{t('totp.title')}</h2>
      <div className="card-body"><Body status={status} /></div>
    </section>
  );
}
