import { MailCheck } from 'lucide-react';
import { ComingSoonPage } from '@/components/coming-soon-page';

/** Account screen placeholder; the real screen arrives with the account-screens issue. */
export function VerifyOtpPage() {
  return <ComingSoonPage title="Verify Your Email" eyebrow="Account" description="Enter the one-time code we sent to your email address." icon={MailCheck} />;
}
