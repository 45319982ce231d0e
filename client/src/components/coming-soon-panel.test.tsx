import { screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { ComingSoonPanel } from './coming-soon-panel';

it('says the content is being prepared and shows a 60% Under Construction bar with both links', async () => {
  renderWithApp(<ComingSoonPanel />);
  expect(await screen.findByRole('heading', { name: 'Coming Soon' })).toBeInTheDocument();
  expect(screen.getByText(/preparing the content/i)).toBeInTheDocument();
  const bar = screen.getByRole('progressbar', { name: 'Under Construction' });
  expect(bar).toHaveAttribute('aria-valuenow', '60');
  expect(screen.getByText('60%')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
});
