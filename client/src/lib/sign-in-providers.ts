import type { SignInProvider } from './config';

/** Every identity provider an account can be connected to: Google (its own flow) and the others. */
export type IdentityProvider = 'google' | SignInProvider;

export const PROVIDER_NAMES: Record<IdentityProvider, string> = {
  google: 'Google',
  linkedin: 'LinkedIn',
  microsoft: 'Microsoft',
  github: 'GitHub',
};
