import { getStoredToken } from './token-storage';

/** SPEC.md section 9: two attempts in all, waiting 1 s times the attempt number in between. */
export const MAX_ATTEMPTS = 2;
export const RETRY_DELAY_MS = 1000;

/** The server's `{success, message, data}` envelope (API.md). */
export type Envelope<T> = {
  success: boolean;
  message?: string;
  code?: string;
  data?: T;
  errors?: Record<string, string>;
};

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly fieldErrors: Record<string, string>;

  constructor(status: number, message: string, code?: string, fieldErrors: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

/** Thrown when every attempt failed before any HTTP response arrived. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network request failed', { cause });
    this.name = 'NetworkError';
  }
}

export type ApiResponse<T> = { status: number; body: Envelope<T> | null };

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Test seam: defaults to the global fetch and setTimeout-based sleep. */
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'success' in value;
}

/**
 * Sends one API call with cookies and, when a token is stored, a bearer header. Only
 * network failures are retried; an HTTP error response is returned as is for the caller.
 */
export async function apiRequest<T>(baseUrl: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const { method = 'GET', body, signal, fetchImpl = fetch, sleep = defaultSleep } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getStoredToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let lastError: unknown;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}${path}`, {
        method,
        headers,
        credentials: 'include',
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      lastError = error;
      if (attempt < MAX_ATTEMPTS) await sleep(RETRY_DELAY_MS * attempt);
      continue;
    }
    let parsed: unknown = null;
    try {
      parsed = await response.json();
    } catch {
      parsed = null;
    }
    return { status: response.status, body: isEnvelope(parsed) ? (parsed as Envelope<T>) : null };
  }
  throw new NetworkError(lastError);
}

/** Turns a non-success response into an ApiError carrying the server's message. */
export function toApiError(response: ApiResponse<unknown>, fallbackMessage: string): ApiError {
  const message = response.body?.message?.trim() || fallbackMessage;
  return new ApiError(response.status, message, response.body?.code, response.body?.errors ?? {});
}
