import { useId, type ReactNode } from 'react';

export function SectionCard({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-2xl bg-paper p-6 shadow-sm ring-1 ring-ink-200">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-bold text-ink-900">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** One label/value row of a read-only section; an empty value shows "Not provided". */
export function DetailRow({ label, value, className = '' }: { label: string; value: ReactNode; className?: string }) {
  const empty = value === null || value === undefined || value === '';
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-sm font-medium text-ink-600">{label}</dt>
      <dd className={`mt-0.5 break-words ${empty ? 'text-ink-500 italic' : 'text-ink-900'}`}>{empty ? 'Not provided' : value}</dd>
    </div>
  );
}
