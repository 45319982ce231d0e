import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '@/test/render';
import { Header } from './header';

const signedIn = (user: Record<string, unknown>) => jsonResponse(200, { success: true, data: { user } });

function stubFetch(handler: (url: string, init?: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => handler(String(input), init));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const desktopNav = () => screen.getByRole('navigation', { name: 'Main' }).parentElement as HTMLElement;

describe('Header', () => {
  it('shows Loading while the session is being verified', () => {
    stubFetch(() => new Promise<Response>(() => {}));
    renderWithApp(<Header />);
    expect(within(desktopNav()).getByRole('status')).toHaveTextContent('Loading');
  });

  it('shows Sign In and Get Started when the session is refused', async () => {
    const fetchMock = stubFetch(() =>
      Promise.resolve(jsonResponse(401, { success: false, message: 'Session expired or unauthorized' })),
    );
    renderWithApp(<Header />);
    const header = desktopNav();
    expect(await within(header).findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(within(header).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/verify', expect.objectContaining({ credentials: 'include' }));
  });

  it('shows the avatar menu with name, email, dashboard, profile and logout when signed in', async () => {
    stubFetch(() => Promise.resolve(signedIn({ id: '1', name: 'Asha Rao', email: 'asha@example.com', role: 'Campus', status: 'active' })));
    renderWithApp(<Header />);
    const trigger = await within(desktopNav()).findByRole('button', { name: 'Account menu for Asha Rao' });
    expect(trigger).toHaveTextContent('A');
    expect(within(trigger).getByTestId('header-user-name')).toHaveClass('max-w-[120px]', 'truncate');

    fireEvent.click(trigger);
    const panel = document.getElementById(trigger.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(within(panel).getByText('asha@example.com')).toBeInTheDocument();
    const dashboard = within(panel).getByRole('link', { name: /Dashboard/ });
    expect(dashboard).toHaveAttribute('href', 'https://campus.example.test');
    expect(dashboard).toHaveAttribute('target', '_blank');
    expect(within(panel).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(within(panel).getByRole('link', { name: 'Organizations' })).toHaveAttribute('href', '/organizations');
    expect(within(panel).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(within(panel).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('shows the Admin link to admins only, in the account menu and the mobile menu', async () => {
    stubFetch(() => Promise.resolve(signedIn({ id: '1', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', status: 'active' })));
    renderWithApp(<Header />);
    const trigger = await within(desktopNav()).findByRole('button', { name: 'Account menu for Ada Admin' });
    fireEvent.click(trigger);
    const panel = document.getElementById(trigger.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(await within(panel).findByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    fireEvent.click(screen.getByRole('button', { name: /menu/i, expanded: false }));
    const mobile = await screen.findByRole('navigation', { name: 'Mobile' });
    expect(await within(mobile).findByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });

  it('shows Organizations to a Career account only once it is in one, in both menus', async () => {
    let organizations: unknown[] = [];
    const fetchMock = stubFetch((url) =>
      Promise.resolve(
        url.endsWith('/orgs')
          ? jsonResponse(200, { success: true, data: { organizations } })
          : signedIn({ id: '7', name: 'Kiran Das', email: 'kiran@example.com', role: 'career', status: 'active' }),
      ),
    );
    renderWithApp(<Header />);
    const trigger = await within(desktopNav()).findByRole('button', { name: 'Account menu for Kiran Das' });
    const orgCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/orgs')).length;
    expect(orgCalls()).toBe(0);

    fireEvent.click(trigger);
    const panel = document.getElementById(trigger.getAttribute('aria-controls') ?? '') as HTMLElement;
    await waitFor(() => expect(orgCalls()).toBe(1));
    expect(within(panel).getByRole('link', { name: 'Profile' })).toBeInTheDocument();
    expect(within(panel).queryByRole('link', { name: 'Organizations' })).not.toBeInTheDocument();

    // An invitation accepted since: the next opening reads the list again and shows the item.
    organizations = [{ id: 'o1', name: 'Acme', kind: 'hire', myRole: 'member' }];
    fireEvent.click(trigger);
    fireEvent.click(trigger);
    const reopened = document.getElementById(trigger.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(await within(reopened).findByRole('link', { name: 'Organizations' })).toHaveAttribute('href', '/organizations');
    fireEvent.click(screen.getByRole('button', { name: /menu/i, expanded: false }));
    const mobile = await screen.findByRole('navigation', { name: 'Mobile' });
    expect(await within(mobile).findByRole('link', { name: 'Organizations' })).toHaveAttribute('href', '/organizations');
  });

  it('shows Organizations to a Hire account at once, without reading its list', async () => {
    const fetchMock = stubFetch(() => Promise.resolve(signedIn({ id: '8', name: 'Hari Lal', email: 'hari@example.com', role: 'HIRE', status: 'active' })));
    renderWithApp(<Header />);
    const trigger = await within(desktopNav()).findByRole('button', { name: 'Account menu for Hari Lal' });
    fireEvent.click(trigger);
    const panel = document.getElementById(trigger.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(within(panel).getByRole('link', { name: 'Organizations' })).toHaveAttribute('href', '/organizations');
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/orgs'))).toBe(false);
  });

  it('falls back to User and No email, and to / for an unknown role', async () => {
    stubFetch(() => Promise.resolve(signedIn({ id: '1', name: '', email: null, role: 'admin' })));
    renderWithApp(<Header />);
    const trigger = await within(desktopNav()).findByRole('button', { name: 'Account menu for User' });
    fireEvent.click(trigger);
    const panel = document.getElementById(trigger.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(within(panel).getByText('No email')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: /Dashboard/ })).toHaveAttribute('href', '/');
  });

  it('logs out: clears the token, toasts, goes to /login and shows the signed-out header', async () => {
    window.localStorage.setItem('token', 't0k3n');
    const fetchMock = stubFetch((url) =>
      Promise.resolve(
        url.endsWith('/auth/logout')
          ? jsonResponse(200, { success: true, message: 'Logged out successfully' })
          : signedIn({ id: '1', name: 'Asha', email: 'a@example.com', role: 'hire' }),
      ),
    );
    const { router } = renderWithApp(<Header />, { route: '/about' });
    fireEvent.click(await within(desktopNav()).findByRole('button', { name: 'Account menu for Asha' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Logout' })[0] as HTMLElement);

    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(window.localStorage.getItem('token')).toBeNull();
    const logoutCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/logout'));
    expect(logoutCall?.[1]).toMatchObject({ method: 'POST', credentials: 'include' });
    expect((logoutCall?.[1]?.headers as Record<string, string>).Authorization).toBe('Bearer t0k3n');
  });

  it('reports a failed logout with the server message', async () => {
    stubFetch((url) =>
      Promise.resolve(
        url.endsWith('/auth/logout')
          ? jsonResponse(500, { success: false, message: 'Database unavailable' })
          : signedIn({ id: '1', name: 'Asha', email: 'a@example.com', role: 'hire' }),
      ),
    );
    renderWithApp(<Header />);
    fireEvent.click(await within(desktopNav()).findByRole('button', { name: 'Account menu for Asha' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Logout' })[0] as HTMLElement);
    expect(await screen.findByText('Logout failed: Database unavailable')).toBeInTheDocument();
  });

  it('reports a logout that reached no server as an unknown error', async () => {
    stubFetch((url) =>
      url.endsWith('/auth/logout')
        ? Promise.reject(new TypeError('Failed to fetch'))
        : Promise.resolve(signedIn({ id: '1', name: 'Asha', email: 'a@example.com', role: 'hire' })),
    );
    renderWithApp(<Header />);
    fireEvent.click(await within(desktopNav()).findByRole('button', { name: 'Account menu for Asha' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Logout' })[0] as HTMLElement);
    // The call is tried twice, a second apart, before it counts as failed.
    expect(await screen.findByText('Logout failed: Unknown error', {}, { timeout: 3000 })).toBeInTheDocument();
  });

  it('opens the mobile menu with the same links and closes it from a link', async () => {
    stubFetch(() => Promise.resolve(jsonResponse(401, { success: false })));
    renderWithApp(<Header />);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const mobile = await screen.findByRole('navigation', { name: 'Mobile' });
    for (const name of ['Hire', 'Campus', 'Career', 'News', 'About Us', 'Contact Us']) {
      expect(within(mobile).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(await within(mobile).findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    fireEvent.click(within(mobile).getByRole('link', { name: 'Hire' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the mobile menu when focus leaves it for the page beneath', async () => {
    stubFetch(() => Promise.resolve(jsonResponse(401, { success: false })));
    renderWithApp(
      <>
        <Header />
        <a href="/below">Under the menu</a>
      </>,
    );
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    fireEvent.click(toggle);
    const mobile = await screen.findByRole('navigation', { name: 'Mobile' });
    within(mobile).getByRole('link', { name: 'Hire' }).focus();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    screen.getByRole('link', { name: 'Under the menu' }).focus();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'false'));
  });
});
