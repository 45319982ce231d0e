import { groupHref, paths } from '@/config/paths';

export type NavItem = { label: string; href: string; description: string };
export type NavGroup = { id: string; label: string; href: string; summary: string; items: readonly NavItem[] };

/** Header groups after Platforms. Each top-level link is `/{lowercased label}`. */
export const navGroups: readonly NavGroup[] = [
  {
    id: 'resources',
    label: 'Resources',
    href: groupHref('Resources'),
    summary: 'Guides, research and news from the Talent Suite team.',
    items: [
      { label: 'News', href: paths.news.getHref(), description: 'Product updates and announcements' },
      { label: 'Solutions', href: paths.solutions.getHref(), description: 'How teams put the suite to work' },
    ],
  },
  {
    id: 'company',
    label: 'Company',
    href: groupHref('Company'),
    summary: 'Who we are and how to reach us.',
    items: [
      { label: 'About Us', href: paths.about.getHref(), description: 'Our mission, vision and team' },
      { label: 'Jobs', href: paths.jobs.getHref(), description: 'Open roles at Talent Suite' },
      { label: 'Contact Us', href: paths.contact.getHref(), description: 'Talk to sales or support' },
    ],
  },
];
