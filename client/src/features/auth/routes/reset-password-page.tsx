import { LockKeyhole } from 'lucide-react';
import { ComingSoonPage } from '@/components/coming-soon-page';

/** Account screen placeholder; the real screen arrives with the account-screens issue. */
export function ResetPasswordPage() {
  return <ComingSoonPage title="Reset Password" eyebrow="Account" description="Choose a new password for your Talent Suite account." icon={LockKeyhole} />;
}
