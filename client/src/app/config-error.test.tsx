import { render } from '@testing-library/react';
import { expect, it } from 'vitest';
import { ConfigError } from './config-error';

it('renders only the missing-variable text instead of the app', () => {
  const { container } = render(<ConfigError message="Missing required environment variable: VITE_ENV" />);
  expect(container.innerHTML).toBe('Missing required environment variable: VITE_ENV');
});
