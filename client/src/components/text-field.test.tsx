import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TextField } from './text-field';

describe('TextField', () => {
  it('labels the input and marks it required', () => {
    render(<TextField label="Email" type="email" required />);
    const input = screen.getByLabelText(/Email/);
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('*')).toHaveAttribute('aria-hidden', 'true');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).toHaveClass('border-ink-300');
  });

  it('shows the error line beneath the input with a red border', () => {
    render(<TextField label="Email" error="Email is required" />);
    const input = screen.getByLabelText('Email');
    const message = screen.getByText('Email is required');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveClass('border-danger-line');
    expect(input).toHaveAccessibleDescription('Email is required');
    expect(input.compareDocumentPosition(message) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
