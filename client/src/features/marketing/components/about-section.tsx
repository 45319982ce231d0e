import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { about } from '../data/home-content';
import { SectionHeading } from './section-heading';

export function AboutSection() {
  return (
    <section aria-labelledby="about-title" className="bg-paper py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
          <SectionHeading id="about-title" eyebrow="Who we are" title={about.title} intro={about.intro} align="left" />
          <Link
            to={paths.about.getHref()}
            className="inline-flex shrink-0 items-center gap-1 self-start rounded font-semibold text-accent hover:text-accent-strong lg:self-end"
          >
            Learn More
            {/* Search engines and screen readers get a link text that says where it goes. */}
            <span className="sr-only"> about Talent Suite</span>
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </div>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {about.cards.map(({ title, text, icon: Icon }) => (
            <li key={title} className="rounded-2xl border border-ink-200 bg-ink-50 p-6">
              <span className="flex size-11 items-center justify-center rounded-lg bg-indigo-700 text-white">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-ink-900">{title}</h3>
              <p className="mt-2 text-ink-600">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
