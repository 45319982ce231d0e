import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { testConfig } from '@/test/render';
import { ConfigProvider } from './config-context';
import { markSignedIn, markSignedOut, useSession } from './session';
import { onAccountChange, SESSION_STALE_TIME_MS } from './session-store';

const asha = { id: 'u1', name: 'Asha Rao', email: 'asha@example.com', role: 'career' };
const ravi = { id: 'u2', name: 'Ravi Kumar', email: 'ravi@example.com', role: 'hire' };
const signedInAs = (user: typeof asha) => ({ status: 200, body: { success: true, data: { user } } });
const signedOut = { status: 401, body: { success: false, message: 'Session expired or unauthorized' } };

/** What a header shows: Loading, the user's name, or Sign In. */
function Badge({ label }: { label: string }) {
  const session = useSession();
  const text = session.state === 'signed-in' ? (session.user.name ?? '') : session.state === 'loading' ? 'Loading' : 'Sign In';
  return <p data-testid={label}>{text}</p>;
}

function renderBadges(...labels: string[]) {
  return render(
    <ConfigProvider config={testConfig()}>
      {labels.map((label) => (
        <Badge key={label} label={label} />
      ))}
    </ConfigProvider>,
  );
}

const badge = (label: string) => screen.getByTestId(label).textContent;

describe('the session store', () => {
  it('checks the session once for every component that shows it', async () => {
    const api = mockApi({ '/auth/verify': signedInAs(asha) });
    renderBadges('header', 'menu');
    expect(badge('header')).toBe('Loading');
    await waitFor(() => expect(badge('header')).toBe('Asha Rao'));
    expect(badge('menu')).toBe('Asha Rao');
    expect(api.calls('/auth/verify')).toHaveLength(1);
  });

  it.each([
    ['answers 401', signedOut],
    ['fails', { status: 500, body: { success: false, message: 'Something went wrong' } }],
  ])('shows Sign In when the check %s', async (_, reply) => {
    mockApi({ '/auth/verify': reply });
    renderBadges('header');
    await waitFor(() => expect(badge('header')).toBe('Sign In'));
  });

  it('checks again on focus only once the answer is older than ten minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const api = mockApi({ '/auth/verify': [signedInAs(asha), signedOut] });
    renderBadges('header');
    await waitFor(() => expect(badge('header')).toBe('Asha Rao'));

    vi.setSystemTime(Date.now() + SESSION_STALE_TIME_MS - 1_000);
    act(() => void window.dispatchEvent(new Event('focus')));
    expect(api.calls('/auth/verify')).toHaveLength(1);

    vi.setSystemTime(Date.now() + 2_000);
    act(() => void window.dispatchEvent(new Event('online')));
    // The known user stays on screen while the check runs, then the expired session shows.
    expect(badge('header')).toBe('Asha Rao');
    await waitFor(() => expect(badge('header')).toBe('Sign In'));
    expect(api.calls('/auth/verify')).toHaveLength(2);
  });

  it('shows the user at once after a sign-in, without asking the server', () => {
    const api = mockApi({});
    markSignedOut();
    renderBadges('header');
    expect(badge('header')).toBe('Sign In');
    act(() => markSignedIn(asha));
    expect(badge('header')).toBe('Asha Rao');
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('clears the user on sign-out, and a new sign-in replaces them', () => {
    mockApi({});
    markSignedIn(asha);
    renderBadges('header');
    act(() => markSignedOut());
    expect(badge('header')).toBe('Sign In');
    act(() => markSignedIn(ravi));
    expect(badge('header')).toBe('Ravi Kumar');
  });

  it('keeps a sign-out made while a check was running, even when that check answers signed in', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    renderBadges('header');
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(badge('header')).toBe('Loading');
    act(() => markSignedOut());
    await act(async () => answer(new Response(JSON.stringify(signedInAs(asha).body), { status: 200 })));
    expect(badge('header')).toBe('Sign In');
  });

  it('tells when the account changes, not when the same account is refreshed', async () => {
    mockApi({ '/auth/verify': signedInAs(asha) });
    const changed = vi.fn();
    const stop = onAccountChange(changed);
    renderBadges('header');
    await waitFor(() => expect(badge('header')).toBe('Asha Rao'));
    // The first answer only says who was already signed in.
    expect(changed).not.toHaveBeenCalled();
    act(() => markSignedIn({ ...asha, name: 'Asha R.' }));
    expect(changed).not.toHaveBeenCalled();
    act(() => markSignedOut());
    expect(changed).toHaveBeenCalledTimes(1);
    act(() => markSignedIn(ravi));
    expect(changed).toHaveBeenCalledTimes(2);
    act(() => markSignedIn(asha));
    expect(changed).toHaveBeenCalledTimes(3);
    stop();
    act(() => markSignedOut());
    expect(changed).toHaveBeenCalledTimes(3);
  });
});
