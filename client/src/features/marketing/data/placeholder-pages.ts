import {
  Accessibility,
  Activity,
  Building2,
  Cookie,
  FileText,
  Info,
  Lightbulb,
  Library,
  Mail,
  Newspaper,
  ShieldCheck,
  BriefcaseBusiness,
  type LucideIcon,
} from 'lucide-react';

export type PlaceholderKey =
  | 'news'
  | 'jobs'
  | 'about'
  | 'contact'
  | 'solutions'
  | 'resources'
  | 'company'
  | 'privacyPolicy'
  | 'termsService'
  | 'cookiePolicy'
  | 'accessibility'
  | 'status';

export type PlaceholderPageContent = { title: string; eyebrow: string; description: string; icon: LucideIcon };

/** Pages whose real content is written elsewhere; each shows the Coming Soon panel. */
export const placeholderPages: Record<PlaceholderKey, PlaceholderPageContent> = {
  news: {
    title: 'News',
    eyebrow: 'Resources',
    description: 'Product updates, announcements and stories from across the Talent Suite ecosystem.',
    icon: Newspaper,
  },
  jobs: {
    title: 'Jobs',
    eyebrow: 'Company',
    description: 'Help us build the AI platforms that connect talent with opportunity.',
    icon: BriefcaseBusiness,
  },
  about: {
    title: 'About Us',
    eyebrow: 'Company',
    description: 'Our mission, our vision and the team behind Hire, Campus and Career.',
    icon: Info,
  },
  contact: {
    title: 'Contact Us',
    eyebrow: 'Company',
    description: 'Questions about pricing, partnerships or support? Our team is here to help.',
    icon: Mail,
  },
  solutions: {
    title: 'Solutions',
    eyebrow: 'Platforms',
    description: 'How recruiters, institutions and job seekers use the suite to reach better outcomes.',
    icon: Lightbulb,
  },
  resources: {
    title: 'Resources',
    eyebrow: 'Resources',
    description: 'Guides, research and best practice for AI-assisted hiring, learning and career growth.',
    icon: Library,
  },
  company: {
    title: 'Company',
    eyebrow: 'Company',
    description: 'Who we are, what we believe in and where we are headed.',
    icon: Building2,
  },
  privacyPolicy: {
    title: 'Privacy Policy',
    eyebrow: 'Legal',
    description: 'How Talent Suite collects, uses and protects your personal information.',
    icon: ShieldCheck,
  },
  termsService: {
    title: 'Terms of Service',
    eyebrow: 'Legal',
    description: 'The terms that govern your use of the Talent Suite platforms.',
    icon: FileText,
  },
  cookiePolicy: {
    title: 'Cookie Policy',
    eyebrow: 'Legal',
    description: 'Which cookies we use, why we use them and how you can control them.',
    icon: Cookie,
  },
  accessibility: {
    title: 'Accessibility',
    eyebrow: 'Our commitment',
    description: 'Our commitment to making every Talent Suite platform usable by everyone.',
    icon: Accessibility,
  },
  status: {
    title: 'System Status',
    eyebrow: 'Service health',
    description: 'Live availability of the Talent Suite platforms and services.',
    icon: Activity,
  },
};
