import { describe, expect, it } from 'vitest';
import { testRawConfig } from '@/test/render';
import { CONFIG_PLACEHOLDER, parseConfig, readRawConfig, REQUIRED_KEYS } from './config';

function documentWithConfig(content: string): Document {
  const doc = document.implementation.createHTMLDocument('t');
  const script = doc.createElement('script');
  script.id = 'app-config';
  script.type = 'application/json';
  script.textContent = content;
  doc.head.append(script);
  return doc;
}

describe('parseConfig', () => {
  it('accepts a complete configuration and derives typed values', () => {
    const result = parseConfig({ ...testRawConfig, VITE_ENV: 'local', VITE_DEBUG: 'true', VITE_API_BASE_URL: '/api/' });
    expect(result).toMatchObject({
      ok: true,
      config: { apiBaseUrl: '/api', env: 'local', isLocal: true, debug: true, appName: 'Talent Suite', googleClientId: undefined },
    });
  });

  it.each(REQUIRED_KEYS)('reports a missing %s with the exact message', (key) => {
    const raw = { ...testRawConfig };
    delete raw[key];
    expect(parseConfig(raw)).toEqual({ ok: false, error: `Missing required environment variable: ${key}` });
  });

  it('treats an empty or blank value as missing', () => {
    expect(parseConfig({ ...testRawConfig, VITE_APP_NAME: '  ' })).toEqual({
      ok: false,
      error: 'Missing required environment variable: VITE_APP_NAME',
    });
  });

  it('reports the first missing name in declaration order', () => {
    expect(parseConfig({ VITE_API_BASE_URL: '/api' })).toEqual({
      ok: false,
      error: 'Missing required environment variable: VITE_ENV',
    });
  });

  it('reads the platforms\' optional sign-in entries, leaving out blank ones', () => {
    const result = parseConfig({ ...testRawConfig, VITE_HIRE_SIGN_IN_URL: 'https://hire.example.test/auth/login', VITE_CAREER_SIGN_IN_URL: ' ' });
    expect(result.ok && result.config.signInUrls).toEqual({ hire: 'https://hire.example.test/auth/login' });
  });

  it('reads the sign-in providers the server offers, in its order, leaving out names it does not know', () => {
    const providers = (value: unknown) => {
      const result = parseConfig({ ...testRawConfig, VITE_SIGN_IN_PROVIDERS: value });
      return result.ok && result.config.signInProviders;
    };
    expect(providers('github,linkedin')).toEqual(['github', 'linkedin']);
    expect(providers(' Microsoft , myspace,github,,github ')).toEqual(['microsoft', 'github']);
    expect(providers('google')).toEqual([]);
    expect(providers('')).toEqual([]);
    expect(providers(undefined)).toEqual([]);
    expect(providers(42)).toEqual([]);
  });

  it('keeps the Google client id optional', () => {
    const result = parseConfig({ ...testRawConfig, VITE_GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com' });
    expect(result.ok && result.config.googleClientId).toBe('abc.apps.googleusercontent.com');
  });
});

describe('readRawConfig', () => {
  it('reads the JSON the server wrote into the page', () => {
    const doc = documentWithConfig(JSON.stringify(testRawConfig));
    expect(readRawConfig(doc, () => ({}))).toEqual(testRawConfig);
  });

  it('falls back to build-time values while the placeholder is still there', () => {
    const doc = documentWithConfig(CONFIG_PLACEHOLDER);
    expect(readRawConfig(doc, () => ({ VITE_ENV: 'local' }))).toEqual({ VITE_ENV: 'local' });
  });

  it('treats unreadable JSON as no configuration at all', () => {
    const doc = documentWithConfig('{not json');
    expect(parseConfig(readRawConfig(doc, () => testRawConfig))).toEqual({
      ok: false,
      error: 'Missing required environment variable: VITE_API_BASE_URL',
    });
  });
});
