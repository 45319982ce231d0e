/** `path` with the query values that are set, in the order given. */
function withQuery(path: string, query: Record<string, string | undefined>): string {
  const entries = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '');
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries).toString()}`;
}

/**
 * Every client route in one place (SPEC.md section 2). Components link through these
 * entries instead of writing path strings by hand.
 */
export const paths = {
  home: { path: '/', getHref: () => '/' },

  auth: {
    /** `redirect`: where a sign-in ends (checked by the login page, SPEC.md section 2). */
    login: { path: '/login', getHref: (query: { redirect?: string } = {}) => withQuery('/login', query) },
    /** `email` prefills the form; `next` is a same-site path to open once the email is verified. */
    register: { path: '/register', getHref: (query: { email?: string; next?: string } = {}) => withQuery('/register', query) },
    forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
    resetPassword: {
      path: '/reset-password/:token',
      getHref: (token: string) => `/reset-password/${encodeURIComponent(token)}`,
    },
    resetPasswordWithoutToken: { path: '/reset-password', getHref: () => '/reset-password' },
    verifyOtp: { path: '/verify-otp', getHref: () => '/verify-otp' },
    magicLink: { path: '/magic-link/:token', getHref: (token: string) => `/magic-link/${encodeURIComponent(token)}` },
  },

  profile: { path: '/profile', getHref: () => '/profile' },
  security: { path: '/security', getHref: () => '/security' },

  organizations: { path: '/organizations', getHref: () => '/organizations' },
  organization: { path: '/organizations/:id', getHref: (id: string) => `/organizations/${encodeURIComponent(id)}` },
  invitation: { path: '/invitations/:token', getHref: (token: string) => `/invitations/${encodeURIComponent(token)}` },

  /** The admin console; its own routes are in admin-paths.ts, out of the home page's code. */
  admin: { path: '/admin/*', getHref: () => '/admin' },

  news: { path: '/news', getHref: () => '/news' },
  newsItem: { path: '/news/:id', getHref: (id: string) => `/news/${encodeURIComponent(id)}` },
  jobs: { path: '/jobs', getHref: () => '/jobs' },
  about: { path: '/about', getHref: () => '/about' },
  contact: { path: '/contact', getHref: () => '/contact' },
  solutions: { path: '/solutions', getHref: () => '/solutions' },
  resources: { path: '/resources', getHref: () => '/resources' },
  company: { path: '/company', getHref: () => '/company' },

  platforms: {
    hire: { path: '/platforms/hire', getHref: () => '/platforms/hire' },
    campus: { path: '/platforms/campus', getHref: () => '/platforms/campus' },
    career: { path: '/platforms/career', getHref: () => '/platforms/career' },
  },

  /** Short platform links used by the home page cards and pricing plans. */
  platformShortcuts: {
    hire: { path: '/hire', getHref: () => '/hire' },
    campus: { path: '/campus', getHref: () => '/campus' },
    career: { path: '/career', getHref: () => '/career' },
  },

  legal: {
    privacyPolicy: { path: '/privacy-policy', getHref: () => '/privacy-policy' },
    termsService: { path: '/terms-service', getHref: () => '/terms-service' },
    cookiePolicy: { path: '/cookie-policy', getHref: () => '/cookie-policy' },
  },

  accessibility: { path: '/accessibility', getHref: () => '/accessibility' },
  status: { path: '/status', getHref: () => '/status' },
} as const;

/** Header menu groups link their top level to `/{lowercased label}` (SPEC.md section 2). */
export const groupHref = (label: string): string => `/${label.toLowerCase()}`;
