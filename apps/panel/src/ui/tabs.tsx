import { useRef } from 'react';

/** Accessible tabs (role=tablist, arrow keys move between tabs). */
export function Tabs<T extends string>(props: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (v: T) => void;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (i: number) => {
    const n = props.options.length;
    const next = (i + n) % n;
    refs.current[next]?.focus();
    props.onChange(props.options[next].value);
  };
  return (
    <div role="tablist" aria-label={props.label} className="tabs">
      {props.options.map((o, i) => (
        <button
          key={o.value}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          aria-selected={o.value === props.value}
          tabIndex={o.value === props.value ? 0 : -1}
          className="tabs__tab"
          onClick={() => props.onChange(o.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') move(i + 1);
            if (e.key === 'ArrowLeft') move(i - 1);
          }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
