import { useEffect, useId, useRef, type ReactNode } from 'react';
import './feedback.css';

/**
 * The heading of a success screen (gift sent, listed for resale, redeemed, swap done): when it appears it
 * is scrolled into view (below the sticky header: `scroll-margin-top` in feedback.css) and focused, so the
 * outcome is what a sighted person sees and what a screen reader reads next (issue 13). `tabIndex={-1}`:
 * focusable by script, not a Tab stop.
 */
export function SuccessHeading(props: { level?: 1 | 2; className?: string; id?: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView?.({ block: 'start' });
  }, []);
  const Tag = props.level === 1 ? 'h1' : 'h2';
  return (
    <Tag ref={ref} id={props.id} tabIndex={-1} className={`success-heading ${props.className ?? ''}`}>
      {props.children}
    </Tag>
  );
}

/**
 * A success screen's section (listed for resale, redeemed, swap done): named by its SuccessHeading, `title` in
 * `headingClassName` (the heading's id is made here), then the children (what happened and what next).
 */
export function SuccessSection(props: {
  className: string;
  headingClassName: string;
  title: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className={props.className} aria-labelledby={id}>
      <SuccessHeading id={id} className={props.headingClassName}>
        {props.title}
      </SuccessHeading>
      {props.children}
    </section>
  );
}
