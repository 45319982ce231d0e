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
  /** A 429's `Retry-After`, in seconds: how long until the server takes the call again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    message: string,
    code?: string,
    fieldErrors: Record<string, string> = {},
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Thrown when every attempt failed before any HTTP response arrived. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network request failed', { cause });
    this.name = 'NetworkError';
  }
}

export type ApiResponse<T> = {
  status: number;
  body: Envelope<T> | null;
  /** The `Retry-After` header in whole seconds (API.md sends it with every 429). */
  retryAfterSeconds?: number;
};

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
    return {
      status: response.status,
      body: isEnvelope(parsed) ? (parsed as Envelope<T>) : null,
      retryAfterSeconds: retryAfterOf(response.headers.get('Retry-After')),
    };
  }
  throw new NetworkError(lastError);
}

/** Whole seconds from a `Retry-After` header; its HTTP-date form and anything else: none. */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null || !/^\d{1,9}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/** "in 42 seconds", "in 15 minutes", "in 2 hours": a wait, rounded up to its unit. */
export function waitText(seconds: number): string {
  const plural = (n: number, unit: string) => `in ${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(Math.max(1, seconds), 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  return plural(Math.ceil(minutes / 60), 'hour');
}

/**
 * A throttle's message with the wait its `Retry-After` names: "try again later" becomes "try
 * again in 12 minutes", and a message that asks the person to wait says for how long. Other
 * messages (a dead code to request again, tomorrow's invitations) stay as the server wrote them.
 */
export function withWait(message: string, seconds: number | undefined): string {
  if (seconds === undefined) return message;
  if (/try again later/i.test(message)) return message.replace(/later/i, waitText(seconds));
  if (/\bwait\b|slow down/i.test(message)) return `${message} Try again ${waitText(seconds)}.`;
  return message;
}

/** Turns a non-success response into an ApiError carrying the server's message. */
export function toApiError(response: ApiResponse<unknown>, fallbackMessage: string): ApiError {
  const stated = response.body?.message?.trim() || fallbackMessage;
  const retryAfter = response.status === 429 ? response.retryAfterSeconds : undefined;
  return new ApiError(response.status, withWait(stated, retryAfter), response.body?.code, response.body?.errors ?? {}, retryAfter);
}
