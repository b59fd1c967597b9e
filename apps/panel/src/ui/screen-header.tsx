import type { ReactNode } from 'react';

/** A screen's heading (h1) with its muted subtitle. */
export function ScreenHeader(props: { title: ReactNode; subtitle?: ReactNode; subtitleClassName?: string }) {
  return (
    <header className="stack-sm">
      <h1 className="screen-title">{props.title}</h1>
      {props.subtitle && <p className={`muted ${props.subtitleClassName ?? ''}`}>{props.subtitle}</p>}
    </header>
  );
}
