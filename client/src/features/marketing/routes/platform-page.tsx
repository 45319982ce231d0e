import { BriefcaseBusiness, ExternalLink, GraduationCap, Rocket } from 'lucide-react';
import { ComingSoonPage } from '@/components/coming-soon-page';
import { platforms, type PlatformId } from '@/config/platforms';
import { themeClasses } from '@/config/themes';
import { useConfig } from '@/lib/config-context';

const icons = { hire: BriefcaseBusiness, campus: GraduationCap, career: Rocket } as const;

/** Hire Platform, Campus Platform and Career Platform: themed, with a link to the live site. */
export function PlatformPage({ platform: id }: { platform: PlatformId }) {
  const { platformUrls } = useConfig();
  const platform = platforms.find((candidate) => candidate.id === id);
  if (!platform) return null;
  const theme = themeClasses[platform.theme];
  return (
    <ComingSoonPage
      title={`${platform.name} Platform`}
      eyebrow={platform.audience}
      description={platform.description}
      icon={icons[id]}
      theme={theme}
      heroExtra={
        <a
          href={platformUrls[id]}
          target="_blank"
          rel="noopener noreferrer"
          className={`mt-6 inline-flex items-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold text-white ${theme.solid} ${theme.solidHover}`}
        >
          Visit the {platform.name} site
          <ExternalLink aria-hidden="true" className="size-4" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      }
    />
  );
}
