/** API.md "Administration": the objects the admin calls answer with (camelCase JSON). */
export type UserRole = 'career' | 'campus' | 'hire' | 'admin';
export type UserStatus = 'pending' | 'active' | 'suspended';

/** A User as an admin sees it in a list: with the last sign-in and how many organizations. */
export type AdminUser = {
  id: string;
  name: string;
  email: string;
  phone?: string | null;
  role: UserRole;
  status: UserStatus;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  createdAt: string;
  lastSignInAt: string | null;
  organizations: number;
};

export type AdminSession = {
  id: string;
  browser: string;
  os: string;
  ip: string | null;
  signedInAt: string;
  lastActiveAt: string;
};

export type OrganizationKind = 'hire' | 'campus';
export type MemberRole = 'owner' | 'admin' | 'member';

export type UserOrganization = { id: string; name: string; kind: OrganizationKind; role: MemberRole };

export type UserIdentity = { provider: string; email: string | null; linkedAt: string };

export type UserPasskey = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

/** One line of the audit log; `detail` is whatever the event recorded (text or an object). */
export type AuditEvent = {
  id: string;
  at: string;
  kind: string;
  userId: string | null;
  actorId: string | null;
  ip: string | null;
  userAgent: string | null;
  detail: unknown;
};

/** GET /admin/users/{id}: the account and everything hanging off it. */
export type AdminUserDetails = {
  user: AdminUser;
  sessions: AdminSession[];
  organizations: UserOrganization[];
  identities: UserIdentity[];
  passkeys: UserPasskey[];
  /** The 50 newest events about the account. */
  audit: AuditEvent[];
};

export type AdminOrganization = {
  id: string;
  name: string;
  slug: string;
  kind: OrganizationKind;
  /** null: no limit. */
  seatLimit: number | null;
  memberCount: number;
  myRole: MemberRole | null;
  createdAt: string;
};

/** A keyset page of a list (`?limit&cursor`): `nextCursor` is null at the end. */
export type Page<T> = { items: T[]; nextCursor: string | null };
