import { ExternalLink, Sparkles } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useConfig } from '@/lib/config-context';

type FooterLink = { label: string; href: string };

const companyLinks: readonly FooterLink[] = [
  { label: 'About Us', href: paths.about.getHref() },
  { label: 'News', href: paths.news.getHref() },
  { label: 'Jobs', href: paths.jobs.getHref() },
];

const legalLinks: readonly FooterLink[] = [
  { label: 'Privacy Policy', href: paths.legal.privacyPolicy.getHref() },
  { label: 'Terms of Service', href: paths.legal.termsService.getHref() },
  { label: 'Cookie Policy', href: paths.legal.cookiePolicy.getHref() },
];

const bottomLinks: readonly FooterLink[] = [
  { label: 'Accessibility', href: paths.accessibility.getHref() },
  { label: 'Security', href: paths.security.getHref() },
  { label: 'Status', href: paths.status.getHref() },
];

// Each network by its own mark: `#mark-{id}`, a symbol that index.html holds (so the marks
// weigh nothing in the home page's script budget); the link names it for assistive technology.
const socialLinks: readonly (FooterLink & { mark: string })[] = [
  { label: 'Twitter', href: 'https://twitter.com/talentsuite', mark: 'mark-twitter' },
  { label: 'LinkedIn', href: 'https://www.linkedin.com/company/talentsuite', mark: 'mark-linkedin' },
  { label: 'GitHub', href: 'https://github.com/talentsuite', mark: 'mark-github' },
  { label: 'YouTube', href: 'https://www.youtube.com/@talentsuite', mark: 'mark-youtube' },
  { label: 'Instagram', href: 'https://www.instagram.com/talentsuite', mark: 'mark-instagram' },
];

const headingClass = 'text-sm font-semibold uppercase tracking-wide text-white';
const linkClass = 'rounded text-sm text-slate-300 hover:text-white';

function LinkColumn({ title, links }: { title: string; links: readonly FooterLink[] }) {
  return (
    <div>
      <h2 className={headingClass}>{title}</h2>
      <ul className="mt-4 space-y-3">
        {links.map((link) => (
          <li key={link.href}>
            <Link to={link.href} className={linkClass}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  const { appName, platformUrls } = useConfig();
  const year = new Date().getFullYear();
  const platformLinks: readonly FooterLink[] = [
    { label: 'Student', href: platformUrls.career },
    { label: 'Institute', href: platformUrls.campus },
    { label: 'Organization', href: platformUrls.hire },
  ];

  // Dark in both themes; in the dark one a rule parts it from a page of the same colour.
  return (
    <footer className="on-dark bg-slate-900 text-slate-300 dark:border-t dark:border-slate-700">
      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
        <div className="grid gap-10 sm:grid-cols-2 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <Link to={paths.home.getHref()} className="inline-flex items-center gap-2 rounded text-lg font-bold text-white">
              <span className="flex size-9 items-center justify-center rounded-lg bg-indigo-600">
                <Sparkles aria-hidden="true" className="size-5" />
              </span>
              {appName}
            </Link>
            <p className="mt-4 max-w-sm text-sm leading-6 text-slate-300">
              One ecosystem of AI platforms for hiring teams, institutions and job seekers: Hire, Campus and Career.
            </p>
            <ul className="mt-6 flex flex-wrap gap-2" aria-label="Social media">
              {socialLinks.map(({ label, href, mark }) => (
                <li key={label}>
                  <a
                    href={href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${label} (opens in a new tab)`}
                    title={label}
                    className="flex size-10 items-center justify-center rounded-lg bg-slate-800 text-slate-200 hover:bg-slate-700 hover:text-white"
                  >
                    <svg aria-hidden="true" fill="currentColor" className="size-5">
                      <use href={`#${mark}`} />
                    </svg>
                  </a>
                </li>
              ))}
            </ul>
          </div>

          <div>
            <h2 className={headingClass}>Platforms</h2>
            <ul className="mt-4 space-y-3">
              {platformLinks.map((link) => (
                <li key={link.label}>
                  <a href={link.href} target="_blank" rel="noopener noreferrer" className={`${linkClass} inline-flex items-center gap-1`}>
                    {link.label}
                    <ExternalLink aria-hidden="true" className="size-3.5" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <LinkColumn title="Company" links={companyLinks} />
          <LinkColumn title="Legal" links={legalLinks} />
        </div>

        <div className="mt-12 flex flex-col gap-4 border-t border-slate-800 pt-8 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-400">
            © {year} {appName}. All rights reserved.
          </p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {bottomLinks.map((link) => (
              <li key={link.href}>
                <Link to={link.href} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
