import { useSyncExternalStore } from 'react';
import { webAuthnAvailable } from './webauthn';

const subscribe = () => () => {};

/**
 * Whether to offer passkeys. The prerendered HTML assumes yes (every current browser has
 * WebAuthn), so adopting it moves nothing; a browser without WebAuthn drops the passkey
 * buttons right after, and a page drawn in the browser never shows them there.
 */
export function useWebAuthnAvailable(): boolean {
  return useSyncExternalStore(subscribe, webAuthnAvailable, () => true);
}
