/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_BASE_URL?: string;
  readonly VITE_ENV?: string;
  readonly VITE_APP_NAME?: string;
  readonly VITE_DEBUG?: string;
  readonly VITE_MAIN_PLATFORM_URL?: string;
  readonly VITE_HIRE_PLATFORM_URL?: string;
  readonly VITE_CAMPUS_PLATFORM_URL?: string;
  readonly VITE_CAREER_PLATFORM_URL?: string;
  readonly VITE_GOOGLE_CLIENT_ID?: string;
  readonly VITE_HIRE_SIGN_IN_URL?: string;
  readonly VITE_CAMPUS_SIGN_IN_URL?: string;
  readonly VITE_CAREER_SIGN_IN_URL?: string;
  readonly VITE_SIGN_IN_PROVIDERS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
