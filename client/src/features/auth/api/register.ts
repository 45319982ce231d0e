import type { SessionUser } from '@/lib/session-store';
import { postAuth, type AuthResult } from './auth-request';

export type Role = 'career' | 'campus' | 'hire';

/** SPEC.md section 3: phone is the country code joined with the digits. */
export type RegisterInput = { name: string; email: string; countryCode: string; phone: string; password: string; role: Role };

/** POST /auth/register. */
export const register = (apiBaseUrl: string, input: RegisterInput): Promise<AuthResult<{ user: SessionUser }>> =>
  postAuth<{ user: SessionUser }>(apiBaseUrl, '/auth/register', input, 'Registration failed');
