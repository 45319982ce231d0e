import { Check } from 'lucide-react';
import { Link } from 'react-router-dom';
import { themeClasses } from '@/config/themes';
import { pricingPlans, type PricingPlan } from '../data/home-content';
import { SectionHeading } from './section-heading';

function Price({ plan }: { plan: PricingPlan }) {
  if (plan.price === 'Custom') return <span className="text-4xl font-extrabold tracking-tight text-ink-900">Custom</span>;
  return (
    <span className="text-ink-900">
      <span className="text-4xl font-extrabold tracking-tight">${plan.price}</span>
      <span className="text-base font-medium text-ink-600">/mo</span>
    </span>
  );
}

export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-16 bg-ink-50 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="pricing-title"
          eyebrow="Pricing"
          title="Flexible Pricing"
          intro="Monthly plans for hiring teams, universities and job seekers. Start small and scale when you are ready."
        />
        <ul className="mt-12 grid gap-6 lg:grid-cols-3">
          {pricingPlans.map((plan) => {
            const theme = themeClasses[plan.theme];
            return (
              <li
                key={plan.title}
                className={`relative flex flex-col rounded-2xl bg-paper p-6 shadow-sm sm:p-8 ${plan.featured ? 'ring-2 ring-blue-700 dark:ring-blue-400' : 'ring-1 ring-ink-200'}`}
              >
                {plan.featured ? (
                  <p className="absolute -top-3 left-6 rounded-full bg-blue-700 px-3 py-1 text-xs font-semibold text-white">Most popular</p>
                ) : null}
                <h3 className={`text-xl font-bold ${theme.text}`}>{plan.title}</h3>
                <p className="mt-1 text-ink-600">{plan.subtitle}</p>
                <p className="mt-6">
                  <Price plan={plan} />
                </p>
                <ul className="mt-6 flex-1 space-y-3">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex items-center gap-2 text-ink-800">
                      <Check aria-hidden="true" className={`size-5 shrink-0 ${theme.text}`} />
                      {feature}
                    </li>
                  ))}
                </ul>
                <Link
                  to={plan.href}
                  aria-label={`${plan.cta}: ${plan.title}`}
                  className={`mt-8 inline-flex items-center justify-center rounded-lg px-5 py-3 font-semibold text-white ${theme.solid} ${theme.solidHover}`}
                >
                  {plan.cta}
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
