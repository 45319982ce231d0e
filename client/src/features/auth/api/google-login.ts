import { postAuth, type AuthResult, type SignedInData } from './auth-request';

/** POST /auth/google-login with the ID token from the popup. */
export const googleLogin = (apiBaseUrl: string, idToken: string): Promise<AuthResult<SignedInData>> =>
  postAuth<SignedInData>(apiBaseUrl, '/auth/google-login', { idToken }, 'Google login failed');
