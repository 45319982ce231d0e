/** The console's inputs and selects: the shared text field's look (components/text-field.tsx). */
export const inputClass =
  'block w-full rounded-lg border border-ink-300 bg-paper px-3 py-2.5 text-ink-900 placeholder:text-ink-500 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-focus';
export const selectClass = inputClass;
export const labelClass = 'mb-1.5 block text-sm font-medium text-ink-800';
