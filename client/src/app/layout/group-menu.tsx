import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { NavDropdown } from './nav-dropdown';
import type { NavGroup } from './nav-data';

type GroupMenuProps = {
  group: NavGroup;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onNavigate: () => void;
};

/** A Resources or Company group: its overview link (/{label}) and its items. */
export function GroupMenu({ group, open, onOpenChange, onNavigate }: GroupMenuProps) {
  return (
    <NavDropdown label={group.label} open={open} onOpenChange={onOpenChange} openOnHover panelClassName="w-72">
      <div className="border-b border-ink-100 p-2">
        <Link to={group.href} onClick={onNavigate} className="block rounded-lg p-3 hover:bg-ink-50">
          <span className="flex items-center gap-1 text-sm font-semibold text-ink-900">
            {group.label} overview
            <ArrowRight aria-hidden="true" className="size-4" />
          </span>
          <span className="block text-sm text-ink-600">{group.summary}</span>
        </Link>
      </div>
      <ul className="p-2">
        {group.items.map((item) => (
          <li key={item.href}>
            <Link to={item.href} onClick={onNavigate} className="block rounded-lg p-3 hover:bg-ink-50">
              <span className="block text-sm font-semibold text-ink-900">{item.label}</span>
              <span className="block text-sm text-ink-600">{item.description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </NavDropdown>
  );
}
