import { CombinedGraphQLErrors } from '@apollo/client/errors';

/** The `extensions.code` of the first GraphQL error (e.g. UNAUTHENTICATED), if any. */
export function graphQLErrorCode(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const code = error.errors[0]?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Field errors from `errors[0].extensions.errors`, keyed like "website" or "social.github". */
export function graphQLFieldErrors(error: unknown): Record<string, string> {
  if (!CombinedGraphQLErrors.is(error)) return {};
  const raw = error.errors[0]?.extensions?.errors;
  if (typeof raw !== 'object' || raw === null) return {};
  return Object.fromEntries(Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export function graphQLMessage(error: unknown, fallback: string): string {
  if (CombinedGraphQLErrors.is(error)) return error.errors[0]?.message || fallback;
  return fallback;
}

/** The server asks the person to confirm it's them before a sensitive change. */
export const REAUTHENTICATION_REQUIRED = 'REAUTHENTICATION_REQUIRED';

/** True for the GraphQL error and for a REST ApiError (403 `code`) alike. */
export function isReauthenticationRequired(error: unknown): boolean {
  const restCode = error instanceof Error && 'code' in error ? error.code : undefined;
  return graphQLErrorCode(error) === REAUTHENTICATION_REQUIRED || restCode === REAUTHENTICATION_REQUIRED;
}
