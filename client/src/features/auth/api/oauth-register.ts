import type { SignInProvider } from '@/lib/config';
import type { SessionUser } from '@/lib/session-store';
import { PROVIDER_NAMES } from '@/lib/sign-in-providers';
import { postAuth, type AuthResult, type SignInStepData } from './auth-request';
import type { Role } from './register';

/** A new account whose email the provider did not vouch for: no session until the mailed code is entered. */
export type PendingAccountData = { user: SessionUser };

export type OAuthRegisterData = SignInStepData | PendingAccountData;

export const isPendingAccount = (data: OAuthRegisterData): data is PendingAccountData =>
  !('twoFactorRequired' in data && data.twoFactorRequired) && !('token' in data && typeof data.token === 'string' && data.token !== '');

/**
 * POST /auth/oauth/register: 201 for a new account (signed in, or pending its email's code),
 * 200 and a sign-in when the identity already has one.
 */
export const oauthRegister = (apiBaseUrl: string, provider: SignInProvider, input: { ticket: string; role: Role }): Promise<AuthResult<OAuthRegisterData>> =>
  postAuth<OAuthRegisterData>(apiBaseUrl, '/auth/oauth/register', input, `${PROVIDER_NAMES[provider]} registration failed`);
