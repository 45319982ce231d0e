import { Mail } from 'lucide-react';
import type { FormEvent } from 'react';

/** SPEC.md: an email input and a subscribe button that makes no call and shows no validation. */
export function NewsletterSection() {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => event.preventDefault();
  return (
    <section aria-labelledby="newsletter-title" className="on-dark bg-indigo-800">
      <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-14 sm:px-6 lg:flex-row lg:items-center lg:justify-between lg:px-8">
        <div className="max-w-xl">
          <h2 id="newsletter-title" className="flex items-center gap-3 text-2xl font-bold tracking-tight text-white sm:text-3xl">
            <Mail aria-hidden="true" className="size-7 shrink-0" />
            Subscribe to our newsletter
          </h2>
          <p className="mt-3 text-indigo-100">Monthly insights on AI hiring, campus placement and career growth. No spam.</p>
        </div>
        <form method="post" noValidate onSubmit={onSubmit} className="flex w-full flex-col gap-3 sm:flex-row lg:max-w-md">
          <label htmlFor="newsletter-email" className="sr-only">
            Email address
          </label>
          <input
            id="newsletter-email"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="Enter your email"
            className="min-w-0 flex-1 rounded-lg border-0 bg-white px-4 py-3 text-slate-900 placeholder:text-slate-500"
          />
          <button type="submit" className="rounded-lg bg-slate-950 px-6 py-3 font-semibold text-white hover:bg-slate-800">
            Subscribe
          </button>
        </form>
      </div>
    </section>
  );
}
