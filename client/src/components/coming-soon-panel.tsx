import { Construction, House, Mail } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { brandTheme, type ThemeClasses } from '@/config/themes';
import { buttonClass } from './button-styles';

export const UNDER_CONSTRUCTION_PERCENT = 60;

type ComingSoonPanelProps = { theme?: ThemeClasses };

/** The panel every not-yet-written page shows (SPEC.md section 2, placeholder pages). */
export function ComingSoonPanel({ theme = brandTheme }: ComingSoonPanelProps) {
  const titleId = useId();
  const barLabelId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="mx-auto w-full max-w-2xl rounded-2xl border border-ink-200 bg-paper p-6 text-center shadow-sm sm:p-10"
    >
      <div className={`mx-auto mb-5 flex size-14 items-center justify-center rounded-full ${theme.soft}`}>
        <Construction aria-hidden="true" className={`size-7 ${theme.text}`} />
      </div>
      <h2 id={titleId} className="text-2xl font-bold tracking-tight text-ink-900">
        Coming Soon
      </h2>
      <p className="mt-3 text-ink-600">
        We are preparing the content for this page. Please check back soon.
      </p>

      <div className="mt-8 text-left">
        <div className="mb-2 flex items-center justify-between text-sm font-medium text-ink-700">
          <span id={barLabelId}>Under Construction</span>
          <span>{UNDER_CONSTRUCTION_PERCENT}%</span>
        </div>
        <div
          role="progressbar"
          aria-labelledby={barLabelId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={UNDER_CONSTRUCTION_PERCENT}
          className="h-3 w-full overflow-hidden rounded-full bg-ink-200"
        >
          <div className={`h-full rounded-full ${theme.bar}`} style={{ width: `${UNDER_CONSTRUCTION_PERCENT}%` }} />
        </div>
      </div>

      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to={paths.home.getHref()} className={`${buttonClass('solid')} ${theme.solid} ${theme.solidHover}`}>
          <House aria-hidden="true" className="size-4" />
          Back to Home
        </Link>
        <Link to={paths.contact.getHref()} className={buttonClass('secondary')}>
          <Mail aria-hidden="true" className="size-4" />
          Contact Us
        </Link>
      </div>
    </section>
  );
}
