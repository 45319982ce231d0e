type SectionHeadingProps = { id: string; eyebrow: string; title: string; intro?: string; align?: 'center' | 'left' };

export function SectionHeading({ id, eyebrow, title, intro, align = 'center' }: SectionHeadingProps) {
  const alignment = align === 'center' ? 'mx-auto text-center' : '';
  return (
    <div className={`max-w-2xl ${alignment}`}>
      <p className="text-sm font-semibold uppercase tracking-wide text-accent">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">
        {title}
      </h2>
      {intro ? <p className="mt-4 text-lg text-ink-600">{intro}</p> : null}
    </div>
  );
}
