import type { UserRecord } from '../../state/schema';
import type { DavDeps } from './context';
import type { DeadProperty } from './dead-props';
import type { PropfindQuery } from './propfind';
import { DAV_NS } from './xml';

const QUOTA_PROPS = ['quota-available-bytes', 'quota-used-bytes'];

/**
 * RFC 4331's live properties of a user with a quota (beyond.md §1, §6), given with every folder
 * when a PROPFIND names them (never in allprop or propname, RFC 4331 §3); nothing for a user
 * without a quota, so the names answer 404 as any unknown property.
 */
export async function quotaProps(deps: Pick<DavDeps, 'quota'>, user: UserRecord, query: PropfindQuery): Promise<DeadProperty[]> {
  if (query.mode !== 'prop' || !deps.quota) return [];
  if (!query.names.some((n) => n.ns === DAV_NS && QUOTA_PROPS.includes(n.name))) return [];
  const usage = await deps.quota.usage(user);
  if (!usage) return [];
  const available = Math.max(0, usage.quota - usage.used);
  return [
    { ns: DAV_NS, name: 'quota-available-bytes', xml: `<D:quota-available-bytes>${available}</D:quota-available-bytes>` },
    { ns: DAV_NS, name: 'quota-used-bytes', xml: `<D:quota-used-bytes>${usage.used}</D:quota-used-bytes>` },
  ];
}
