import { ArrowRight, TrendingDown, TrendingUp } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { PlatformIcon } from '@/components/platform-icon';
import { paths } from '@/config/paths';
import { platforms } from '@/config/platforms';
import { hero } from '../data/home-content';

const platformChip = {
  emerald: 'bg-emerald-400/15 text-emerald-200 ring-emerald-300/30',
  blue: 'bg-blue-400/15 text-blue-200 ring-blue-300/30',
  orange: 'bg-orange-400/15 text-orange-200 ring-orange-300/30',
} as const;

export function HeroSection() {
  return (
    <section aria-labelledby="hero-title" className="on-dark relative overflow-hidden bg-slate-950 text-white">
      <div aria-hidden="true" className="absolute inset-0 bg-[radial-gradient(60rem_30rem_at_10%_-10%,rgba(99,102,241,0.45),transparent),radial-gradient(40rem_25rem_at_100%_100%,rgba(16,185,129,0.18),transparent)]" />
      <div className="relative mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-12 lg:items-center lg:px-8">
        <div className="lg:col-span-7">
          <p className="inline-flex rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-indigo-100 ring-1 ring-white/20">{hero.eyebrow}</p>
          <h1 id="hero-title" className="mt-6 text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl">
            {hero.title}
          </h1>
          <p className="mt-6 max-w-2xl text-lg leading-8 text-slate-200">{hero.intro}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to={paths.auth.register.getHref()} className={buttonClass('light', 'lg')}>
              Get Started
              <ArrowRight aria-hidden="true" className="size-5" />
            </Link>
            <a href="#platforms" className="inline-flex items-center justify-center gap-2 rounded-lg px-6 py-3 text-base font-semibold text-white ring-1 ring-white/30 hover:bg-white/10">
              Explore Platforms
            </a>
          </div>
          <dl className="mt-12 grid max-w-xl grid-cols-3 gap-4 border-t border-white/15 pt-8">
            {hero.stats.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse gap-1">
                <dt className="text-sm text-slate-300">{stat.label}</dt>
                <dd className="text-2xl font-bold text-white sm:text-3xl">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>

        <div className="lg:col-span-5">
          <div className="rounded-2xl bg-white/5 p-5 ring-1 ring-white/15 backdrop-blur sm:p-6">
            <p className="text-sm font-semibold text-slate-200">Three connected platforms</p>
            <ul className="mt-4 space-y-3">
              {platforms.map((platform) => (
                <li key={platform.id} className="flex items-center gap-3 rounded-xl bg-slate-900/70 p-3 ring-1 ring-white/10">
                  <span className={`flex size-10 shrink-0 items-center justify-center rounded-lg ring-1 ${platformChip[platform.theme]}`}>
                    <PlatformIcon id={platform.id} className="size-5" />
                  </span>
                  <span className="min-w-0">
                    <span className="block font-semibold text-white">{platform.name}</span>
                    <span className="block truncate text-sm text-slate-300">{platform.audience}</span>
                  </span>
                </li>
              ))}
            </ul>
            <div className="mt-5 grid grid-cols-2 gap-3">
              {hero.claims.map((claim, index) => {
                const Icon = index === 0 ? TrendingDown : TrendingUp;
                return (
                  <p key={claim.label} className="rounded-xl bg-indigo-500/15 p-4 ring-1 ring-indigo-300/25">
                    <Icon aria-hidden="true" className="size-5 text-indigo-200" />
                    <span className="mt-2 block text-2xl font-bold text-white">{claim.value}</span>
                    <span className="block text-sm text-indigo-100">{claim.label}</span>
                  </p>
                );
              })}
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
