/** Organiser HTML is sanitised with DOMPurify's html profile right before rendering (DESIGN: rich text). */
import DOMPurify from 'dompurify';

// Links open in a new tab without giving the opened page a handle on the panel.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') { node.setAttribute('target', '_blank'); node.setAttribute('rel', 'noopener noreferrer'); }
});

/** Safe HTML: no scripts, event handlers, javascript: URLs, SVG or MathML. */
export function sanitizeHtml(html: string | null | undefined): string {
  return html ? DOMPurify.sanitize(html, { USE_PROFILES: { html: true } }) : '';
}
