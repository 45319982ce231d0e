import { ArrowRight, CircleCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PlatformIcon } from '@/components/platform-icon';
import { themeClasses } from '@/config/themes';
import { platformCards } from '../data/home-content';
import { SectionHeading } from './section-heading';

export function PlatformsSection() {
  return (
    <section id="platforms" aria-labelledby="platforms-title" className="scroll-mt-16 bg-ink-50 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="platforms-title"
          eyebrow="The suite"
          title="Integrated AI Platforms"
          intro="Three platforms that share one talent graph, so every hire, course and interview makes the others smarter."
        />
        <ul className="mt-12 grid gap-6 lg:grid-cols-3">
          {platformCards.map((card) => {
            const theme = themeClasses[card.theme];
            return (
              <li key={card.id} className={`flex flex-col rounded-2xl border-t-4 bg-paper p-6 shadow-sm ring-1 ring-ink-200 sm:p-8 ${theme.topBorder}`}>
                <span className={`flex size-12 items-center justify-center rounded-xl ${theme.soft}`}>
                  <PlatformIcon id={card.id} className={`size-6 ${theme.text}`} />
                </span>
                <h3 className={`mt-5 text-2xl font-bold ${theme.text}`}>{card.name}</h3>
                <p className="mt-2 text-ink-600">{card.tagline}</p>
                <ul className="mt-6 flex-1 space-y-3">
                  {card.features.map((feature) => (
                    <li key={feature} className="flex items-center gap-2 text-ink-800">
                      <CircleCheck aria-hidden="true" className={`size-5 shrink-0 ${theme.text}`} />
                      {feature}
                    </li>
                  ))}
                </ul>
                <Link
                  to={card.href}
                  className={`mt-8 inline-flex items-center justify-center gap-2 rounded-lg px-5 py-3 font-semibold text-white ${theme.solid} ${theme.solidHover}`}
                >
                  {card.cta}
                  <ArrowRight aria-hidden="true" className="size-4" />
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
