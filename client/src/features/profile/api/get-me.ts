import { gql, type TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useEffect, useRef } from 'react';
import { onReturn } from '@/lib/on-return';
import { onAccountChange, SESSION_STALE_TIME_MS } from '@/lib/session-store';
import { PROFILE_USER_FIELDS, type ProfileUser } from './profile-user';

export const ME_QUERY: TypedDocumentNode<{ me: ProfileUser }, Record<string, never>> = gql`
  query Me {
    me {
      ...ProfileUserFields
    }
  }
  ${PROFILE_USER_FIELDS}
`;

/** When the profile last came from the server (ms since the epoch; 0 for never). */
let receivedAt = 0;
onAccountChange(() => {
  receivedAt = 0;
});

/**
 * The signed-in user's profile (GraphQL `me`), under SPEC.md section 9's rule for profile data:
 * the cached answer serves for 600 s; after that it is fetched again when a page shows it, when
 * the window regains focus and when the browser is back online.
 */
export function useMe() {
  const result = useQuery(ME_QUERY);
  const { loading, refetch } = result;
  const hasData = result.data !== undefined;

  // A fetch that has just ended dates what it brought. A page shown from the cache never loads.
  const wasLoading = useRef(loading);
  useEffect(() => {
    if (wasLoading.current && !loading && hasData) receivedAt = Date.now();
    wasLoading.current = loading;
  }, [loading, hasData]);

  useEffect(() => {
    if (!hasData) return undefined;
    return onReturn(() => {
      if (Date.now() - receivedAt < SESSION_STALE_TIME_MS) return;
      // Dated now, so that a second event during the fetch does not send another.
      receivedAt = Date.now();
      refetch().catch(() => {
        receivedAt = 0;
      });
    });
  }, [hasData, refetch]);

  return result;
}
