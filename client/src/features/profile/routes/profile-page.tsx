import { UserRound } from 'lucide-react';
import { ComingSoonPage } from '@/components/coming-soon-page';

/** Profile placeholder; the real screen arrives with the account-screens issue. */
export function ProfilePage() {
  return <ComingSoonPage title="Profile" eyebrow="Account" description="Your personal information, social profiles, address, preferences and security settings." icon={UserRound} />;
}
