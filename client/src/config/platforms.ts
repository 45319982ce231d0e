import { paths } from './paths';

export type PlatformId = 'hire' | 'campus' | 'career';
export type PlatformTheme = 'emerald' | 'blue' | 'orange';

export type Platform = {
  id: PlatformId;
  name: string;
  path: string;
  theme: PlatformTheme;
  description: string;
  audience: string;
};

/** The three platforms of the suite, in the order the spec lists them. */
export const platforms: readonly Platform[] = [
  {
    id: 'hire',
    name: 'Hire',
    path: paths.platforms.hire.getHref(),
    theme: 'emerald',
    description: 'AI recruitment automation for enterprises, recruiters and organisations.',
    audience: 'For organisations',
  },
  {
    id: 'campus',
    name: 'Campus',
    path: paths.platforms.campus.getHref(),
    theme: 'blue',
    description: 'Student training, education and placement for institutions.',
    audience: 'For institutes',
  },
  {
    id: 'career',
    name: 'Career',
    path: paths.platforms.career.getHref(),
    theme: 'orange',
    description: 'AI career accelerator and coach for students, job seekers and professionals.',
    audience: 'For students',
  },
];
