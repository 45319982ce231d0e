import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { accountToast } from './account-toast';

describe('accountToast', () => {
  it('closes the account screens toasts after 3 s', async () => {
    const success = vi.spyOn(toast, 'success');
    const error = vi.spyOn(toast, 'error');
    await accountToast.success('Logged in successfully');
    await accountToast.error('Login failed');
    expect(success).toHaveBeenCalledWith('Logged in successfully', { autoClose: 3000 });
    expect(error).toHaveBeenCalledWith('Login failed', { autoClose: 3000, toastId: undefined });
  });
});
