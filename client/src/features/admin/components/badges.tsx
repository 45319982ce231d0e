import { badgeTone, type BadgeTone } from '@/components/badge-styles';
import type { UserStatus } from '../api/types';
import { labelOf, STATUS_LABELS } from '../utils/labels';

export function Badge({ tone, children }: { tone: BadgeTone; children: string }) {
  return <span className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${badgeTone[tone]}`}>{children}</span>;
}

const STATUS_TONES: Record<UserStatus, BadgeTone> = { active: 'success', pending: 'neutral', suspended: 'warning' };

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status as UserStatus] ?? 'neutral'}>{labelOf(STATUS_LABELS, status)}</Badge>;
}

/** Yes or No as a pill, for the verified and two-factor columns. */
export function YesNo({ value }: { value: boolean }) {
  return <Badge tone={value ? 'success' : 'neutral'}>{value ? 'Yes' : 'No'}</Badge>;
}
