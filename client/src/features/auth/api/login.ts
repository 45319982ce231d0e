import { postAuth, type AuthResult, type SignedInData } from './auth-request';

export type LoginInput = { email: string; password: string };

/** POST /auth/login. */
export const login = (apiBaseUrl: string, input: LoginInput): Promise<AuthResult<SignedInData>> =>
  postAuth<SignedInData>(apiBaseUrl, '/auth/login', input, 'Login failed');
