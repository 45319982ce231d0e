// The public pages of the site, with the h1 each shows; routes.test.mjs checks each one's
// basics and theme.test.mjs its accessibility in both themes.
export const APP = 'Talent Suite';

/** Marketing and placeholder pages (and /security, which asks a visitor to sign in). */
export const publicRoutes = [
  { path: '/', h1: 'Next-Gen AI Talent Solutions', title: APP },
  { path: '/news', h1: 'News' },
  { path: '/jobs', h1: 'Jobs' },
  { path: '/about', h1: 'About Us' },
  { path: '/contact', h1: 'Contact Us' },
  { path: '/solutions', h1: 'Solutions' },
  { path: '/resources', h1: 'Resources' },
  { path: '/company', h1: 'Company' },
  { path: '/platforms/hire', h1: 'Hire Platform' },
  { path: '/platforms/campus', h1: 'Campus Platform' },
  { path: '/platforms/career', h1: 'Career Platform' },
  { path: '/privacy-policy', h1: 'Privacy Policy' },
  { path: '/terms-service', h1: 'Terms of Service' },
  { path: '/cookie-policy', h1: 'Cookie Policy' },
  { path: '/accessibility', h1: 'Accessibility' },
  { path: '/security', h1: 'Security', signedOutText: "Please sign in to manage your account's security." },
  { path: '/status', h1: 'System Status' },
];

/** The account screens a visitor reaches (verify OTP needs state and redirects). */
export const accountScreens = [
  { path: '/login', h1: 'Sign In' },
  { path: '/register', h1: 'Create Your Account' },
  { path: '/forgot-password', h1: 'Forgot Password' },
  { path: '/reset-password/some-token', h1: 'Reset Password' },
  { path: '/profile', h1: 'Profile' },
];
