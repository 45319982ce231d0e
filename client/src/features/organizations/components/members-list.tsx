import { useId, useRef, useState } from 'react';
import { badgeTone } from '@/components/badge-styles';
import { buttonClass } from '@/components/button-styles';
import type { MemberRole, Membership } from '../api/types';
import { formatDate, ROLE_LABELS } from '../utils/labels';
import { canRemoveMember, roleChoices } from '../utils/permissions';

type MembersListProps = {
  members: Membership[];
  myRole: MemberRole | null;
  myUserId: string;
  /** The user ids whose change is on its way: those rows' controls wait. */
  pendingUserIds: ReadonlySet<string>;
  onChangeRole: (member: Membership, role: MemberRole) => void;
  onRemove: (member: Membership) => void;
  onLeave: () => void;
};

/** One row per member: name, email, since when, and the controls the caller's role allows. */
export function MembersList({ members, myRole, myUserId, pendingUserIds, onChangeRole, onRemove, onLeave }: MembersListProps) {
  return (
    <ul className="divide-y divide-ink-200 rounded-xl ring-1 ring-ink-200">
      {members.map((member) => (
        <MemberRow
          key={member.user.id}
          member={member}
          isSelf={member.user.id === myUserId}
          myRole={myRole}
          pending={pendingUserIds.has(member.user.id)}
          onChangeRole={(role) => onChangeRole(member, role)}
          onRemove={() => onRemove(member)}
          onLeave={onLeave}
        />
      ))}
    </ul>
  );
}

type MemberRowProps = {
  member: Membership;
  isSelf: boolean;
  myRole: MemberRole | null;
  pending: boolean;
  onChangeRole: (role: MemberRole) => void;
  onRemove: () => void;
  onLeave: () => void;
};

function MemberRow({ member, isSelf, myRole, pending, onChangeRole, onRemove, onLeave }: MemberRowProps) {
  const selectId = useId();
  const select = useRef<HTMLSelectElement>(null);
  // A role picked but not saved: the arrow keys move through the choices without granting
  // each in turn, and Save sends the one chosen.
  const [draft, setDraft] = useState<MemberRole | null>(null);
  // The role on its way, shown until the server's answer settles the member's role.
  const [sent, setSent] = useState<MemberRole | null>(null);
  const choices = roleChoices(myRole, member);
  const name = member.user.name || member.user.email;
  const shown = draft ?? (pending && sent ? sent : member.role);
  const save = () => {
    if (!draft) return;
    setSent(draft);
    setDraft(null);
    // The Save button goes away: the keyboard stays on this member's role.
    select.current?.focus();
    onChangeRole(draft);
  };
  return (
    <li data-testid="member" className="flex flex-wrap items-center gap-3 px-4 py-3">
      <div className="min-w-0 flex-1 basis-48">
        <p className="break-words font-semibold text-ink-900">
          {name}
          {isSelf ? <span className={`ml-2 rounded-full px-2 py-0.5 text-xs font-semibold ${badgeTone.success}`}>You</span> : null}
        </p>
        <p className="break-all text-sm text-ink-700">{member.user.email}</p>
        <p className="text-sm text-ink-600">Joined {formatDate(member.joinedAt)}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {choices.length > 0 ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              Role of {name}
            </label>
            <select
              ref={select}
              id={selectId}
              value={shown}
              onChange={(event) => {
                const role = event.target.value as MemberRole;
                setDraft(role === member.role ? null : role);
              }}
              className="rounded-lg border border-ink-300 bg-paper px-3 py-2 text-sm text-ink-900 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-focus disabled:opacity-60"
            >
              {/* The current role stays listed even when the caller could not give it. */}
              {(choices.includes(member.role) ? choices : [member.role, ...choices]).map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
            {draft ? (
              <button type="button" disabled={pending} onClick={save} aria-label={`Save role of ${name}`} className={buttonClass('primary', 'sm')}>
                Save role
              </button>
            ) : null}
          </>
        ) : (
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badgeTone.neutral}`}>{ROLE_LABELS[member.role]}</span>
        )}
        {canRemoveMember(myRole, member, isSelf) ? (
          <button type="button" disabled={pending} onClick={onRemove} aria-label={`Remove ${name}`} className={buttonClass('secondary', 'sm')}>
            Remove
          </button>
        ) : null}
        {isSelf ? (
          <button type="button" disabled={pending} onClick={onLeave} className={buttonClass('secondary', 'sm')}>
            Leave organization
          </button>
        ) : null}
      </div>
    </li>
  );
}
