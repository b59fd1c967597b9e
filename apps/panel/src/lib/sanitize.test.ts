// @vitest-environment jsdom
/**
 * Organiser HTML is sanitised before rendering (DESIGN: rich text; issue "Gifting a ticket and
 * unlocking benefits"): scripts, event handlers, javascript: links and SVG/MathML payloads are removed,
 * and rendering the result runs nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize';

declare global {
  interface Window {
    __pwned?: number;
  }
}

/** Renders sanitised HTML into the document the way the panel does (innerHTML), returns the host element. */
function render(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = sanitizeHtml(html);
  document.body.appendChild(host);
  return host;
}
const tick = () => new Promise((r) => setTimeout(r, 30));

describe('sanitizeHtml', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    delete window.__pwned;
  });

  it('keeps ordinary rich text', () => {
    const out = sanitizeHtml(
      '<p>Hello <strong>there</strong>, <em>see</em> <a href="https://example.com/x">the map</a></p><ul><li>one</li></ul>',
    );
    expect(out).toContain('<strong>there</strong>');
    expect(out).toContain('<li>one</li>');
    expect(out).toContain('href="https://example.com/x"');
  });

  it('opens links in a new tab without an opener', () => {
    const a = render('<a href="https://example.com">x</a>').querySelector('a')!;
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('removes <script> elements, which therefore never run', async () => {
    const out = sanitizeHtml(
      '<p>hi</p><script>window.__pwned = 1</script><SCRIPT SRC="https://evil.example/x.js"></SCRIPT>',
    );
    expect(out).not.toMatch(/<script/i);
    expect(out).not.toContain('__pwned');
    render('<p>hi</p><script>window.__pwned = 1</script>');
    await tick();
    expect(window.__pwned).toBeUndefined();
  });

  it('removes onerror= and other event-handler attributes', async () => {
    const payload =
      '<img src="x" onerror="window.__pwned = 1"><p onclick="window.__pwned = 2" onmouseover="window.__pwned = 3">x</p><body onload="window.__pwned = 4">';
    const out = sanitizeHtml(payload);
    expect(out).not.toMatch(/\son\w+\s*=/i);
    const host = render(payload);
    host.querySelector('p')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    host.querySelector('img')?.dispatchEvent(new Event('error'));
    await tick();
    expect(window.__pwned).toBeUndefined();
  });

  it('removes javascript: (and data:/vbscript:) URLs from links, also obfuscated ones', () => {
    const payloads = [
      '<a href="javascript:window.__pwned=1">a</a>',
      '<a href="JaVaScRiPt:window.__pwned=1">b</a>',
      '<a href=" &#106;avascript:window.__pwned=1">c</a>',
      '<a href="java\tscript:window.__pwned=1">d</a>',
      '<a href="vbscript:msgbox(1)">e</a>',
      '<a href="data:text/html,<script>window.__pwned=1</script>">f</a>',
    ];
    for (const p of payloads) {
      const a = render(p).querySelector('a');
      const href = a?.getAttribute('href') ?? '';
      expect(href, p).not.toMatch(/^\s*(javascript|vbscript|data):/i);
      expect(href.replace(/\s/g, ''), p).not.toMatch(/script:/i);
    }
    const clicked = render('<a href="javascript:window.__pwned=1">go</a>').querySelector('a')!;
    clicked.click();
    expect(window.__pwned).toBeUndefined();
  });

  it('removes SVG and MathML payloads (scripts, handlers, animate tricks)', async () => {
    const payloads = [
      '<svg onload="window.__pwned=1"><circle r="5"/></svg>',
      '<svg><script>window.__pwned=1</script></svg>',
      '<svg><a xlink:href="javascript:window.__pwned=1"><text>x</text></a></svg>',
      '<svg><animate attributeName="href" values="javascript:window.__pwned=1"/></svg>',
      '<svg><foreignObject><img src=x onerror="window.__pwned=1"></foreignObject></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=1">',
    ];
    for (const p of payloads) {
      const out = sanitizeHtml(p);
      expect(out, p).not.toMatch(/<svg|<math|<script|<animate|<foreignobject/i);
      expect(out, p).not.toMatch(/\son\w+\s*=|javascript:/i);
      render(p);
    }
    await tick();
    expect(document.querySelector('svg, math, script')).toBeNull();
    expect(window.__pwned).toBeUndefined();
  });

  it('removes iframes, objects, embeds, forms and inline styles that could phish', () => {
    const out = sanitizeHtml(
      '<iframe src="https://evil.example"></iframe><object data="x.swf"></object><embed src="x"><form action="https://evil.example"><input name="otp"></form><p style="position:fixed;inset:0">x</p>',
    );
    expect(out).not.toMatch(/<iframe|<object|<embed|<form|<input|style=/i);
    expect(out).toContain('<p>x</p>');
  });

  it('gives an empty string for empty input', () => {
    expect(sanitizeHtml(null)).toBe('');
    expect(sanitizeHtml(undefined)).toBe('');
    expect(sanitizeHtml('')).toBe('');
  });
});
