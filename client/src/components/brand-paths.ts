// LinkedIn's "in" mark, which simple-icons no longer ships (it dropped LinkedIn's and
// Microsoft's marks at the owners' request), drawn after the published logo on a 24 by 24
// grid. Its own module: the footer takes it into the home page's budget, the sign-in buttons
// and /security too, and nothing else should come along.

/** The rounded square. */
export const LINKEDIN_SQUARE = 'M2.6 0h18.8A2.6 2.6 0 0 1 24 2.6v18.8a2.6 2.6 0 0 1-2.6 2.6H2.6A2.6 2.6 0 0 1 0 21.4V2.6A2.6 2.6 0 0 1 2.6 0z';

/** The letters, which sit inside the square (white on blue, or cut out of a one-colour square). */
export const LINKEDIN_IN =
  'M3.6 9h3.5v11.4H3.6zM5.35 3.3a2.05 2.05 0 1 1 0 4.1 2.05 2.05 0 0 1 0-4.1zM9.3 9h3.3v1.6c.5-.9 1.6-1.9 3.4-1.9 3.5 0 4.4 2.3 4.4 5.4v6.3h-3.5v-5.6c0-1.3-.1-3-1.9-3s-2.3 1.4-2.3 2.9v5.7H9.3z';
