import {
  ChartLine,
  Eye,
  Globe,
  Target,
  UserCheck,
  Users,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { paths } from '@/config/paths';
import type { PlatformId, PlatformTheme } from '@/config/platforms';

/** Every text of the home page (SPEC.md section 2 "Home page", section 9 pricing). */

export const hero = {
  eyebrow: 'One ecosystem for hiring, learning and careers',
  title: 'Next-Gen AI Talent Solutions',
  intro:
    'Hire, Campus and Career connect organisations, institutions and job seekers on one AI platform suite, from the first skill gap to the signed offer.',
  claims: [
    { value: '40%', label: 'lower recruitment cost' },
    { value: '65%', label: 'higher placement rate' },
  ],
  stats: [
    { value: '50K+', label: 'Companies Hiring' },
    { value: '200+', label: 'Universities Partnered' },
    { value: '1M+', label: 'Careers Launched' },
  ],
} as const;

export type InfoCard = { title: string; text: string; icon: LucideIcon };

export const about = {
  title: 'About Talent Suite',
  intro:
    'We build AI that makes talent decisions faster and fairer. Recruiters see the best candidates sooner, institutions prepare students for real roles, and job seekers get coached all the way to the offer.',
  cards: [
    {
      title: 'Mission',
      text: 'Connect every person with the work they are best suited for, using AI that is transparent and free of bias.',
      icon: Target,
    },
    {
      title: 'Vision',
      text: 'A world where skills, not networks, decide careers, and where hiring and education speak the same language.',
      icon: Eye,
    },
    {
      title: 'Team',
      text: 'Recruiters, educators and machine-learning engineers who have hired, taught and job-hunted themselves.',
      icon: Users,
    },
  ] satisfies InfoCard[],
} as const;

export type PlatformCard = {
  id: PlatformId;
  name: string;
  theme: PlatformTheme;
  tagline: string;
  href: string;
  features: readonly string[];
  cta: string;
};

export const platformCards: readonly PlatformCard[] = [
  {
    id: 'hire',
    name: 'Hire',
    theme: 'emerald',
    tagline: 'AI recruitment automation for enterprises, recruiters and organisations.',
    href: paths.platformShortcuts.hire.getHref(),
    features: ['AI Resume Parsing', 'Bias-Free Screening', 'Automated Interviews', 'ATS Integration'],
    cta: 'Optimize Hiring',
  },
  {
    id: 'campus',
    name: 'Campus',
    theme: 'blue',
    tagline: 'Student training, education and placement for institutions.',
    href: paths.platformShortcuts.campus.getHref(),
    features: ['Student Skill Tracking', 'Adaptive Learning Paths', 'Placement Analytics', 'Industry Benchmarking'],
    cta: 'Boost Placements',
  },
  {
    id: 'career',
    name: 'Career',
    theme: 'orange',
    tagline: 'AI career accelerator and coach for students, job seekers and professionals.',
    href: paths.platformShortcuts.career.getHref(),
    features: ['AI Resume Builder', 'Mock Interviews', 'Career Roadmapping', 'Company-Specific Prep'],
    cta: 'Get Job Ready',
  },
];

export const advantages: readonly InfoCard[] = [
  {
    title: 'Increased Efficiency',
    text: 'Automate screening, scheduling and reporting so people spend their time on decisions, not paperwork.',
    icon: Zap,
  },
  {
    title: 'Data-Driven Decisions',
    text: 'Skill analytics and benchmarks replace gut feeling with evidence at every step of the funnel.',
    icon: ChartLine,
  },
  {
    title: 'Personalized Experience',
    text: 'Learning paths, interview practice and job matches adapt to each person’s goals and progress.',
    icon: UserCheck,
  },
  {
    title: 'Global Connectivity',
    text: 'One network links employers, universities and candidates across regions and industries.',
    icon: Globe,
  },
];

export type Workflow = { title: string; theme: PlatformTheme; steps: readonly string[] };

export const workflows: readonly Workflow[] = [
  {
    title: 'For Recruiters',
    theme: 'emerald',
    steps: ['Upload Job Requirements', 'AI Candidate Matching', 'Automated Screening', 'Interview & Select'],
  },
  {
    title: 'For Institutions',
    theme: 'blue',
    steps: ['Student Skill Analysis', 'Personalized Learning', 'Industry Alignment', 'Placement Tracking'],
  },
  {
    title: 'For Students',
    theme: 'orange',
    steps: ['Profile Optimization', 'Skill Gap Analysis', 'AI Mock Interviews', 'Job Matching'],
  },
];

export type Testimonial = { text: string; role: string; platform: PlatformId };

export const testimonials: readonly Testimonial[] = [
  {
    text: 'Hire cut our time to shortlist from three weeks to four days. Bias-free screening surfaced strong candidates our old keyword filters used to throw away.',
    role: 'Head of Talent Acquisition, national logistics group',
    platform: 'hire',
  },
  {
    text: 'Campus shows us exactly which skills each cohort is missing before recruiters arrive. Our placement rate has risen two years in a row.',
    role: 'Director of Training and Placement, engineering university',
    platform: 'campus',
  },
  {
    text: 'The mock interviews felt like the real thing. Two weeks of practice and company-specific prep later, I had three offers to choose from.',
    role: 'Computer science graduate, now a backend engineer',
    platform: 'career',
  },
];

export type PricingPlan = {
  title: string;
  subtitle: string;
  /** A number as text, or the word Custom. */
  price: string;
  features: readonly string[];
  theme: PlatformTheme;
  href: string;
  cta: string;
  featured?: boolean;
};

export const pricingPlans: readonly PricingPlan[] = [
  {
    title: 'Enterprise Plan',
    subtitle: 'For hiring teams',
    price: 'Custom',
    features: ['Unlimited Hiring', 'Dedicated Support', 'Custom Workflows', 'API Access'],
    theme: 'emerald',
    href: paths.platformShortcuts.hire.getHref(),
    cta: 'Contact Sales',
  },
  {
    title: 'Institution Plan',
    subtitle: 'For universities',
    price: '2999',
    features: ['500 Students', 'Placement Analytics', 'Admin Dashboard', 'LMS Integration'],
    theme: 'blue',
    href: paths.platformShortcuts.campus.getHref(),
    cta: 'Get Started',
    featured: true,
  },
  {
    title: 'Pro Plan',
    subtitle: 'For job seekers',
    price: '99',
    features: ['Unlimited Interviews', 'Resume Reviews', 'Career Roadmap', 'Priority Support'],
    theme: 'orange',
    href: paths.platformShortcuts.career.getHref(),
    cta: 'Get Started',
  },
];
