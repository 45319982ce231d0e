import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { testConfig } from '@/test/render';
import { toastAfterNavigation } from '@/features/auth/hooks/use-finish-sign-in';

describe('a toast kept across the full-page navigation that ends a sign-in', () => {
  it('shows once on the next page of this site', async () => {
    toastAfterNavigation('Logged in successfully', '/profile');
    const first = render(<AppProvider config={testConfig()}>page</AppProvider>);
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    first.unmount();
    expect(window.sessionStorage.length).toBe(0);
  });

  it('is not kept for a platform on another origin', () => {
    toastAfterNavigation('Logged in successfully', 'http://localhost:8083/dashboard');
    expect(window.sessionStorage.length).toBe(0);
  });
});
