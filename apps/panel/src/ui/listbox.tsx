/**
 * The panel's one listbox (WAI-ARIA listbox pattern), for every dropdown and suggestion list:
 * - `Listbox`: the list of options. Focus stays on the control that owns it (a combobox input or
 *   button), which points at the active option with `aria-activedescendant` (`optionId`); the pointer
 *   moves the active option, a click chooses, and pressing an option never steals focus.
 * - `listboxKey`: its keyboard: ArrowDown/ArrowUp move (stopping at the ends), Home/End jump, Enter
 *   (and Space in a select) choose the active option, Escape and Tab close.
 * - `Select`: a select-only combobox (a button showing the value) over a popup `Listbox`: click or
 *   ArrowDown/ArrowUp opens it on the current value, a click outside closes it. Used by the gift and
 *   resell ticket dropdowns; the gift username suggestions use `Listbox` under their text input.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ChevronIcon } from './icons';

/** The id of option `index` of the listbox with id `listId`, for `aria-activedescendant`. */
export const optionId = (listId: string, index: number) => `${listId}-opt-${index}`;

export interface ListboxProps<T> {
  /** The listbox element's id (the owner's `aria-controls`); options get `optionId(id, i)`. */
  id: string;
  items: readonly T[];
  /** Index of the active (highlighted) option; -1 for none. */
  active: number;
  onActiveChange: (index: number) => void;
  onChoose: (item: T, index: number) => void;
  /** Whether an option carries `aria-selected="true"`. */
  isSelected: (item: T, index: number) => boolean;
  itemKey: (item: T) => string | number;
  renderOption: (item: T) => ReactNode;
  /** The option's accessible name when its content is not a good one. */
  optionLabel?: (item: T) => string;
  /** Shown as a popup under its owner (a select); false when a wrapper positions it. */
  popup?: boolean;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}

export function Listbox<T>(p: ListboxProps<T>) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (p.active >= 0)
      list.current?.querySelector(`#${CSS.escape(optionId(p.id, p.active))}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [p.id, p.active]);
  return (
    <ul
      ref={list}
      id={p.id}
      role="listbox"
      aria-label={p['aria-label']}
      aria-labelledby={p['aria-labelledby']}
      className={`listbox ${p.popup ? 'listbox--popup popup' : ''}`}
    >
      {p.items.map((item, i) => (
        <li
          key={p.itemKey(item)}
          id={optionId(p.id, i)}
          role="option"
          aria-label={p.optionLabel?.(item)}
          aria-selected={p.isSelected(item, i)}
          className={`listbox__option ${i === p.active ? 'is-active' : ''}`}
          onMouseEnter={() => p.onActiveChange(i)}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => p.onChoose(item, i)}
        >
          {p.renderOption(item)}
        </li>
      ))}
    </ul>
  );
}

/**
 * Handles a key of a listbox's owner while the listbox is open; returns whether it did (then the
 * default action was prevented, except for Tab).
 */
export function listboxKey(
  e: KeyboardEvent,
  s: {
    count: number;
    active: number;
    setActive: (i: number) => void;
    choose: (i: number) => void;
    close: () => void;
    space?: boolean;
  },
): boolean {
  const move = (i: number) => {
    e.preventDefault();
    s.setActive(Math.min(Math.max(i, 0), s.count - 1));
    return true;
  };
  if (e.key === 'ArrowDown') return move(s.active + 1);
  if (e.key === 'ArrowUp') return move(s.active - 1);
  if (e.key === 'Home') return move(0);
  if (e.key === 'End') return move(s.count - 1);
  if (e.key === 'Enter' || (s.space && e.key === ' ')) {
    if (s.active < 0 || s.active >= s.count) return false;
    e.preventDefault();
    s.choose(s.active);
    return true;
  }
  if (e.key === 'Escape') {
    e.preventDefault();
    s.close();
    return true;
  }
  if (e.key === 'Tab') {
    s.close();
    return true;
  }
  return false;
}

export interface SelectProps<T> {
  /** The visible label (names the button and the listbox). */
  label: string;
  items: readonly T[];
  value: T | null;
  onChange: (item: T) => void;
  itemKey: (item: T) => string | number;
  /** An option's content. */
  renderOption: (item: T) => ReactNode;
  /** The button's content for the value. */
  renderValue: (item: T) => ReactNode;
  /** The button's content while nothing is chosen. */
  placeholder: ReactNode;
  optionLabel?: (item: T) => string;
  disabled?: boolean;
  /** Working (e.g. checking the choice): disabled, with a spinner instead of the chevron. */
  busy?: boolean;
  invalid?: boolean;
  describedBy?: string;
}

export function Select<T>(p: SelectProps<T>) {
  const id = useId();
  const labelId = `${id}-label`;
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { items, value, itemKey } = p;

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const show = () => {
    setActive(Math.max(0, value === null ? 0 : items.findIndex((x) => itemKey(x) === itemKey(value))));
    setOpen(true);
  };
  const choose = (i: number) => {
    const item = items[i];
    setOpen(false);
    button.current?.focus();
    if (item !== undefined) p.onChange(item);
  };
  const onKey = (e: KeyboardEvent) => {
    if (!open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        show();
      }
      return;
    }
    listboxKey(e, { count: items.length, active, setActive, choose, close: () => setOpen(false), space: true });
  };

  return (
    <div className="field select" ref={root}>
      <span id={labelId} className="field__label">
        {p.label}
      </span>
      <button
        ref={button}
        type="button"
        role="combobox"
        aria-labelledby={labelId}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && items[active] !== undefined ? optionId(listId, active) : undefined}
        aria-describedby={p.describedBy}
        aria-invalid={p.invalid || undefined}
        aria-busy={p.busy || undefined}
        disabled={p.disabled || p.busy}
        className={`select__button ${p.invalid ? 'select__button--error' : ''}`}
        onClick={() => (open ? setOpen(false) : show())}
        onKeyDown={onKey}
      >
        <span className="select__value">{value === null ? p.placeholder : p.renderValue(value)}</span>
        {p.busy ? (
          <span className="spinner" aria-hidden="true" />
        ) : (
          <span className="select__chevron" aria-hidden="true">
            <ChevronIcon />
          </span>
        )}
      </button>
      {open && (
        <Listbox
          id={listId}
          popup
          aria-labelledby={labelId}
          items={items}
          active={active}
          onActiveChange={setActive}
          onChoose={(_, i) => choose(i)}
          isSelected={(item) => value !== null && itemKey(item) === itemKey(value)}
          itemKey={itemKey}
          renderOption={p.renderOption}
          optionLabel={p.optionLabel}
        />
      )}
    </div>
  );
}
