import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PlatformIcon } from '@/components/platform-icon';
import { paths } from '@/config/paths';
import { platforms } from '@/config/platforms';
import { themeClasses } from '@/config/themes';
import { NavDropdown } from './nav-dropdown';

type MenuProps = { open: boolean; onOpenChange: (open: boolean) => void; onNavigate: () => void };

/** The Platforms / Solutions dropdown: the three platforms with name, theme and description. */
export function PlatformsMenu({ open, onOpenChange, onNavigate }: MenuProps) {
  return (
    <NavDropdown label="Platforms" open={open} onOpenChange={onOpenChange} openOnHover panelClassName="w-[22rem]">
      <ul className="p-2">
        {platforms.map((platform) => {
          const theme = themeClasses[platform.theme];
          return (
            <li key={platform.id}>
              <Link to={platform.path} onClick={onNavigate} className="flex gap-3 rounded-lg p-3 hover:bg-ink-50">
                <span className={`flex size-10 shrink-0 items-center justify-center rounded-lg ${theme.soft}`}>
                  <PlatformIcon id={platform.id} className={`size-5 ${theme.text}`} />
                </span>
                <span>
                  <span className={`block text-sm font-semibold ${theme.text}`}>{platform.name}</span>
                  <span className="block text-sm text-ink-600">{platform.description}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
      <div className="border-t border-ink-100 bg-ink-50 px-5 py-3">
        <Link
          to={paths.solutions.getHref()}
          onClick={onNavigate}
          className="inline-flex items-center gap-1 text-sm font-semibold text-accent hover:text-accent-strong"
        >
          Explore all solutions
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
    </NavDropdown>
  );
}
