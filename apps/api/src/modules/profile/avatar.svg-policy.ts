/**
 * What an SVG avatar may contain before it is rasterised (issue 14: "SVG rasterised with a time and
 * complexity budget or refused"). librsvg never runs scripts, but filters (a Gaussian blur costs about
 * a second per shape), embedded or external images, entities and very large documents cost time or
 * reach outside the file, so they are refused here, on the main thread, by a cheap scan of the text.
 * What passes is still rasterised under the upload deadline (avatar.service.ts): instancing (`<use>` of
 * groups that hold `<use>`) can multiply the work, and the deadline is what bounds it.
 */

/** Largest SVG accepted, bytes. */
export const SVG_MAX_BYTES = 512 * 1024;
/** Most elements (start tags) an SVG avatar may have. */
export const SVG_MAX_ELEMENTS = 2000;

/** Elements an avatar needs: shapes, groups, gradients, clipping, masks, text and CSS. */
const ALLOWED_ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'metadata',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'style',
]);
/** Editor metadata namespaces (Inkscape, RDF) that librsvg ignores. */
const IGNORED_PREFIXES = new Set(['sodipodi', 'inkscape', 'rdf', 'cc', 'dc']);

/**
 * Why an SVG document is refused, or null when it may be rasterised. Refuses: more than
 * SVG_MAX_BYTES or SVG_MAX_ELEMENTS, entity declarations, any element outside the allowed set
 * (script, foreignObject, image, filter and fe*, pattern, ...), the word `filter` anywhere (the
 * attribute, the CSS property), CSS `@import`, and `href` or `url()` that point outside the document.
 */
export function svgRefusal(svg: Buffer): string | null {
  if (svg.length > SVG_MAX_BYTES) return 'too large';
  const text = svg.toString('utf8');
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>]*\[/i.test(text)) return 'entity declarations';
  let elements = 0;
  for (const m of text.matchAll(/<([A-Za-z_][\w.-]*)(?::([\w.-]+))?/g)) {
    const [prefix, local] = m[2] === undefined ? [null, m[1]] : [m[1], m[2]];
    if (++elements > SVG_MAX_ELEMENTS) return 'too many elements';
    if (prefix && IGNORED_PREFIXES.has(prefix)) continue;
    if (!ALLOWED_ELEMENTS.has(local)) return `element <${local}>`;
  }
  if (/filter/i.test(text)) return 'filters';
  if (/@import/i.test(text)) return 'CSS imports';
  for (const m of text.matchAll(/url\(\s*['"]?\s*([^)'"\s]*)/gi)) if (!m[1].startsWith('#')) return 'external url()';
  for (const m of text.matchAll(/href\s*=\s*(["'])(.*?)\1/gis))
    if (!m[2].trim().startsWith('#')) return 'external href';
  return null;
}
