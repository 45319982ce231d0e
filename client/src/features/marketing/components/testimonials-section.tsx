import { Quote } from 'lucide-react';
import { platforms } from '@/config/platforms';
import { themeClasses } from '@/config/themes';
import { testimonials } from '../data/home-content';
import { SectionHeading } from './section-heading';

export function TestimonialsSection() {
  return (
    <section aria-labelledby="testimonials-title" className="bg-paper py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="testimonials-title" eyebrow="Customer stories" title="Trusted by Innovators" />
        <ul className="mt-12 grid gap-6 lg:grid-cols-3">
          {testimonials.map((testimonial) => {
            const platform = platforms.find((candidate) => candidate.id === testimonial.platform);
            const theme = themeClasses[platform?.theme ?? 'blue'];
            return (
              <li key={testimonial.role} className="flex">
                <figure className="flex flex-col rounded-2xl border border-ink-200 bg-ink-50 p-6 sm:p-8">
                  <Quote aria-hidden="true" className="size-8 text-indigo-300" />
                  <blockquote className="mt-4 flex-1 text-lg leading-8 text-ink-800">
                    <p>{testimonial.text}</p>
                  </blockquote>
                  <figcaption className="mt-6 flex flex-wrap items-center justify-between gap-3 border-t border-ink-200 pt-4">
                    <span className="text-sm font-medium text-ink-700">{testimonial.role}</span>
                    <span className={`rounded-full px-3 py-1 text-xs font-semibold ${theme.soft} ${theme.softText}`}>{platform?.name}</span>
                  </figcaption>
                </figure>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
