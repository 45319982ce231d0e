import { siGithub } from 'simple-icons';
import type { IdentityProvider } from '@/lib/sign-in-providers';
import { LINKEDIN_IN, LINKEDIN_SQUARE } from './brand-paths';

type MarkProps = { className?: string };

/** The Google "G" mark, drawn inline so no third-party script or image is loaded. */
export function GoogleMark({ className = 'size-5' }: MarkProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className={className}>
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

/** GitHub's Invertocat from simple-icons, in the text colour so it reads in both themes. */
function GitHubMark({ className = 'size-5' }: MarkProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" fill="currentColor" className={className}>
      <path d={siGithub.path} />
    </svg>
  );
}

/** LinkedIn's "in" mark in its blue (drawn in brand-paths.ts). */
function LinkedInMark({ className = 'size-5' }: MarkProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className}>
      <path fill="#0A66C2" d={LINKEDIN_SQUARE} />
      <path fill="#FFFFFF" d={LINKEDIN_IN} />
    </svg>
  );
}

// Microsoft's logo as published: four squares of 10 with a gap of 1, on a grid of 23. Drawn
// here: simple-icons no longer ships Microsoft's marks.
const MICROSOFT_SQUARES = [
  { x: 1, y: 1, fill: '#F25022' },
  { x: 12, y: 1, fill: '#7FBA00' },
  { x: 1, y: 12, fill: '#00A4EF' },
  { x: 12, y: 12, fill: '#FFB900' },
] as const;

/** Microsoft's four coloured squares. */
function MicrosoftMark({ className = 'size-5' }: MarkProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 23 23" className={className}>
      {MICROSOFT_SQUARES.map(({ x, y, fill }) => (
        <rect key={fill} x={x} y={y} width="10" height="10" fill={fill} />
      ))}
    </svg>
  );
}

const MARKS = { google: GoogleMark, linkedin: LinkedInMark, microsoft: MicrosoftMark, github: GitHubMark } as const;

/** The provider's own mark, decorative: the name beside it is what is read out. */
export function ProviderMark({ provider, className }: { provider: IdentityProvider } & MarkProps) {
  const Mark = MARKS[provider];
  return <Mark className={className} />;
}
