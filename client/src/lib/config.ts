/**
 * Runtime configuration. The server writes a JSON object into
 * `<script id="app-config" type="application/json">` in the index.html it serves; under
 * `vite dev` the tag still holds the placeholder and the same names come from import.meta.env.
 */
export const CONFIG_PLACEHOLDER = '<!--APP_CONFIG-->';
export const CONFIG_ELEMENT_ID = 'app-config';

/** Required names, in the order they are reported when missing. */
export const REQUIRED_KEYS = [
  'VITE_API_BASE_URL',
  'VITE_ENV',
  'VITE_APP_NAME',
  'VITE_DEBUG',
  'VITE_MAIN_PLATFORM_URL',
  'VITE_HIRE_PLATFORM_URL',
  'VITE_CAMPUS_PLATFORM_URL',
  'VITE_CAREER_PLATFORM_URL',
] as const;

export const OPTIONAL_KEYS = [
  'VITE_GOOGLE_CLIENT_ID',
  'VITE_HIRE_SIGN_IN_URL',
  'VITE_CAMPUS_SIGN_IN_URL',
  'VITE_CAREER_SIGN_IN_URL',
  'VITE_SIGN_IN_PROVIDERS',
] as const;

/** The sign-in providers besides Google that the server may offer (API.md "More sign-in providers"). */
export const SIGN_IN_PROVIDERS = ['linkedin', 'microsoft', 'github'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];

type RequiredKey = (typeof REQUIRED_KEYS)[number];
type OptionalKey = (typeof OPTIONAL_KEYS)[number];
export type RawConfig = Partial<Record<RequiredKey | OptionalKey, unknown>>;

export type AppConfig = {
  apiBaseUrl: string;
  env: string;
  appName: string;
  debug: boolean;
  isLocal: boolean;
  platformUrls: { main: string; hire: string; campus: string; career: string };
  /** Each platform's own sign-in entry (single sign-on through this site), when configured. */
  signInUrls: { hire?: string; campus?: string; career?: string };
  googleClientId: string | undefined;
  /** The configured providers among SIGN_IN_PROVIDERS, in the server's order. */
  signInProviders: readonly SignInProvider[];
};

export type ConfigResult = { ok: true; config: AppConfig } | { ok: false; error: string };

export const missingVariableMessage = (name: string): string =>
  `Missing required environment variable: ${name}`;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

const isSignInProvider = (name: string): name is SignInProvider => (SIGN_IN_PROVIDERS as readonly string[]).includes(name);

/** A comma-separated list: names it does not know are left out (a newer server may offer more), order kept. */
const parseSignInProviders = (value: unknown): SignInProvider[] => [
  ...new Set(
    text(value)
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(isSignInProvider),
  ),
];

/** Validates raw values; the first missing or empty required name is reported. */
export function parseConfig(raw: RawConfig): ConfigResult {
  const missing = REQUIRED_KEYS.find((key) => text(raw[key]) === '');
  if (missing) return { ok: false, error: missingVariableMessage(missing) };

  const env = text(raw.VITE_ENV);
  const googleClientId = text(raw.VITE_GOOGLE_CLIENT_ID);
  return {
    ok: true,
    config: {
      apiBaseUrl: text(raw.VITE_API_BASE_URL).replace(/\/+$/, ''),
      env,
      appName: text(raw.VITE_APP_NAME),
      debug: text(raw.VITE_DEBUG).toLowerCase() === 'true',
      isLocal: env === 'local',
      platformUrls: {
        main: text(raw.VITE_MAIN_PLATFORM_URL),
        hire: text(raw.VITE_HIRE_PLATFORM_URL),
        campus: text(raw.VITE_CAMPUS_PLATFORM_URL),
        career: text(raw.VITE_CAREER_PLATFORM_URL),
      },
      signInUrls: Object.fromEntries(
        (
          [
            ['hire', raw.VITE_HIRE_SIGN_IN_URL],
            ['campus', raw.VITE_CAMPUS_SIGN_IN_URL],
            ['career', raw.VITE_CAREER_SIGN_IN_URL],
          ] as const
        )
          .map(([platform, value]) => [platform, text(value)] as const)
          .filter(([, value]) => value !== ''),
      ),
      googleClientId: googleClientId === '' ? undefined : googleClientId,
      signInProviders: parseSignInProviders(raw.VITE_SIGN_IN_PROVIDERS),
    },
  };
}

/** Values baked in by `vite dev` from .env files (each name spelled out so Vite replaces it). */
export function readBuildTimeEnv(): RawConfig {
  return {
    VITE_API_BASE_URL: import.meta.env.VITE_API_BASE_URL,
    VITE_ENV: import.meta.env.VITE_ENV,
    VITE_APP_NAME: import.meta.env.VITE_APP_NAME,
    VITE_DEBUG: import.meta.env.VITE_DEBUG,
    VITE_MAIN_PLATFORM_URL: import.meta.env.VITE_MAIN_PLATFORM_URL,
    VITE_HIRE_PLATFORM_URL: import.meta.env.VITE_HIRE_PLATFORM_URL,
    VITE_CAMPUS_PLATFORM_URL: import.meta.env.VITE_CAMPUS_PLATFORM_URL,
    VITE_CAREER_PLATFORM_URL: import.meta.env.VITE_CAREER_PLATFORM_URL,
    VITE_GOOGLE_CLIENT_ID: import.meta.env.VITE_GOOGLE_CLIENT_ID,
    VITE_HIRE_SIGN_IN_URL: import.meta.env.VITE_HIRE_SIGN_IN_URL,
    VITE_CAMPUS_SIGN_IN_URL: import.meta.env.VITE_CAMPUS_SIGN_IN_URL,
    VITE_CAREER_SIGN_IN_URL: import.meta.env.VITE_CAREER_SIGN_IN_URL,
    VITE_SIGN_IN_PROVIDERS: import.meta.env.VITE_SIGN_IN_PROVIDERS,
  };
}

/**
 * Reads the server-written JSON when present; falls back to `fallback` (import.meta.env)
 * while the tag still holds the placeholder. Unreadable JSON counts as no values at all.
 */
export function readRawConfig(doc: Document, fallback: () => RawConfig = readBuildTimeEnv): RawConfig {
  const content = doc.getElementById(CONFIG_ELEMENT_ID)?.textContent?.trim() ?? '';
  if (content === '' || content === CONFIG_PLACEHOLDER) return fallback();
  try {
    const parsed: unknown = JSON.parse(content);
    return typeof parsed === 'object' && parsed !== null ? (parsed as RawConfig) : {};
  } catch {
    return {};
  }
}

export const loadConfig = (doc: Document = document): ConfigResult => parseConfig(readRawConfig(doc));
