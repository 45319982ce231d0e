import { LogIn } from 'lucide-react';
import { ComingSoonPage } from '@/components/coming-soon-page';

/** Account screen placeholder; the real screen arrives with the account-screens issue. */
export function LoginPage() {
  return <ComingSoonPage title="Sign In" eyebrow="Account" description="Sign in to your Talent Suite account to reach your platform dashboard." icon={LogIn} />;
}
