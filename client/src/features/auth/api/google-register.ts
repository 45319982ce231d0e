import { postAuth, type AuthResult, type SignedInData } from './auth-request';
import type { Role } from './register';

/** POST /auth/google-register: 201 for a new account, 200 when it exists; signed in either way. */
export const googleRegister = (apiBaseUrl: string, input: { idToken: string; role: Role }): Promise<AuthResult<SignedInData>> =>
  postAuth<SignedInData>(apiBaseUrl, '/auth/google-register', input, 'Google registration failed');
