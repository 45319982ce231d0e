import type { SignInProvider } from '@/lib/config';
import { PROVIDER_NAMES } from '@/lib/sign-in-providers';
import { postAuth, type AuthResult, type SignInStepData } from './auth-request';

/**
 * POST /auth/oauth/login with the ticket from `provider`'s popup: a session or the two-factor
 * challenge; 404 when no account has that identity or email, 401 for a spent ticket.
 */
export const oauthLogin = (apiBaseUrl: string, provider: SignInProvider, ticket: string): Promise<AuthResult<SignInStepData>> =>
  postAuth<SignInStepData>(apiBaseUrl, '/auth/oauth/login', { ticket }, `${PROVIDER_NAMES[provider]} login failed`);
