import { useId, useState } from 'react';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { usePageMeta } from '@/lib/use-page-meta';
import { listOrganizations } from '../api/list-organizations';
import { failureMessage, fieldErrorsOf } from '../api/request';
import type { AdminOrganization } from '../api/types';
import { updateSeatLimit } from '../api/update-seat-limit';
import { inputClass, labelClass } from '../components/form-styles';
import { LoadMore } from '../components/load-more';
import { OrganizationsTable } from '../components/organizations-table';
import { ErrorMessage } from '@/components/status-messages';
import { ListStatus } from '../components/status';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { useKeysetList } from '../hooks/use-keyset-list';
import { countLabel } from '../utils/labels';

/** `/admin/organizations`: every organization, searched by name, with its seat limit set in place. */
export function AdminOrganizationsPage() {
  usePageMeta('Organizations · Admin', 'Every organization of the Talent Suite, with its members and seat limit.');
  const { apiBaseUrl } = useConfig();
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const query = useDebouncedValue(typed).trim();
  const list = useKeysetList(query, (cursor, signal) => listOrganizations(apiBaseUrl, query, cursor, signal));
  const { items, status, updateItems } = list;

  const saveSeatLimit = async (organization: AdminOrganization, seatLimit: number | null): Promise<string | undefined> => {
    try {
      const result = await updateSeatLimit(apiBaseUrl, organization.id, seatLimit);
      const updated = result.data?.organization ?? { ...organization, seatLimit };
      updateItems((rows) => rows.map((row) => (row.id === organization.id ? { ...row, ...updated } : row)));
      accountToast.success(result.message || 'Organization updated');
      return undefined;
    } catch (error) {
      accountToast.error(failureMessage(error));
      return fieldErrorsOf(error).seatLimit ?? failureMessage(error);
    }
  };

  let summary: string;
  if (status === 'loading') summary = 'Loading organizations…';
  else if (status === 'error') summary = '';
  else if (items.length === 0) summary = query ? 'No organization matches this search.' : 'There are no organizations yet.';
  else summary = `Showing ${countLabel(items.length, 'organization')}${list.nextCursor ? ' (more to load)' : ''}.`;

  return (
    <div className="grid gap-6">
      <h1 className="text-3xl font-bold tracking-tight text-ink-900">
        Organizations
      </h1>
      <form role="search" aria-label="Organizations" onSubmit={(event) => event.preventDefault()} className="max-w-md">
        <label htmlFor={searchId} className={labelClass}>
          Search organizations
        </label>
        <input id={searchId} type="search" name="query" autoComplete="off" placeholder="Name" value={typed} onChange={(event) => setTyped(event.target.value)} className={inputClass} />
      </form>
      <ListStatus>{summary}</ListStatus>
      {status === 'error' ? <ErrorMessage>{failureMessage(list.error)}</ErrorMessage> : null}
      {items.length > 0 ? <OrganizationsTable organizations={items} busy={status === 'loading'} onSaveSeatLimit={saveSeatLimit} /> : null}
      <LoadMore nextCursor={status === 'ready' ? list.nextCursor : null} loading={list.loadingMore} error={list.moreError} onLoadMore={list.loadMore} />
    </div>
  );
}
