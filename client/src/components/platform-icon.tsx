import { BriefcaseBusiness, GraduationCap, Rocket, type LucideProps } from 'lucide-react';
import type { PlatformId } from '@/config/platforms';

const icons = { hire: BriefcaseBusiness, campus: GraduationCap, career: Rocket } as const;

export function PlatformIcon({ id, ...props }: { id: PlatformId } & LucideProps) {
  const Icon = icons[id];
  return <Icon aria-hidden="true" {...props} />;
}
