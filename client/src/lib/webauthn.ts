import { ApiError } from './api-client';

/**
 * Passkeys in the browser. The server sends options and takes credentials as the JSON of
 * WebAuthn Level 3 (base64url strings for every byte string, API.md "Passwordless sign-in").
 * Chromium converts both ways itself (`PublicKeyCredential.parseCreationOptionsFromJSON`,
 * `parseRequestOptionsFromJSON`, `credential.toJSON()`); for a browser without them the same
 * conversions are done here. Only the lazily loaded login and security pages import this.
 */

export type CreationOptionsJSON = PublicKeyCredentialCreationOptionsJSON;
export type RequestOptionsJSON = PublicKeyCredentialRequestOptionsJSON;

/** A credential as `PublicKeyCredential.toJSON()` writes it: a new passkey or a sign-in. */
export type CredentialJSON = {
  id: string;
  rawId: string;
  type: string;
  authenticatorAttachment: string | null;
  clientExtensionResults: Record<string, unknown>;
  response: Record<string, unknown>;
};

/** The static half of `PublicKeyCredential`, each part possibly missing in an older browser. */
type CredentialStatics = {
  parseCreationOptionsFromJSON?: (options: CreationOptionsJSON) => PublicKeyCredentialCreationOptions;
  parseRequestOptionsFromJSON?: (options: RequestOptionsJSON) => PublicKeyCredentialRequestOptions;
  isConditionalMediationAvailable?: () => Promise<boolean>;
};

const credentialStatics = (): CredentialStatics | undefined => {
  const value = (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  return typeof value === 'function' ? (value as CredentialStatics) : undefined;
};

/** Whether this browser has WebAuthn at all; without it no passkey button is shown. */
export const webAuthnAvailable = (): boolean => credentialStatics() !== undefined;

/**
 * An IP address cannot be a relying party id, so a site reached by one has no passkeys (the
 * server answers "Passkeys are not available on this site", the browser a SecurityError).
 */
export function hostCanHavePasskeys(hostname: string = globalThis.location?.hostname ?? ''): boolean {
  return !/^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) && !hostname.includes(':') && !hostname.startsWith('[');
}

/**
 * Whether passkeys can be offered in the email field's autofill (conditional mediation). Not on
 * an IP address: the request that waits for autofill is made unasked, so it must not fail.
 */
export async function conditionalMediationAvailable(): Promise<boolean> {
  if (!hostCanHavePasskeys()) return false;
  const statics = credentialStatics();
  if (typeof statics?.isConditionalMediationAvailable !== 'function') return false;
  try {
    return (await statics.isConditionalMediationAvailable()) === true;
  } catch {
    return false;
  }
}

export function base64UrlToBuffer(value: string): ArrayBuffer {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

export function bufferToBase64Url(buffer: ArrayBuffer | ArrayBufferView): string {
  const bytes = ArrayBuffer.isView(buffer) ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : new Uint8Array(buffer);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The options themselves: a server may also send them wrapped as `{publicKey: …}` (the shape
 * of `CredentialCreationOptions`, which is what webauthn-rs serialises).
 */
function unwrap<T extends object>(options: T | { publicKey: T }): T {
  const inner = (options as { publicKey?: unknown }).publicKey;
  return typeof inner === 'object' && inner !== null ? (inner as T) : (options as T);
}

const descriptorFromJSON = (descriptor: PublicKeyCredentialDescriptorJSON): PublicKeyCredentialDescriptor => ({
  id: base64UrlToBuffer(descriptor.id),
  type: descriptor.type as PublicKeyCredentialType,
  ...(descriptor.transports ? { transports: descriptor.transports as AuthenticatorTransport[] } : {}),
});

/** Creation options for `navigator.credentials.create` from the server's JSON. */
export function creationOptionsFromJSON(raw: CreationOptionsJSON | { publicKey: CreationOptionsJSON }): PublicKeyCredentialCreationOptions {
  const json = unwrap(raw);
  const statics = credentialStatics();
  if (typeof statics?.parseCreationOptionsFromJSON === 'function') return statics.parseCreationOptionsFromJSON(json);
  // Extensions pass through as they are: the ones a server asks for here (credProps) hold no bytes.
  const { attestation, authenticatorSelection, challenge, excludeCredentials, extensions, pubKeyCredParams, rp, timeout, user } = json;
  return {
    rp,
    user: { ...user, id: base64UrlToBuffer(user.id) },
    challenge: base64UrlToBuffer(challenge),
    pubKeyCredParams,
    ...(timeout !== undefined ? { timeout } : {}),
    ...(excludeCredentials ? { excludeCredentials: excludeCredentials.map(descriptorFromJSON) } : {}),
    ...(authenticatorSelection ? { authenticatorSelection } : {}),
    ...(attestation ? { attestation: attestation as AttestationConveyancePreference } : {}),
    ...(extensions ? { extensions: extensions as AuthenticationExtensionsClientInputs } : {}),
  };
}

/** Request options for `navigator.credentials.get` from the server's JSON. */
export function requestOptionsFromJSON(raw: RequestOptionsJSON | { publicKey: RequestOptionsJSON }): PublicKeyCredentialRequestOptions {
  const json = unwrap(raw);
  const statics = credentialStatics();
  if (typeof statics?.parseRequestOptionsFromJSON === 'function') return statics.parseRequestOptionsFromJSON(json);
  const { allowCredentials, challenge, extensions, rpId, timeout, userVerification } = json;
  return {
    challenge: base64UrlToBuffer(challenge),
    ...(allowCredentials ? { allowCredentials: allowCredentials.map(descriptorFromJSON) } : {}),
    ...(rpId !== undefined ? { rpId } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    ...(userVerification ? { userVerification: userVerification as UserVerificationRequirement } : {}),
    ...(extensions ? { extensions: extensions as AuthenticationExtensionsClientInputs } : {}),
  };
}

/** The parts of an attestation response that only newer browsers have. */
type AttestationExtras = {
  getTransports?: () => string[];
  getAuthenticatorData?: () => ArrayBuffer;
  getPublicKey?: () => ArrayBuffer | null;
  getPublicKeyAlgorithm?: () => number;
};

function responseToJSON(response: AuthenticatorResponse): Record<string, unknown> {
  const clientDataJSON = bufferToBase64Url(response.clientDataJSON);
  if ('attestationObject' in response) {
    const attestation = response as AuthenticatorAttestationResponse & AttestationExtras;
    const publicKey = attestation.getPublicKey?.();
    const authenticatorData = attestation.getAuthenticatorData?.();
    return {
      clientDataJSON,
      attestationObject: bufferToBase64Url(attestation.attestationObject),
      transports: attestation.getTransports?.() ?? [],
      ...(authenticatorData ? { authenticatorData: bufferToBase64Url(authenticatorData) } : {}),
      ...(publicKey ? { publicKey: bufferToBase64Url(publicKey) } : {}),
      ...(attestation.getPublicKeyAlgorithm ? { publicKeyAlgorithm: attestation.getPublicKeyAlgorithm() } : {}),
    };
  }
  const assertion = response as AuthenticatorAssertionResponse;
  return {
    clientDataJSON,
    authenticatorData: bufferToBase64Url(assertion.authenticatorData),
    signature: bufferToBase64Url(assertion.signature),
    ...(assertion.userHandle ? { userHandle: bufferToBase64Url(assertion.userHandle) } : {}),
  };
}

/** `credential.toJSON()`, or the same object built by hand where the browser lacks it. */
export function credentialToJSON(credential: PublicKeyCredential): CredentialJSON {
  const native = (credential as { toJSON?: () => CredentialJSON }).toJSON;
  if (typeof native === 'function') return native.call(credential);
  return {
    id: credential.id,
    rawId: bufferToBase64Url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    clientExtensionResults: { ...credential.getClientExtensionResults() },
    response: responseToJSON(credential.response),
  };
}

/** Test seam for the browser's credential store (`navigator.credentials`). */
export const browserCredentials = {
  create: (options: CredentialCreationOptions): Promise<Credential | null> => navigator.credentials.create(options),
  get: (options: CredentialRequestOptions): Promise<Credential | null> => navigator.credentials.get(options),
};

// `create` and `get` answer null only for other kinds of credential; treated as a cancel.
const nothingChosen = () => new DOMException('No passkey was chosen', 'NotAllowedError');

/** Makes a passkey with the server's creation options; resolves to the credential's JSON. */
export async function createPasskey(options: CreationOptionsJSON | { publicKey: CreationOptionsJSON }, signal?: AbortSignal): Promise<CredentialJSON> {
  const credential = await browserCredentials.create({ publicKey: creationOptionsFromJSON(options), ...(signal ? { signal } : {}) });
  if (!credential) throw nothingChosen();
  return credentialToJSON(credential as PublicKeyCredential);
}

/**
 * Asks for a passkey to sign in with. `conditional` waits, without any dialog, for the person
 * to pick one from the autofill of a field marked `autocomplete="… webauthn"`.
 */
export async function getPasskey(
  options: RequestOptionsJSON | { publicKey: RequestOptionsJSON },
  { mediation = 'optional', signal }: { mediation?: CredentialMediationRequirement; signal?: AbortSignal } = {},
): Promise<CredentialJSON> {
  const credential = await browserCredentials.get({ publicKey: requestOptionsFromJSON(options), mediation, ...(signal ? { signal } : {}) });
  if (!credential) throw nothingChosen();
  return credentialToJSON(credential as PublicKeyCredential);
}

const errorName = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string' ? error.name : undefined;

/**
 * The person closed the browser's passkey prompt (or let it time out: browsers report both
 * as NotAllowedError, on purpose), or the request was aborted for a new one.
 */
export const isPasskeyCancel = (error: unknown): boolean => ['NotAllowedError', 'AbortError'].includes(errorName(error) ?? '');

/**
 * What to tell the person after a passkey attempt failed: the server's message for a refused
 * call, a sentence for what the browser refused, or null for a cancel (nothing to say: they
 * chose to stop).
 */
export function passkeyErrorMessage(error: unknown, fallback: string): string | null {
  if (error instanceof ApiError) return error.message || fallback;
  if (isPasskeyCancel(error)) return null;
  switch (errorName(error)) {
    case 'InvalidStateError':
      return 'This device already has a passkey for your account.';
    case 'SecurityError':
      return 'Passkeys cannot be used on this address.';
    case 'NotSupportedError':
      return 'This device cannot make a passkey.';
    default:
      return fallback;
  }
}
