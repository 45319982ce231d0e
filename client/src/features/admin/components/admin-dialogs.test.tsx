import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DeleteUserDialog } from './delete-user-dialog';
import { SuspendDialog } from './suspend-dialog';

describe('DeleteUserDialog', () => {
  it('enables Delete only once the account’s email is typed, and starts in that field', async () => {
    const onConfirm = vi.fn();
    const events = userEvent.setup();
    render(<DeleteUserDialog open email="mina@example.com" pending={false} onCancel={vi.fn()} onConfirm={onConfirm} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this account?' });
    expect(dialog).toHaveAccessibleDescription(/Type mina@example.com to confirm/);
    const field = screen.getByLabelText('Email of the account');
    expect(field).toHaveFocus();
    const button = screen.getByRole('button', { name: 'Delete account' });
    expect(button).toBeDisabled();
    await events.type(field, 'mina@example.co');
    expect(button).toBeDisabled();
    await events.type(field, 'm');
    expect(button).toBeEnabled();
    await events.click(button);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape and keeps Tab inside', async () => {
    const onCancel = vi.fn();
    const events = userEvent.setup();
    render(<DeleteUserDialog open email="mina@example.com" pending={false} onCancel={onCancel} onConfirm={vi.fn()} />);
    await events.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    // Delete is disabled: Tab wraps to the field.
    await events.tab();
    expect(screen.getByLabelText('Email of the account')).toHaveFocus();
    await events.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalled();
  });
});

describe('SuspendDialog', () => {
  it('asks for a reason before suspending, and sends it trimmed', async () => {
    const onConfirm = vi.fn();
    const onEdit = vi.fn();
    const events = userEvent.setup();
    render(<SuspendDialog open name="Mina Member" pending={false} onEdit={onEdit} onCancel={vi.fn()} onConfirm={onConfirm} />);
    expect(screen.getByRole('dialog', { name: 'Suspend Mina Member?' })).toBeInTheDocument();
    const reason = screen.getByRole('textbox', { name: /Reason/ });
    expect(reason).toHaveFocus();
    await events.click(screen.getByRole('button', { name: 'Suspend account' }));
    expect(screen.getByText('Reason is required')).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(onConfirm).not.toHaveBeenCalled();
    await events.type(reason, '  Sending spam ');
    expect(screen.queryByText('Reason is required')).not.toBeInTheDocument();
    expect(onEdit).toHaveBeenCalled();
    await events.click(screen.getByRole('button', { name: 'Suspend account' }));
    expect(onConfirm).toHaveBeenCalledWith('Sending spam');
  });

  it('shows the server’s word on the reason', () => {
    render(<SuspendDialog open name="Mina" pending={false} serverError="Reason is too long" onEdit={vi.fn()} onCancel={vi.fn()} onConfirm={vi.fn()} />);
    expect(screen.getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription('Reason is too long');
  });
});
