import { useEffect, useReducer } from 'react';
import { useConfig } from '@/lib/config-context';
import { canFoundOrganizations } from '@/lib/roles';
import type { SessionUser } from '@/lib/session-store';

/** What the last look found, by account: whether it is in any organization. */
const lastSeen = new Map<string, boolean>();

/**
 * Whether an account menu shows "Organizations". API.md: "A person in no organization sees none
 * of this". A founder always sees it; anyone else once `GET /orgs` lists one. The list is read
 * each time the menu opens (an invitation accepted a moment ago counts), its answer kept per
 * account so the item is there at once the next time. A failed read shows the item: the page
 * says what went wrong, where a missing item would say nothing. The request's module loads on
 * demand, so the header every page carries stays as small as it was.
 */
export function useOrganizationsEntry(user: SessionUser, open: boolean): boolean {
  const { apiBaseUrl } = useConfig();
  const [, seen] = useReducer((count: number) => count + 1, 0);
  const founder = canFoundOrganizations(user.role);
  const id = user.id;
  useEffect(() => {
    if (founder || !open) return;
    const controller = new AbortController();
    const settle = (member: boolean) => {
      if (controller.signal.aborted) return;
      lastSeen.set(id, member);
      seen();
    };
    import('@/features/organizations/api/list-organizations')
      .then(({ listOrganizations }) => listOrganizations(apiBaseUrl, controller.signal))
      .then(
        (result) => settle((result.data.organizations?.length ?? 0) > 0),
        () => settle(true),
      );
    return () => controller.abort();
  }, [apiBaseUrl, founder, id, open]);
  return founder || lastSeen.get(id) === true;
}
