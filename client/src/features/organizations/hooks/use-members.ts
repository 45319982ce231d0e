import { useCallback, useEffect, useRef, useState } from 'react';
import { useConfig } from '@/lib/config-context';
import { listMembers } from '../api/list-members';
import type { MemberRole, Membership } from '../api/types';
import { failureMessage } from '../api/request';

type MembersState = {
  members: Membership[];
  nextCursor: string | null;
  /** The first page is on its way. */
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
};

const START: MembersState = { members: [], nextCursor: null, loading: true, loadingMore: false, error: null };

/** An organization's members, a page at a time ("Load more" while `nextCursor` is set). */
export function useMembers(organizationId: string) {
  const { apiBaseUrl } = useConfig();
  const [state, setState] = useState<MembersState>(START);
  const generation = useRef(0);

  const fetchPage = useCallback(
    async (cursor: string | null, signal?: AbortSignal) => {
      const started = generation.current;
      try {
        const { data } = await listMembers(apiBaseUrl, organizationId, cursor, signal);
        if (generation.current !== started || signal?.aborted) return;
        setState((current) => ({
          members: cursor ? [...current.members, ...data.items.filter((item) => !current.members.some((known) => known.user.id === item.user.id))] : data.items,
          nextCursor: data.nextCursor,
          loading: false,
          loadingMore: false,
          error: null,
        }));
      } catch (error) {
        if (generation.current !== started || signal?.aborted) return;
        setState((current) => ({ ...current, loading: false, loadingMore: false, error: failureMessage(error) }));
      }
    },
    [apiBaseUrl, organizationId],
  );

  useEffect(() => {
    generation.current += 1;
    setState(START);
    const controller = new AbortController();
    void fetchPage(null, controller.signal);
    return () => controller.abort();
  }, [fetchPage]);

  const loadMore = useCallback(() => {
    setState((current) => ({ ...current, loadingMore: true }));
    void fetchPage(state.nextCursor);
  }, [fetchPage, state.nextCursor]);

  const setRole = useCallback((userId: string, role: MemberRole) => {
    setState((current) => ({ ...current, members: current.members.map((member) => (member.user.id === userId ? { ...member, role } : member)) }));
  }, []);

  const remove = useCallback((userId: string) => {
    setState((current) => ({ ...current, members: current.members.filter((member) => member.user.id !== userId) }));
  }, []);

  return { ...state, loadMore, setRole, remove };
}
