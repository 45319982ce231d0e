import type { ReactNode } from 'react';
import { useConfig } from '@/lib/config-context';
import { usePageMeta } from '@/lib/use-page-meta';

const PLATFORM_TAGS = ['Career', 'Campus', 'Hire'] as const;

type AuthLayoutProps = {
  title: string;
  subtitle: string;
  /** Document description; defaults to the subtitle. */
  description?: string;
  children: ReactNode;
};

/** The account screens' split layout: the brand panel with the platform tags, then the form. */
export function AuthLayout({ title, subtitle, description, children }: AuthLayoutProps) {
  const { appName } = useConfig();
  usePageMeta(title, description ?? subtitle);
  return (
    <div className="flex-1 bg-ink-50 px-4 py-8 sm:py-14">
      <div className="mx-auto grid max-w-5xl overflow-hidden rounded-2xl bg-paper shadow-lg ring-1 ring-ink-200 lg:grid-cols-[5fr_6fr]">
        <aside className="flex flex-col justify-between gap-6 bg-gradient-to-br from-indigo-700 via-indigo-800 to-slate-900 p-6 text-white sm:p-10">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-indigo-100">{appName}</p>
            <p className="mt-3 text-2xl font-bold leading-tight sm:text-3xl">One account for every step of your talent journey</p>
            <p className="mt-3 hidden text-indigo-100 sm:block">
              Train, place and hire with AI: Career for students and professionals, Campus for institutes, Hire for organisations.
            </p>
          </div>
          <ul aria-label="Platforms" className="flex flex-wrap gap-2">
            {PLATFORM_TAGS.map((tag) => (
              <li key={tag} className="rounded-full bg-white/15 px-3 py-1 text-sm font-semibold ring-1 ring-white/40">
                {tag}
              </li>
            ))}
          </ul>
        </aside>
        <section className="p-6 sm:p-10" aria-labelledby="auth-title">
          <h1 id="auth-title" className="text-2xl font-bold text-ink-900 sm:text-3xl">
            {title}
          </h1>
          <p className="mt-2 text-ink-600">{subtitle}</p>
          <div className="mt-6">{children}</div>
        </section>
      </div>
    </div>
  );
}
