import { ApiError, apiRequest, toApiError, type RequestOptions } from '@/lib/api-client';

export type ApiResult<T> = { message: string; data: T };

/** The screen's default text for a failure the server did not word (SPEC.md section 8). */
export const FALLBACK_MESSAGE = 'Something went wrong';

/**
 * Sends one admin call and returns the server's message and data, or throws an ApiError
 * carrying its status, code, message and field errors.
 */
export async function adminRequest<T>(apiBaseUrl: string, path: string, options: Pick<RequestOptions, 'method' | 'body' | 'signal'> = {}): Promise<ApiResult<T>> {
  const response = await apiRequest<T>(apiBaseUrl, path, options);
  if (response.status >= 200 && response.status < 300 && response.body?.success === true) {
    return { message: response.body.message?.trim() ?? '', data: response.body.data as T };
  }
  throw toApiError(response, FALLBACK_MESSAGE);
}

/** The text to show for a failed call: the server's message, else the default. */
export const failureMessage = (error: unknown): string => (error instanceof ApiError && error.message ? error.message : FALLBACK_MESSAGE);

export const fieldErrorsOf = (error: unknown): Record<string, string> => (error instanceof ApiError ? error.fieldErrors : {});

export const statusOf = (error: unknown): number | undefined => (error instanceof ApiError ? error.status : undefined);

/** `/admin/users/{id}…` with the id escaped. */
export const userPath = (id: string, rest = ''): string => `/admin/users/${encodeURIComponent(id)}${rest}`;
