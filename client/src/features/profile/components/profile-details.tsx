import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { badgeTone } from '@/components/badge-styles';
import { buttonClass } from '@/components/button-styles';
import { paths } from '@/config/paths';
import type { ProfileUser } from '../api/profile-user';
import { ADDRESS_KEYS, SOCIAL_KEYS } from '../utils/profile-form';
import { DetailRow, SectionCard } from '@/components/section-card';

export const SOCIAL_LABELS = { github: 'GitHub', linkedin: 'LinkedIn', instagram: 'Instagram', twitter: 'Twitter', facebook: 'Facebook' } as const;
export const ADDRESS_LABELS = { street: 'Street', city: 'City', state: 'State', zip: 'ZIP Code', country: 'Country' } as const;

const onOff = (on: boolean) => (on ? 'On' : 'Off');

const link = (href: string | null) =>
  href ? (
    <a href={href} target="_blank" rel="noopener noreferrer" className="text-accent underline-offset-2 hover:underline">
      {href}
    </a>
  ) : null;

/** Personal Information in view mode. */
export function PersonalDetails({ user }: { user: ProfileUser }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      <DetailRow label="Name" value={user.name} />
      <DetailRow label="Email" value={user.email} />
      <DetailRow label="Phone" value={user.phone} />
      <DetailRow label="Date of Birth" value={user.born} />
      <DetailRow label="Website" value={link(user.website)} />
      <DetailRow label="Bio" value={user.bio} className="sm:col-span-2" />
    </dl>
  );
}

export function SocialDetails({ user }: { user: ProfileUser }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {SOCIAL_KEYS.map((key) => (
        <DetailRow key={key} label={SOCIAL_LABELS[key]} value={user.social[key]} />
      ))}
    </dl>
  );
}

export function AddressDetails({ user }: { user: ProfileUser }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {ADDRESS_KEYS.map((key) => (
        <DetailRow key={key} label={ADDRESS_LABELS[key]} value={user.address[key]} />
      ))}
    </dl>
  );
}

export function PreferenceDetails({ user }: { user: ProfileUser }) {
  const { notifications, theme } = user.preferences;
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      <DetailRow label="Email notifications" value={onOff(notifications.email)} />
      <DetailRow label="SMS notifications" value={onOff(notifications.sms)} />
      <DetailRow label="Push notifications" value={onOff(notifications.push)} />
      <DetailRow label="Theme" value={theme === 'light' ? 'Light' : 'Dark'} />
    </dl>
  );
}

/** The Security section: a two-factor badge and the Manage Security link. */
export function SecuritySection({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  return (
    <SectionCard title="Security">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <ShieldCheck aria-hidden="true" className="size-6 text-accent" />
          <span className="font-medium text-ink-800">Two-factor authentication</span>
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badgeTone[twoFactorEnabled ? 'success' : 'neutral']}`}
          >
            {twoFactorEnabled ? 'Enabled' : 'Disabled'}
          </span>
        </div>
        <Link to={paths.security.getHref()} className={buttonClass('secondary', 'sm')}>
          Manage Security
        </Link>
      </div>
    </SectionCard>
  );
}
