import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DeleteAccountForm } from './delete-account-form';

describe('DeleteAccountForm', () => {
  it('deletes only once the account email is typed, in any case', async () => {
    const onDelete = vi.fn();
    render(<DeleteAccountForm email="sam@example.com" pending={false} onDelete={onDelete} />);
    const button = screen.getByRole('button', { name: 'Delete my account' });
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Your email'), 'sam@example.co');
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Your email'), 'M');
    expect(button).toBeEnabled();
    await userEvent.click(button);
    expect(onDelete).toHaveBeenCalledTimes(1);
  });
});
