import { postAuth, type AuthResult, type SignedInData, type SignInStepData } from './auth-request';

export type LoginInput = { email: string; password: string };

/** POST /auth/login: a session, or the two-factor challenge when the account has it on. */
export const login = (apiBaseUrl: string, input: LoginInput): Promise<AuthResult<SignInStepData>> =>
  postAuth<SignInStepData>(apiBaseUrl, '/auth/login', input, 'Login failed');

/** POST /auth/login/two-factor: the challenge and a code from the app (or a recovery code). */
export const loginTwoFactor = (apiBaseUrl: string, input: { challenge: string; code: string }): Promise<AuthResult<SignedInData>> =>
  postAuth<SignedInData>(apiBaseUrl, '/auth/login/two-factor', input, 'Login failed');
