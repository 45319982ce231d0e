import { postAuth, type AuthResult, type SignInStepData } from './auth-request';
import type { Role } from './register';

/**
 * POST /auth/google-register: 201 for a new account, 200 when it exists; signed in either way,
 * or asked for the two-factor code when the existing account has it on.
 */
export const googleRegister = (apiBaseUrl: string, input: { idToken: string; role: Role }): Promise<AuthResult<SignInStepData>> =>
  postAuth<SignInStepData>(apiBaseUrl, '/auth/google-register', input, 'Google registration failed');
