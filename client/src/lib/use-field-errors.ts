import { useCallback, useState } from 'react';

/**
 * Field errors of one form, its own checks' or the server's; `clear(field)` runs when the user
 * edits that field (SPEC.md section 5: field errors clear on edit).
 */
export function useFieldErrors<K extends string>() {
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const clear = useCallback((field: K) => {
    setErrors((current) => {
      if (!current[field]) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
  }, []);
  /** Keeps only the server's errors that belong to this form's fields. */
  const setFromServer = useCallback((serverErrors: Record<string, string>, fields: readonly K[]) => {
    const picked: Partial<Record<K, string>> = {};
    for (const field of fields) {
      const message = serverErrors[field];
      if (message) picked[field] = message;
    }
    setErrors(picked);
    return Object.keys(picked).length > 0;
  }, []);
  return { errors, setErrors, clear, setFromServer };
}
