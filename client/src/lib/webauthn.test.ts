import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import {
  base64UrlToBuffer,
  bufferToBase64Url,
  conditionalMediationAvailable,
  credentialToJSON,
  creationOptionsFromJSON,
  hostCanHavePasskeys,
  isPasskeyCancel,
  passkeyErrorMessage,
  requestOptionsFromJSON,
  webAuthnAvailable,
  type CreationOptionsJSON,
} from './webauthn';

const bytes = (buffer: BufferSource | undefined) => Array.from(new Uint8Array(buffer as ArrayBuffer));
const buffer = (...values: number[]) => new Uint8Array(values).buffer;

const creation: CreationOptionsJSON = {
  rp: { id: 'localhost', name: 'Talent Suite' },
  user: { id: 'dXNlcg', name: 'asha@example.com', displayName: 'Asha' },
  challenge: 'AQID',
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  timeout: 300000,
  excludeCredentials: [{ id: '-_8', type: 'public-key', transports: ['internal'] }],
  authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  attestation: 'none',
};

describe('base64url', () => {
  it('round-trips bytes of every length, with the URL-safe alphabet and no padding', () => {
    for (const values of [[], [0], [251, 255], [1, 2, 3], [255, 254, 253, 252]]) {
      const text = bufferToBase64Url(buffer(...values));
      expect(text).not.toMatch(/[+/=]/);
      expect(bytes(base64UrlToBuffer(text))).toEqual(values);
    }
    expect(bufferToBase64Url(buffer(251, 255))).toBe('-_8');
    expect(bufferToBase64Url(new Uint8Array([9, 1, 2, 3]).subarray(1))).toBe('AQID');
  });

  it('reads padded standard base64 too', () => {
    expect(bytes(base64UrlToBuffer('+/8='))).toEqual([251, 255]);
  });
});

describe('options from JSON without the browser helpers', () => {
  it('turns the byte strings of creation options into buffers and keeps the rest', () => {
    const options = creationOptionsFromJSON(creation);
    expect(bytes(options.challenge)).toEqual([1, 2, 3]);
    expect(bytes(options.user.id)).toEqual([117, 115, 101, 114]);
    expect(options.user.name).toBe('asha@example.com');
    expect(bytes(options.excludeCredentials?.[0]?.id)).toEqual([251, 255]);
    expect(options.excludeCredentials?.[0]?.transports).toEqual(['internal']);
    expect(options.authenticatorSelection).toEqual({ residentKey: 'required', userVerification: 'required' });
    expect(options.rp).toEqual({ id: 'localhost', name: 'Talent Suite' });
    expect(options.timeout).toBe(300000);
  });

  it('accepts options wrapped as {publicKey}', () => {
    expect(bytes(creationOptionsFromJSON({ publicKey: creation }).challenge)).toEqual([1, 2, 3]);
    expect(bytes(requestOptionsFromJSON({ publicKey: { challenge: 'AQID' } }).challenge)).toEqual([1, 2, 3]);
  });

  it('turns request options into buffers; an empty allow list stays empty (discoverable passkeys)', () => {
    const options = requestOptionsFromJSON({ challenge: 'AQID', rpId: 'localhost', allowCredentials: [], userVerification: 'required', timeout: 300000 });
    expect(bytes(options.challenge)).toEqual([1, 2, 3]);
    expect(options.allowCredentials).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe('localhost');
  });

  it("uses the browser's own parsers when it has them", () => {
    const parsed = { challenge: buffer(7) };
    const parseCreationOptionsFromJSON = vi.fn(() => parsed);
    const parseRequestOptionsFromJSON = vi.fn(() => parsed);
    vi.stubGlobal('PublicKeyCredential', Object.assign(function PublicKeyCredential() {}, { parseCreationOptionsFromJSON, parseRequestOptionsFromJSON }));
    expect(creationOptionsFromJSON({ publicKey: creation })).toBe(parsed);
    expect(parseCreationOptionsFromJSON).toHaveBeenCalledWith(creation);
    expect(requestOptionsFromJSON({ challenge: 'AQID' })).toBe(parsed);
    expect(parseRequestOptionsFromJSON).toHaveBeenCalledWith({ challenge: 'AQID' });
  });
});

describe('credentialToJSON', () => {
  it("uses the credential's own toJSON when there is one", () => {
    const json = { id: 'x' };
    expect(credentialToJSON({ toJSON: () => json } as unknown as PublicKeyCredential)).toBe(json);
  });

  it('writes a new passkey (attestation) as WebAuthn Level 3 JSON', () => {
    const credential = {
      id: 'AQID',
      rawId: buffer(1, 2, 3),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      getClientExtensionResults: () => ({ credProps: { rk: true } }),
      response: {
        clientDataJSON: buffer(123, 125),
        attestationObject: buffer(163),
        getTransports: () => ['internal'],
        getAuthenticatorData: () => buffer(9),
        getPublicKey: () => buffer(48),
        getPublicKeyAlgorithm: () => -7,
      },
    } as unknown as PublicKeyCredential;
    expect(credentialToJSON(credential)).toEqual({
      id: 'AQID',
      rawId: 'AQID',
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: { credProps: { rk: true } },
      response: { clientDataJSON: 'e30', attestationObject: 'ow', transports: ['internal'], authenticatorData: 'CQ', publicKey: 'MA', publicKeyAlgorithm: -7 },
    });
  });

  it('writes a sign-in (assertion) with its user handle, and an older attestation without the newer getters', () => {
    const assertion = {
      id: 'AQID',
      rawId: buffer(1, 2, 3),
      type: 'public-key',
      authenticatorAttachment: null,
      getClientExtensionResults: () => ({}),
      response: { clientDataJSON: buffer(123, 125), authenticatorData: buffer(9), signature: buffer(48, 69), userHandle: buffer(117) },
    } as unknown as PublicKeyCredential;
    expect(credentialToJSON(assertion).response).toEqual({ clientDataJSON: 'e30', authenticatorData: 'CQ', signature: 'MEU', userHandle: 'dQ' });
    expect(credentialToJSON(assertion).authenticatorAttachment).toBeNull();

    const older = { ...assertion, response: { clientDataJSON: buffer(123, 125), attestationObject: buffer(163) } } as unknown as PublicKeyCredential;
    expect(credentialToJSON(older).response).toEqual({ clientDataJSON: 'e30', attestationObject: 'ow', transports: [] });
  });
});

describe('support checks', () => {
  it('has WebAuthn only where PublicKeyCredential exists', async () => {
    expect(webAuthnAvailable()).toBe(false);
    expect(await conditionalMediationAvailable()).toBe(false);
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    expect(webAuthnAvailable()).toBe(true);
    expect(await conditionalMediationAvailable()).toBe(false);
  });

  it('knows an IP address can have no passkeys, and offers no autofill there', async () => {
    for (const host of ['localhost', 'talent.example.com', 'hire.localhost', 'a1.b2.example']) expect(hostCanHavePasskeys(host)).toBe(true);
    for (const host of ['127.0.0.1', '10.0.0.12', '[::1]', '::1']) expect(hostCanHavePasskeys(host)).toBe(false);
    vi.stubGlobal('PublicKeyCredential', Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: () => Promise.resolve(true) }));
    vi.stubGlobal('location', { hostname: '127.0.0.1' });
    expect(await conditionalMediationAvailable()).toBe(false);
  });

  it('offers autofill only when the browser says so, and a failing check counts as no', async () => {
    vi.stubGlobal('PublicKeyCredential', Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: () => Promise.resolve(true) }));
    expect(await conditionalMediationAvailable()).toBe(true);
    vi.stubGlobal('PublicKeyCredential', Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: () => Promise.reject(new Error('no')) }));
    expect(await conditionalMediationAvailable()).toBe(false);
  });
});

describe('passkey errors', () => {
  it('says nothing for a closed prompt or an aborted request', () => {
    for (const name of ['NotAllowedError', 'AbortError']) {
      expect(isPasskeyCancel(new DOMException('x', name))).toBe(true);
      expect(passkeyErrorMessage(new DOMException('x', name), 'Login failed')).toBeNull();
    }
    expect(isPasskeyCancel(new Error('boom'))).toBe(false);
  });

  it("shows the server's message for a refused call", () => {
    expect(passkeyErrorMessage(new ApiError(401, 'Passkey not recognised'), 'Login failed')).toBe('Passkey not recognised');
    expect(passkeyErrorMessage(new ApiError(410, 'Passkey request has expired. Please try again.', 'TOKEN_EXPIRED'), 'x')).toBe(
      'Passkey request has expired. Please try again.',
    );
  });

  it("words what the browser refused, and falls back to the screen's default", () => {
    expect(passkeyErrorMessage(new DOMException('x', 'InvalidStateError'), 'x')).toBe('This device already has a passkey for your account.');
    expect(passkeyErrorMessage(new DOMException('x', 'SecurityError'), 'x')).toBe('Passkeys cannot be used on this address.');
    expect(passkeyErrorMessage(new DOMException('x', 'NotSupportedError'), 'x')).toBe('This device cannot make a passkey.');
    expect(passkeyErrorMessage(new TypeError('bad'), 'Something went wrong')).toBe('Something went wrong');
    expect(passkeyErrorMessage('???', 'Something went wrong')).toBe('Something went wrong');
  });
});
