/**
 * A popup menu's behaviour (WAI-ARIA menu button): the first item takes focus on open, a click
 * outside closes it, ArrowUp/ArrowDown/Home/End move between items, Escape closes and returns focus
 * to the trigger, Tab closes. The menu element takes `tabIndex={-1}` and `onKeyDown={onMenuKey}`.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';

export function useMenu() {
  const [open, setOpen] = useState(false);
  /** The element holding trigger and menu: clicks inside it do not close the menu. */
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  /** Item elements by index (set through `itemRef`). */
  const items = useRef<(HTMLElement | null)[]>([]);
  /** The ref callback of item `index`: `ref={itemRef(i)}`. */
  const itemRef = useCallback(
    (index: number) => (el: HTMLElement | null) => {
      items.current[index] = el;
    },
    [],
  );

  useEffect(() => {
    if (!open) return;
    items.current.find(Boolean)?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  /** The menu element's onKeyDown. */
  const onMenuKey = (e: KeyboardEvent) => {
    const list = items.current.filter(Boolean) as HTMLElement[];
    const i = list.indexOf(document.activeElement as HTMLElement);
    const go = (n: number) => {
      e.preventDefault();
      list[(n + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') go(i + 1);
    else if (e.key === 'ArrowUp') go(i - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(list.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      setOpen(false);
      trigger.current?.focus();
    } else if (e.key === 'Tab') setOpen(false);
  };

  return { open, setOpen, root, trigger, itemRef, onMenuKey };
}
