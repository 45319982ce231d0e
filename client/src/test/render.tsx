import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { parseConfig, type AppConfig, type RawConfig } from '@/lib/config';

export const testRawConfig: RawConfig = {
  VITE_API_BASE_URL: '/api',
  VITE_ENV: 'test',
  VITE_APP_NAME: 'Talent Suite',
  VITE_DEBUG: 'false',
  VITE_MAIN_PLATFORM_URL: 'https://main.example.test',
  VITE_HIRE_PLATFORM_URL: 'https://hire.example.test',
  VITE_CAMPUS_PLATFORM_URL: 'https://campus.example.test',
  VITE_CAREER_PLATFORM_URL: 'https://career.example.test',
};

export function testConfig(overrides: RawConfig = {}): AppConfig {
  const result = parseConfig({ ...testRawConfig, ...overrides });
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

/** Renders `ui` inside the app providers and a memory router; /login renders a marker page. */
export function renderWithApp(
  ui: ReactNode,
  {
    route = '/',
    config = testConfig(),
    routes = [{ path: '/login', element: <h1>Login route</h1> }],
    state,
  }: { route?: string; config?: AppConfig; routes?: RouteObject[]; state?: unknown } = {},
) {
  const router = createMemoryRouter([...routes, { path: '*', element: ui }], { initialEntries: [{ pathname: new URL(route, 'http://x').pathname, search: new URL(route, 'http://x').search, state }] });
  return { router, ...render(<AppProvider config={config}><RouterProvider router={router} /></AppProvider>) };
}

/** A fetch stub answering every call with one JSON response. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}
