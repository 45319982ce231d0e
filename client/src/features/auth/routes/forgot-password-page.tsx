import { KeyRound } from 'lucide-react';
import { ComingSoonPage } from '@/components/coming-soon-page';

/** Account screen placeholder; the real screen arrives with the account-screens issue. */
export function ForgotPasswordPage() {
  return <ComingSoonPage title="Forgot Password" eyebrow="Account" description="Request a link to reset the password of your Talent Suite account." icon={KeyRound} />;
}
