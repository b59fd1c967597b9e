import type { ReactNode } from 'react';
import './field-pair.css';

/** Two fields side by side (a first and a last name), one above the other on a phone. */
export function FieldPair(p: { children: ReactNode }) {
  return <div className="field-pair">{p.children}</div>;
}
