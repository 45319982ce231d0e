import { vi } from 'vitest';
import { browserCredentials, type CredentialJSON } from '@/lib/webauthn';

/**
 * Gives jsdom a WebAuthn: a `PublicKeyCredential` (without the Level 3 JSON helpers unless
 * `native`, so the fallbacks run) and spies on the browser's `create` and `get`.
 */
export function installWebAuthn({ conditional = false }: { conditional?: boolean } = {}) {
  const PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, conditional ? { isConditionalMediationAvailable: () => Promise.resolve(true) } : {});
  vi.stubGlobal('PublicKeyCredential', PublicKeyCredential);
  const create = vi.spyOn(browserCredentials, 'create');
  const get = vi.spyOn(browserCredentials, 'get');
  return { create, get };
}

/** A credential the browser hands back; `toJSON()` gives `json`. */
export const fakeCredential = (json: CredentialJSON) => ({ toJSON: () => json }) as unknown as PublicKeyCredential;

export const registrationJSON: CredentialJSON = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  authenticatorAttachment: 'platform',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', attestationObject: 'o2Nm', transports: ['internal'] },
};

export const assertionJSON: CredentialJSON = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  authenticatorAttachment: 'platform',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'MEUC', userHandle: 'dXNlcg' },
};

/** The DOMException a browser throws when the person closes its passkey prompt. */
export const cancelled = () => new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');

/** A `get` that waits like conditional mediation: it only ends when its signal aborts. */
export const waitUntilAborted = (options: CredentialRequestOptions) =>
  new Promise<Credential | null>((_, reject) => {
    options.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });
