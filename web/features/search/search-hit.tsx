import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import type { SearchHit } from '../../api/search';
import { DateTime } from '../../components/date-time';
import { FileIcon } from '../../components/file-icon';
import { currentLang } from '../../i18n';
import { fileKind } from '../../lib/file-kind';
import { formatSize } from '../../lib/format';
import { filesPath, joinPath } from '../../paths';
import { nowAtom } from '../../state/clock';
import { userAtom } from '../../state/session';
import { splitMatches } from './highlight';

/**
 * The path with what the query matched in a <mark>: pieces of text, so a name is never read as
 * markup; isolated and set by its own script (dir=auto), so an Arabic or Hebrew name reads right
 * in a left-to-right page and a Latin one in a right-to-left page.
 */
function MarkedPath({ path, query }: { path: string; query: string }) {
  return (
    <bdi dir="auto" className="search-hit-path">
      {splitMatches(path, query).map((piece, i) => (piece.match ? <mark key={i}>{piece.text}</mark> : piece.text))}
    </bdi>
  );
}

/**
 * One search result: a link named by its path (ui.md), the part the query matched marked,
 * described by its size (files) and its time modified, shown as in the listing (relative, or
 * exact with "Show exact dates").
 */
export function SearchHitLink({ hit, root, query, onOpen }: { hit: SearchHit; root: string; query: string; onOpen: () => void }) {
  const exact = useAtomValue(userAtom)?.dateFormat ?? false;
  const nowMs = useAtomValue(nowAtom);
  const lang = currentLang();
  const metaId = `search-hit-${encodeURIComponent(hit.path)}`;
  const hasMeta = hit.modified !== undefined || (!hit.dir && hit.size !== undefined);
  return (
    <>
      <Link href={filesPath(joinPath(root, hit.path, hit.dir))} onClick={onOpen} className="search-hit" aria-describedby={hasMeta ? metaId : undefined}>
        <FileIcon kind={fileKind(hit.path, '', hit.dir)} className={hit.dir ? 'entry-icon folder' : 'entry-icon'} />
        <MarkedPath path={hit.path} query={query} />
      </Link>
      {/* Beside the link, not in it: the link's name stays exactly the path. */}
      {hasMeta && (
        <span className="search-hit-meta" id={metaId}>
          {!hit.dir && hit.size !== undefined && <span>{formatSize(hit.size, lang)}</span>}
          {hit.modified !== undefined && <DateTime iso={hit.modified} exact={exact} nowMs={nowMs} lang={lang} />}
        </span>
      )}
    </>
  );
}
