import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useConfig } from '@/lib/config-context';
import { usePageMeta } from '@/lib/use-page-meta';
import { listUsers } from '../api/list-users';
import { failureMessage } from '../api/request';
import { LoadMore } from '../components/load-more';
import { ErrorMessage } from '@/components/status-messages';
import { ListStatus } from '../components/status';
import { UserFiltersBar } from '../components/user-filters';
import { UsersTable } from '../components/users-table';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { useKeysetList } from '../hooks/use-keyset-list';
import { countLabel } from '../utils/labels';
import { queryString, userFiltersFrom, type UserFilters } from '../utils/query';

/** `/admin/users`: every account, searched and filtered; the filters live in the address, so Back keeps them. */
export function AdminUsersPage() {
  usePageMeta('Users · Admin', 'Search and manage the accounts of the Talent Suite.');
  const { apiBaseUrl } = useConfig();
  const [search, setSearch] = useSearchParams();
  const filters = userFiltersFrom(search);
  const [typed, setTyped] = useState(filters.query);
  const settled = useDebouncedValue(typed);

  const setFilters = useCallback(
    (change: Partial<UserFilters>) => setSearch((previous) => new URLSearchParams(queryString({ ...userFiltersFrom(previous), ...change })), { replace: true }),
    [setSearch],
  );
  // The search box writes to the address once typing pauses, and the list follows the
  // address; an address changed another way (the Users tab) refills the box.
  const written = useRef(filters.query);
  useEffect(() => {
    if (written.current === settled) return;
    written.current = settled;
    setFilters({ query: settled });
  }, [settled, setFilters]);
  useEffect(() => {
    if (written.current.trim() === filters.query.trim()) return;
    written.current = filters.query;
    setTyped(filters.query);
  }, [filters.query]);

  const key = queryString({ ...filters });
  const list = useKeysetList(key, (cursor, signal) => listUsers(apiBaseUrl, filters, cursor, signal));
  const { items, status } = list;

  let summary: string;
  if (status === 'loading') summary = 'Loading users…';
  else if (status === 'error') summary = '';
  else if (items.length === 0) summary = 'No users match these filters.';
  else summary = `Showing ${countLabel(items.length, 'user')}${list.nextCursor ? ' (more to load)' : ''}.`;

  return (
    <div className="grid gap-6">
      <h1 className="text-3xl font-bold tracking-tight text-ink-900">
        Users
      </h1>
      <UserFiltersBar query={typed} filters={filters} onQueryChange={setTyped} onFilterChange={setFilters} />
      <ListStatus>{summary}</ListStatus>
      {status === 'error' ? <ErrorMessage>{failureMessage(list.error)}</ErrorMessage> : null}
      {items.length > 0 ? <UsersTable users={items} busy={status === 'loading'} /> : null}
      <LoadMore nextCursor={status === 'ready' ? list.nextCursor : null} loading={list.loadingMore} error={list.moreError} onLoadMore={list.loadMore} />
    </div>
  );
}
