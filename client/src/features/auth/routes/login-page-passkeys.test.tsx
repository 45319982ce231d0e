import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { assertionJSON, cancelled, fakeCredential, installWebAuthn, waitUntilAborted } from '@/test/webauthn';
import { fullPageNavigation } from '../hooks/use-finish-sign-in';
import { LoginPage } from './login-page';

const user = { id: 'u1', name: 'Asha', email: 'asha@example.com', role: 'hire', status: 'active' };
const requestOptions = { challenge: 'AQID', rpId: 'localhost', allowCredentials: [], userVerification: 'required', timeout: 300000 };
const started = (challenge = 'ch-1') => ({ status: 200, body: { success: true, data: { options: requestOptions, challenge } } });
const signedIn = { status: 200, body: { success: true, message: 'Logged in successfully', data: { user, token: 'jwt-pk' } } };
const notRecognised = { status: 401, body: { success: false, code: 'UNAUTHENTICATED', message: 'Passkey not recognised' } };
const passkeyButton = () => screen.findByRole('button', { name: 'Sign in with a passkey' });

function setup(route = '/login') {
  const assign = vi.spyOn(fullPageNavigation, 'assign').mockImplementation(() => {});
  const view = renderWithApp(<LoginPage />, { route, routes: [] });
  return { assign, events: userEvent.setup(), ...view };
}

describe('LoginPage with passkeys', () => {
  it('offers no passkey where the browser has no WebAuthn, and asks the server nothing', async () => {
    const api = mockApi({});
    setup();
    await screen.findByRole('button', { name: 'Email me a sign-in link' });
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('autocomplete', 'email');
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('signs in with a passkey exactly as with a password: token, toast, full-page navigation to the redirect', async () => {
    const { get } = installWebAuthn();
    get.mockResolvedValue(fakeCredential(assertionJSON));
    const api = mockApi({ '/auth/passkeys/login/start': started(), '/auth/passkeys/login/finish': signedIn });
    const { events, assign } = setup('/login?redirect=https://hire.example.test/jobs');
    await events.click(await passkeyButton());
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://hire.example.test/jobs'));
    expect(api.calls('/auth/passkeys/login/start')).toEqual([{}]);
    expect(api.calls('/auth/passkeys/login/finish')).toEqual([{ challenge: 'ch-1', credential: assertionJSON }]);
    const request = get.mock.calls[0]![0];
    expect(request.mediation).toBe('optional');
    expect(Array.from(new Uint8Array(request.publicKey!.challenge as ArrayBuffer))).toEqual([1, 2, 3]);
    expect(request.publicKey!.allowCredentials).toEqual([]);
    expect(window.localStorage.getItem('token')).toBe('jwt-pk');
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
  });

  it('shows "Passkey not recognised" and stays; the next try gets fresh options', async () => {
    const { get } = installWebAuthn();
    get.mockResolvedValue(fakeCredential(assertionJSON));
    const api = mockApi({ '/auth/passkeys/login/start': [started('ch-1'), started('ch-2')], '/auth/passkeys/login/finish': notRecognised });
    const { events, assign } = setup();
    await events.click(await passkeyButton());
    expect(await screen.findByText('Passkey not recognised')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled());
    await events.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(api.calls('/auth/passkeys/login/finish')).toHaveLength(2));
    expect(api.calls('/auth/passkeys/login/finish').map((body) => (body as { challenge: string }).challenge)).toEqual(['ch-1', 'ch-2']);
  });

  it('says nothing when the person closes the browser prompt', async () => {
    const { get } = installWebAuthn();
    get.mockRejectedValue(cancelled());
    const api = mockApi({ '/auth/passkeys/login/start': started() });
    const { events } = setup();
    await events.click(await passkeyButton());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled());
    expect(get).toHaveBeenCalledTimes(1);
    expect(api.calls('/auth/passkeys/login/finish')).toHaveLength(0);
    expect(document.querySelector('.Toastify__toast')).toBeNull();
  });

  it("shows the server's message for a suspended account", async () => {
    const { get } = installWebAuthn();
    get.mockResolvedValue(fakeCredential(assertionJSON));
    mockApi({
      '/auth/passkeys/login/start': started(),
      '/auth/passkeys/login/finish': { status: 403, body: { success: false, code: 'FORBIDDEN', message: 'This account has been suspended' } },
    });
    const { events } = setup();
    await events.click(await passkeyButton());
    expect(await screen.findByText('This account has been suspended')).toBeInTheDocument();
  });

  describe('autofill (conditional mediation)', () => {
    it('waits for a passkey from the email field from the start, and the button takes over from it', async () => {
      const { get } = installWebAuthn({ conditional: true });
      get.mockImplementation(waitUntilAborted);
      const api = mockApi({ '/auth/passkeys/login/start': started() });
      const { events } = setup();
      await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
      expect(screen.getByLabelText(/Email/)).toHaveAttribute('autocomplete', 'username webauthn');
      const waiting = get.mock.calls[0]![0];
      expect(waiting.mediation).toBe('conditional');
      expect(waiting.signal?.aborted).toBe(false);

      get.mockRejectedValueOnce(cancelled());
      await events.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
      expect(waiting.signal?.aborted).toBe(true);
      await waitFor(() => expect(get).toHaveBeenCalledTimes(3));
      expect(get.mock.calls.map(([options]) => options.mediation)).toEqual(['conditional', 'optional', 'conditional']);
      // Each attempt had its own options from login/start.
      expect(api.calls('/auth/passkeys/login/start')).toHaveLength(3);
      expect(document.querySelector('.Toastify__toast')).toBeNull();
    });

    it('signs in with the passkey picked from autofill', async () => {
      const { get } = installWebAuthn({ conditional: true });
      get.mockResolvedValue(fakeCredential(assertionJSON));
      const api = mockApi({ '/auth/passkeys/login/start': started('ch-auto'), '/auth/passkeys/login/finish': signedIn });
      const { assign } = setup();
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://main.example.test'));
      expect(api.calls('/auth/passkeys/login/finish')).toEqual([{ challenge: 'ch-auto', credential: assertionJSON }]);
      expect(get.mock.calls[0]![0].mediation).toBe('conditional');
    });

    it('waits again, with new options, after a passkey picked from autofill is refused', async () => {
      const { get } = installWebAuthn({ conditional: true });
      get.mockResolvedValueOnce(fakeCredential(assertionJSON)).mockImplementation(waitUntilAborted);
      const api = mockApi({
        '/auth/passkeys/login/start': [started('ch-old'), started('ch-new')],
        '/auth/passkeys/login/finish': { status: 410, body: { success: false, code: 'GONE', message: 'This passkey sign-in has expired. Please try again.' } },
      });
      setup();
      expect(await screen.findByText('This passkey sign-in has expired. Please try again.')).toBeInTheDocument();
      await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
      expect(get.mock.calls.map(([options]) => options.mediation)).toEqual(['conditional', 'conditional']);
      expect(api.calls('/auth/passkeys/login/start')).toHaveLength(2);
      expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
    });

    it('stays quiet when the waiting request fails before a passkey is picked', async () => {
      const { get } = installWebAuthn({ conditional: true });
      get.mockImplementation(waitUntilAborted);
      mockApi({ '/auth/passkeys/login/start': { status: 500, body: { success: false, message: 'Something went wrong' } } });
      setup();
      await screen.findByRole('button', { name: 'Sign in with a passkey' });
      await waitFor(() => expect(screen.getByLabelText(/Email/)).toHaveAttribute('autocomplete', 'username webauthn'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(get).not.toHaveBeenCalled();
      expect(document.querySelector('.Toastify__toast')).toBeNull();
    });

    it('stops waiting when the page closes', async () => {
      const { get } = installWebAuthn({ conditional: true });
      get.mockImplementation(waitUntilAborted);
      mockApi({ '/auth/passkeys/login/start': started() });
      const { unmount } = setup();
      await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
      unmount();
      expect(get.mock.calls[0]![0].signal?.aborted).toBe(true);
    });
  });
});
