/**
 * Organiser HTML (event and benefit descriptions) is sanitised with DOMPurify's html profile right
 * before rendering (DESIGN: rich text). On top of the profile, forms and their controls, <style> and
 * inline `style` attributes are removed: a description must not be able to ask for a code in a form
 * that posts elsewhere, nor lay a fixed overlay over the panel. Tested in sanitize.test.ts.
 */
import DOMPurify from 'dompurify';

// Links open in a new tab without giving the opened page a handle on the panel.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const FORBID_TAGS = ['form', 'input', 'button', 'textarea', 'select', 'option', 'style'];
const FORBID_ATTR = ['style', 'action', 'formaction'];

/** Safe HTML: no scripts, event handlers, javascript: URLs, SVG, MathML, forms or inline styles. '' for empty input. */
export function sanitizeHtml(html: string | null | undefined): string {
  return html ? DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS, FORBID_ATTR }) : '';
}
