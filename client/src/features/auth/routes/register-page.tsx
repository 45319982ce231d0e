import { UserPlus } from 'lucide-react';
import { ComingSoonPage } from '@/components/coming-soon-page';

/** Account screen placeholder; the real screen arrives with the account-screens issue. */
export function RegisterPage() {
  return <ComingSoonPage title="Create Your Account" eyebrow="Account" description="Join Talent Suite as a student, an institute or a hiring organisation." icon={UserPlus} />;
}
