import { ChevronDown } from 'lucide-react';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';

/** SPEC.md section 9: the dropdown closes 200 ms after the pointer leaves. */
export const DROPDOWN_CLOSE_DELAY_MS = 200;

type NavDropdownProps = {
  label: ReactNode;
  /** Accessible name when `label` is not plain text. */
  buttonAriaLabel?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Open on mouse hover (desktop navigation); the account menu opens on click only. */
  openOnHover?: boolean;
  closeDelayMs?: number;
  align?: 'start' | 'end';
  buttonClassName?: string;
  panelClassName?: string;
  children: ReactNode;
};

const FOCUSABLE = 'a[href], button:not([disabled])';

/**
 * Disclosure-style navigation dropdown: a real button with aria-expanded, hover open with a
 * delayed close, outside click and Escape to close (focus goes back to the button), arrow
 * keys and Tab to reach the items. Open state is owned by the parent so only one menu of the
 * header is open at a time.
 */
export function NavDropdown({
  label,
  buttonAriaLabel,
  open,
  onOpenChange,
  openOnHover = false,
  closeDelayMs = DROPDOWN_CLOSE_DELAY_MS,
  align = 'start',
  buttonClassName = '',
  panelClassName = '',
  children,
}: NavDropdownProps) {
  const panelId = useId();
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const openedByHover = useRef(false);
  const pendingFocus = useRef<'first' | 'last' | null>(null);

  const cancelClose = useCallback(() => {
    if (closeTimer.current !== null) {
      clearTimeout(closeTimer.current);
      closeTimer.current = null;
    }
  }, []);

  useEffect(() => cancelClose, [cancelClose]);

  const items = () => Array.from(panelRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);

  // Move focus into the panel once it is shown after a keyboard open.
  useEffect(() => {
    if (!open || pendingFocus.current === null) return;
    const list = items();
    const target = pendingFocus.current === 'first' ? list[0] : list[list.length - 1];
    pendingFocus.current = null;
    target?.focus();
  }, [open]);

  // Outside click closes.
  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: globalThis.PointerEvent | MouseEvent) => {
      if (event.target instanceof Node && wrapperRef.current?.contains(event.target)) return;
      cancelClose();
      onOpenChange(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, onOpenChange, cancelClose]);

  const isMouse = (event: PointerEvent) => event.pointerType !== 'touch' && event.pointerType !== 'pen';

  const onPointerEnter = (event: PointerEvent) => {
    if (!openOnHover || !isMouse(event)) return;
    cancelClose();
    if (!open) {
      openedByHover.current = true;
      onOpenChange(true);
    }
  };

  const onPointerLeave = (event: PointerEvent) => {
    if (!openOnHover || !isMouse(event) || !open) return;
    cancelClose();
    closeTimer.current = setTimeout(() => {
      closeTimer.current = null;
      onOpenChange(false);
    }, closeDelayMs);
  };

  const close = (returnFocus: boolean) => {
    cancelClose();
    onOpenChange(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonClick = () => {
    cancelClose();
    // A click on a menu the pointer just opened keeps it open instead of flicking it shut.
    if (open && openedByHover.current) {
      openedByHover.current = false;
      return;
    }
    openedByHover.current = false;
    onOpenChange(!open);
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const where = event.key === 'ArrowDown' ? 'first' : 'last';
      if (open) {
        const list = items();
        (where === 'first' ? list[0] : list[list.length - 1])?.focus();
      } else {
        pendingFocus.current = where;
        openedByHover.current = false;
        onOpenChange(true);
      }
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
    }
  };

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const focusAt = (next: number) => list[(next + list.length) % list.length]?.focus();
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        close(true);
        break;
      case 'ArrowDown':
        event.preventDefault();
        focusAt(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusAt(index < 0 ? -1 : index - 1);
        break;
      case 'Home':
        event.preventDefault();
        focusAt(0);
        break;
      case 'End':
        event.preventDefault();
        focusAt(-1);
        break;
      default:
        break;
    }
  };

  // Tabbing out of the button and panel closes the menu.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !wrapperRef.current?.contains(next)) {
      cancelClose();
      onOpenChange(false);
    }
  };

  return (
    <div ref={wrapperRef} className="relative" onPointerEnter={onPointerEnter} onPointerLeave={onPointerLeave} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={buttonAriaLabel}
        onClick={onButtonClick}
        onKeyDown={onButtonKeyDown}
        className={`inline-flex items-center gap-1 rounded-lg px-3 py-2 text-sm font-medium text-ink-700 transition-colors hover:bg-ink-100 hover:text-ink-900 ${buttonClassName}`}
      >
        {label}
        <ChevronDown aria-hidden="true" className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      <div
        ref={panelRef}
        id={panelId}
        hidden={!open}
        onKeyDown={onPanelKeyDown}
        className={`absolute top-full z-50 pt-2 ${align === 'end' ? 'right-0' : 'left-0'} ${panelClassName}`}
      >
        <div className="overflow-hidden rounded-xl border border-ink-200 bg-paper shadow-xl ring-1 ring-ink-900/5">{children}</div>
      </div>
    </div>
  );
}
