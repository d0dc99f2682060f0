import type { TrashItem } from '@contract/trash';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { statusOf } from '../../lib/errors';
import { failureText } from '../../lib/notice';
import { abilitiesAtom } from '../../state/abilities';
import { notifyAtom } from '../../state/notices';
import { useLatestSettled } from '../../state/settled';
import { deleteTrashAtom, emptyTrashAtom, refreshTrashAtom, restoreTrashAtom, trashAtom } from './state';
import { DeleteForeverDialog, EmptyTrashDialog, RestoreConflictDialog } from './trash-dialogs';
import { TrashList } from './trash-list';

type Open = { kind: 'deleteForever'; item: TrashItem } | { kind: 'empty' } | { kind: 'conflict'; item: TrashItem } | null;

/** The actions of the page: restore (asking on a conflict), delete one for ever, empty. */
function useTrashActions(setOpen: (open: Open) => void) {
  const { t } = useTranslation();
  const restore = useSetAtom(restoreTrashAtom);
  const remove = useSetAtom(deleteTrashAtom);
  const empty = useSetAtom(emptyTrashAtom);
  const notify = useSetAtom(notifyAtom);
  const fail = (error: unknown): void => notify({ kind: 'error', message: failureText(error) });
  const restoreItem = (item: TrashItem, how: { override?: boolean; rename?: boolean } = {}): void => {
    setOpen(null);
    restore({ id: item.id, ...how }).then(
      (done) => notify({ kind: 'success', message: { text: t('trash.restored', { path: done.path }) } }),
      (error: unknown) => (statusOf(error) === 409 ? setOpen({ kind: 'conflict', item }) : fail(error)),
    );
  };
  const deleteForever = (item: TrashItem): void => {
    setOpen(null);
    remove(item.id).catch(fail);
  };
  const emptyAll = (): void => {
    setOpen(null);
    empty().catch(fail);
  };
  return { restoreItem, deleteForever, emptyAll };
}

function Dialogs({ open, setOpen, actions, count }: { open: Open; setOpen: (open: Open) => void; actions: ReturnType<typeof useTrashActions>; count: number }) {
  const close = (): void => setOpen(null);
  if (open?.kind === 'deleteForever') return <DeleteForeverDialog name={open.item.name} onClose={close} onConfirm={() => actions.deleteForever(open.item)} />;
  if (open?.kind === 'conflict') {
    const { item } = open;
    return <RestoreConflictDialog path={item.path} onClose={close} onChoose={(how) => actions.restoreItem(item, how === 'override' ? { override: true } : { rename: true })} />;
  }
  if (open?.kind === 'empty') return <EmptyTrashDialog count={count} onClose={close} onConfirm={actions.emptyAll} />;
  return null;
}

/** The Trash page (beyond.md §3): the deleted items, and Restore, Delete permanently, Empty trash. */
export function TrashPage() {
  const { t } = useTranslation();
  const items = useLatestSettled(trashAtom);
  const refresh = useSetAtom(refreshTrashAtom);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const actions = useTrashActions(setOpen);
  // Restoring creates files: without `create` the server refuses it (beyond.md §3).
  const mayRestore = useAtomValue(abilitiesAtom).create;
  // Entering the page again lists what was deleted meanwhile.
  useEffect(() => () => refresh(), [refresh]);
  const selected = items?.find((i) => i.id === selectedId);
  return (
    <div className="trash-page">
      <section className="card trash-card">
        <div className="trash-head">
          <h1 className="card-title">{t('titles.trash')}</h1>
          <div className="trash-actions">
            <button type="button" className="button" disabled={!selected || !mayRestore} onClick={() => selected && actions.restoreItem(selected)}>
              <Icon name="upload" /><span>{t('trash.restore')}</span>
            </button>
            <button type="button" className="button button-danger" disabled={!selected} onClick={() => selected && setOpen({ kind: 'deleteForever', item: selected })}>
              <Icon name="trash" /><span>{t('trash.deleteForever')}</span>
            </button>
            <button type="button" className="button button-danger" disabled={!items?.length} onClick={() => setOpen({ kind: 'empty' })}>
              <Icon name="close" /><span>{t('trash.empty')}</span>
            </button>
          </div>
        </div>
        <p className="trash-help field-help">{t('trash.help')}</p>
        {!items && <Spinner label={t('app.loading')} />}
        {items?.length === 0 && <p className="empty">{t('trash.nothing')}</p>}
        {items && items.length > 0 && <TrashList items={items} selectedId={selected ? selected.id : null} onSelect={setSelectedId} />}
      </section>
      <Dialogs open={open} setOpen={setOpen} actions={actions} count={items?.length ?? 0} />
    </div>
  );
}
