/** API.md "Organizations": the objects the calls answer with (camelCase JSON). */
export type OrganizationKind = 'hire' | 'campus';
export type MemberRole = 'owner' | 'admin' | 'member';
/** The roles an invitation can give: owners (and site admins) may invite owners too. */
export type InviteRole = MemberRole;

export type Organization = {
  id: string;
  name: string;
  slug: string;
  kind: OrganizationKind;
  /** null: no limit (only site admins set one). */
  seatLimit: number | null;
  memberCount: number;
  /** The caller's role in it; null for a site admin who is not a member. */
  myRole: MemberRole | null;
  createdAt: string;
};

export type Membership = {
  user: { id: string; name: string; email: string };
  role: MemberRole;
  joinedAt: string;
};

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export type Invitation = {
  id: string;
  email: string;
  role: InviteRole;
  status: InvitationStatus;
  expiresAt: string;
  invitedBy: { id: string; name: string };
  createdAt: string;
};

/** What the invitation link's page shows: the invitation and the organization it is for. */
export type InvitationDetails = Invitation & { organization: { name: string; kind: OrganizationKind } };

export type SkipReason = 'member' | 'invited' | 'invalid';
export type SkippedInvitation = { email: string; reason: SkipReason };

/** A keyset page of a list (`?limit&cursor`): `nextCursor` is null at the end. */
export type Page<T> = { items: T[]; nextCursor: string | null };
