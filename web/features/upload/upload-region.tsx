import { useAtomValue, useSetAtom } from 'jotai';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { currentLang } from '../../i18n';
import { formatDuration, formatSize } from '../../lib/format';
import { percent, sentBytes, type Job } from './queue';
import { batchAtom, cancelJobAtom, jobsAtom, rateAtom, sentAtom } from './state';

// Thousands of queued files would make thousands of rows: the first ones show, the rest are counted.
const ROWS = 100;

function Bar({ label, value }: { label: string; value: number }) {
  return (
    <div className="upload-bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <span className="upload-bar-fill" style={{ inlineSize: `${value}%` }} />
    </div>
  );
}

const JobRow = memo(function JobRow({ job, sent }: { job: Job; sent: number }) {
  const { t } = useTranslation();
  const cancel = useSetAtom(cancelJobAtom);
  const value = job.status === 'active' ? percent(sent, job.size) : 0;
  return (
    <li className={`upload-item ${job.status}`}>
      <Icon name={job.file === null ? 'folder' : 'file'} className={`upload-item-icon${job.file === null ? ' folder' : ''}`} />
      <div className="upload-item-main">
        <span className="upload-item-name" title={job.path}><bdi>{job.name}</bdi></span>
        <Bar label={job.name} value={value} />
      </div>
      <span className="upload-item-state">{job.status === 'queued' ? t('upload.waiting') : `${value}%`}</span>
      <button type="button" className="icon-button upload-cancel" aria-label={t('upload.cancel')} title={t('upload.cancel')} onClick={() => cancel(job.id)}>
        <Icon name="close" />
      </button>
    </li>
  );
});

function Summary() {
  const { t } = useTranslation();
  const batch = useAtomValue(batchAtom);
  const sent = useAtomValue(sentAtom);
  const rate = useAtomValue(rateAtom);
  const lang = currentLang();
  const done = sentBytes(batch.finished, sent);
  const value = percent(done, batch.total);
  return (
    <>
      <Bar label={t('upload.overall')} value={value} />
      <p className="uploads-figures">
        <span>{t('upload.bytes', { done: formatSize(done, lang), total: formatSize(batch.total, lang) })}</span>
        {rate && <span>{t('upload.rate', { speed: formatSize(rate.bytesPerSecond, lang), time: formatDuration(rate.secondsLeft, lang) })}</span>}
      </p>
    </>
  );
}

/** ui.md "Uploads": the overall progress, then one progress bar and a Cancel button per file. */
export function UploadRegion() {
  const { t } = useTranslation();
  const jobs = useAtomValue(jobsAtom);
  const sent = useAtomValue(sentAtom);
  return (
    <section className="uploads" role="region" aria-label={t('upload.region')}>
      <div className="uploads-head">
        <h2 className="uploads-title">{t('upload.region')}</h2>
        <span className="uploads-count">{t('upload.left', { count: jobs.length })}</span>
      </div>
      <Summary />
      <ul className="uploads-list">
        {jobs.slice(0, ROWS).map((job) => <JobRow key={job.id} job={job} sent={sent.get(job.id) ?? 0} />)}
      </ul>
      {jobs.length > ROWS && <p className="uploads-more">{t('upload.more', { count: jobs.length - ROWS })}</p>}
    </section>
  );
}
