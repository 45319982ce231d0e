import { postAuth, type AuthResult, type SignInStepData } from './auth-request';

/** POST /auth/google-login with the ID token from the popup. */
export const googleLogin = (apiBaseUrl: string, idToken: string): Promise<AuthResult<SignInStepData>> =>
  postAuth<SignInStepData>(apiBaseUrl, '/auth/google-login', { idToken }, 'Google login failed');
