import { ShieldCheck } from 'lucide-react';
import { ComingSoonPage } from '@/components/coming-soon-page';

/** Security placeholder (linked from the footer and, later, from the profile). */
export function SecurityPage() {
  return <ComingSoonPage title="Security" eyebrow="Trust" description="How we protect your account and data, and where you will manage two-factor sign-in." icon={ShieldCheck} />;
}
