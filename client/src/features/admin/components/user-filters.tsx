import { useId } from 'react';
import type { UserFilters } from '../utils/query';
import { inputClass, labelClass, selectClass } from './form-styles';
import { ROLE_LABELS, STATUS_LABELS, USER_ROLES, USER_STATUSES } from '../utils/labels';

type UserFiltersProps = {
  /** The search as typed (the list follows it after a pause). */
  query: string;
  filters: UserFilters;
  onQueryChange: (query: string) => void;
  onFilterChange: (change: Partial<Pick<UserFilters, 'role' | 'status'>>) => void;
};

/**
 * Search as you type (the start of a name, or of an email address once it has an @: the server
 * answers each from one index range), and narrow by role and status.
 */
export function UserFiltersBar({ query, filters, onQueryChange, onFilterChange }: UserFiltersProps) {
  const id = useId();
  return (
    <form role="search" aria-label="Users" onSubmit={(event) => event.preventDefault()} className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
      <div>
        <label htmlFor={`${id}-query`} className={labelClass}>
          Search users
        </label>
        <input
          id={`${id}-query`}
          type="search"
          name="query"
          autoComplete="off"
          spellCheck={false}
          placeholder="Start of a name, or email@"
          aria-describedby={`${id}-query-hint`}
          value={query}
          onChange={(event) => onQueryChange(event.target.value)}
          className={inputClass}
        />
        <p id={`${id}-query-hint`} className="mt-1 text-xs text-ink-600">
          Names match from their start; type an @ to search by email address.
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-role`} className={labelClass}>
          Role
        </label>
        <select id={`${id}-role`} name="role" value={filters.role} onChange={(event) => onFilterChange({ role: event.target.value })} className={selectClass}>
          <option value="">All roles</option>
          {USER_ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-status`} className={labelClass}>
          Status
        </label>
        <select id={`${id}-status`} name="status" value={filters.status} onChange={(event) => onFilterChange({ status: event.target.value })} className={selectClass}>
          <option value="">All statuses</option>
          {USER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
