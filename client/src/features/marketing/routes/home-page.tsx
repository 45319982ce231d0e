import { useConfig } from '@/lib/config-context';
import { usePageMeta } from '@/lib/use-page-meta';
import { AboutSection } from '../components/about-section';
import { AdvantagesSection } from '../components/advantages-section';
import { HeroSection } from '../components/hero-section';
import { NewsletterSection } from '../components/newsletter-section';
import { PlatformsSection } from '../components/platforms-section';
import { PricingSection } from '../components/pricing-section';
import { TestimonialsSection } from '../components/testimonials-section';
import { WorkflowsSection } from '../components/workflows-section';

export const HOME_DESCRIPTION =
  'Next-Gen AI Talent Solutions: Hire for recruiters, Campus for institutions and Career for job seekers, on one connected AI platform suite.';

/** The home page: every section of SPEC.md section 2 in order. */
export function HomePage() {
  const { appName } = useConfig();
  usePageMeta(appName, HOME_DESCRIPTION);
  return (
    <>
      <HeroSection />
      <AboutSection />
      <PlatformsSection />
      <AdvantagesSection />
      <WorkflowsSection />
      <TestimonialsSection />
      <PricingSection />
      <NewsletterSection />
    </>
  );
}
