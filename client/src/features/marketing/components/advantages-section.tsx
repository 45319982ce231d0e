import { advantages } from '../data/home-content';
import { SectionHeading } from './section-heading';

export function AdvantagesSection() {
  return (
    <section aria-labelledby="advantages-title" className="bg-paper py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="advantages-title"
          eyebrow="Why Talent Suite"
          title="Strategic Advantages"
          intro="Teams on Talent Suite report 40% lower recruitment cost and a 65% higher placement rate."
        />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {advantages.map(({ title, text, icon: Icon }) => (
            <li key={title} className="rounded-2xl border border-ink-200 p-6 transition-shadow hover:shadow-md">
              <span className="flex size-11 items-center justify-center rounded-lg bg-accent-soft">
                <Icon aria-hidden="true" className="size-5 text-accent" />
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
