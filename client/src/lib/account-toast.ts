import { ACCOUNT_TOAST_MS, toast } from './toast';

export { ACCOUNT_TOAST_MS };

export const accountToast = {
  success: (message: string) => toast.success(message, { autoClose: ACCOUNT_TOAST_MS }),
  /** `toastId` keeps a message from showing twice (e.g. an effect run twice in StrictMode). */
  error: (message: string, toastId?: string) => toast.error(message, { autoClose: ACCOUNT_TOAST_MS, toastId }),
  info: (message: string) => toast.info(message, { autoClose: ACCOUNT_TOAST_MS }),
};
