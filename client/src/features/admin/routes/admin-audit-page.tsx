import { Download } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { useConfig } from '@/lib/config-context';
import { usePageMeta } from '@/lib/use-page-meta';
import { listAudit } from '../api/list-audit';
import { failureMessage } from '../api/request';
import { AuditFiltersForm } from '../components/audit-filters';
import { AuditTable } from '../components/audit-table';
import { LoadMore } from '../components/load-more';
import { ErrorMessage } from '@/components/status-messages';
import { ListStatus } from '../components/status';
import { useKeysetList } from '../hooks/use-keyset-list';
import { countLabel } from '../utils/labels';
import { auditCsvHref, auditFiltersFrom, queryString, type AuditFilters } from '../utils/query';

/** `/admin/audit`: the audit log, newest first, filtered by account, kind and time; as CSV too. */
export function AdminAuditPage() {
  usePageMeta('Audit log · Admin', 'Who did what to which account, and when.');
  const { apiBaseUrl } = useConfig();
  const [search, setSearch] = useSearchParams();
  const filters = auditFiltersFrom(search);
  const key = queryString({ ...filters });
  const list = useKeysetList(key, (cursor, signal) => listAudit(apiBaseUrl, filters, cursor, signal));
  const { items, status } = list;
  // Each applied filter is a step of the history: Back returns to the log as it was.
  const apply = (next: AuditFilters) => setSearch(new URLSearchParams(queryString({ ...next })));

  let summary: string;
  if (status === 'loading') summary = 'Loading events…';
  else if (status === 'error') summary = '';
  else if (items.length === 0) summary = 'No events match these filters.';
  else summary = `Showing ${countLabel(items.length, 'event')}, newest first${list.nextCursor ? ' (more to load)' : ''}.`;

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight text-ink-900">
          Audit log
        </h1>
        {/* A plain download: the browser sends the session cookie with it. */}
        <a href={auditCsvHref(apiBaseUrl, filters)} download className={buttonClass('secondary', 'md')}>
          <Download aria-hidden="true" className="size-4" />
          Export CSV
        </a>
      </div>
      <AuditFiltersForm filters={filters} onApply={apply} />
      <ListStatus>{summary}</ListStatus>
      {status === 'error' ? <ErrorMessage>{failureMessage(list.error)}</ErrorMessage> : null}
      {items.length > 0 ? <AuditTable events={items} busy={status === 'loading'} /> : null}
      <LoadMore nextCursor={status === 'ready' ? list.nextCursor : null} loading={list.loadingMore} error={list.moreError} onLoadMore={list.loadMore} />
    </div>
  );
}
