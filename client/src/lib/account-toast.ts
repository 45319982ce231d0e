import { toast } from './toast';

/** SPEC.md section 9: toasts of the account screens close after 3 s (the default is 5000 ms). */
export const ACCOUNT_TOAST_MS = 3000;

export const accountToast = {
  success: (message: string) => toast.success(message, { autoClose: ACCOUNT_TOAST_MS }),
  /** `toastId` keeps a message from showing twice (e.g. an effect run twice in StrictMode). */
  error: (message: string, toastId?: string) => toast.error(message, { autoClose: ACCOUNT_TOAST_MS, toastId }),
  info: (message: string) => toast.info(message, { autoClose: ACCOUNT_TOAST_MS }),
};
