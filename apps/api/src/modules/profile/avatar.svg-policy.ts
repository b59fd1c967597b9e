/**
 * What an SVG avatar may contain before it is rasterised (issue 14: "SVG rasterised with a time and
 * complexity budget or refused"). librsvg never runs scripts, but filters (a Gaussian blur costs about
 * a second per shape), embedded or external images, entities and very large documents cost time or
 * reach outside the file, so they are refused here, on the main thread.
 *
 * The decision is made on the parsed document, as librsvg will read it (issue 19, break 6: a scan of the
 * raw text missed `&#102;ilter` and the CSS escape `fil\74 er`): the XML is parsed by saxes (a strict,
 * namespace-aware parser that resolves character and predefined entity references; a document it
 * cannot parse is refused), every CSS text (`<style>` elements, `style` attributes, presentation
 * attributes that take `url()`) is parsed by css-tree, and CSS names are compared after their escapes
 * are decoded. CSS that css-tree cannot parse into known nodes (its `Raw` fallback) is refused.
 * What passes is still rasterised under the upload deadline (avatar.service.ts): instancing (`<use>` of
 * groups that hold `<use>`) can multiply the work, and the deadline is what bounds it.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import * as csstree from 'css-tree';

/** Largest SVG accepted, bytes. */
export const SVG_MAX_BYTES = 512 * 1024;
/** Most elements (start tags) an SVG avatar may have. */
export const SVG_MAX_ELEMENTS = 2000;

const SVG_NS = 'http://www.w3.org/2000/svg';

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
/** Editor metadata namespaces (Inkscape, Sodipodi, RDF, Creative Commons, Dublin Core) that librsvg ignores. */
const IGNORED_NAMESPACES = new Set([
  'http://www.inkscape.org/namespaces/inkscape',
  'http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://creativecommons.org/ns#',
  'http://web.resource.org/cc/',
  'http://purl.org/dc/elements/1.1/',
]);
/** Presentation attributes whose value is CSS that may hold `url()`. */
const CSS_ATTRIBUTES = new Set([
  'fill',
  'stroke',
  'clip-path',
  'mask',
  'marker',
  'marker-start',
  'marker-mid',
  'marker-end',
  'cursor',
]);
/** CSS functions an avatar may use (colours, arithmetic, transforms); `url()` is its own node type. */
const ALLOWED_FUNCTIONS = new Set([
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'hwb',
  'lab',
  'lch',
  'oklab',
  'oklch',
  'color',
  'calc',
  'min',
  'max',
  'clamp',
  'var',
  'translate',
  'translatex',
  'translatey',
  'scale',
  'scalex',
  'scaley',
  'rotate',
  'skew',
  'skewx',
  'skewy',
  'matrix',
]);

/** Why a CSS text is refused, or null. `context` is css-tree's: a stylesheet, a declaration list or a value. */
function cssRefusal(text: string, context: 'stylesheet' | 'declarationList' | 'value'): string | null {
  let why: string | null = null;
  const ast = csstree.parse(text, { context, parseValue: true, parseCustomProperty: false });
  csstree.walk(ast, (node) => {
    if (why) return;
    switch (node.type) {
      case 'Raw':
        if (node.value.trim() !== '') why = 'unparsed CSS';
        break;
      case 'Atrule':
        why = `CSS @${csstree.ident.decode(node.name)}`;
        break;
      case 'Declaration':
        if (/filter/i.test(csstree.ident.decode(node.property))) why = 'filters';
        break;
      case 'Url':
        if (!node.value.trim().startsWith('#')) why = 'external url()';
        break;
      case 'Function':
        if (!ALLOWED_FUNCTIONS.has(csstree.ident.decode(node.name).toLowerCase()))
          why = `CSS function ${csstree.ident.decode(node.name)}()`;
        break;
    }
  });
  return why;
}

/** Why one element (its decoded name and attribute values) is refused, or null. */
function elementRefusal(tag: SaxesTagNS): string | null {
  if (IGNORED_NAMESPACES.has(tag.uri)) return null;
  if ((tag.uri !== SVG_NS && tag.uri !== '') || !ALLOWED_ELEMENTS.has(tag.local)) return `element <${tag.name}>`;
  for (const attr of Object.values(tag.attributes)) {
    if (attr.prefix === 'xmlns' || attr.name === 'xmlns') continue;
    const local = attr.local.toLowerCase();
    if (local.includes('filter')) return 'filters';
    if (local.startsWith('on')) return `event handler ${attr.name}`;
    if (local === 'href' && !attr.value.trim().startsWith('#')) return 'external href';
    if (local === 'style') {
      const why = cssRefusal(attr.value, 'declarationList');
      if (why) return why;
    } else if (CSS_ATTRIBUTES.has(local)) {
      const why = cssRefusal(attr.value, 'value');
      if (why) return why;
    }
  }
  return null;
}

/**
 * Why an SVG document is refused, or null when it may be rasterised. Refuses, on the parsed document:
 * more than SVG_MAX_BYTES or SVG_MAX_ELEMENTS, XML that does not parse (undefined entities included), a
 * DOCTYPE with an internal subset (entity declarations), processing instructions (`xml-stylesheet`), any
 * element outside the allowed set (script, foreignObject, image, filter and fe*, pattern, ...), any
 * attribute or CSS property naming a filter, event-handler attributes, CSS at-rules (`@import`,
 * `@font-face`), CSS functions outside colours/arithmetic/transforms, CSS css-tree cannot parse, and
 * `href` or `url()` that point outside the document.
 */
export function svgRefusal(svg: Buffer): string | null {
  if (svg.length > SVG_MAX_BYTES) return 'too large';
  let why: string | null = null;
  let elements = 0;
  let styleDepth = 0;
  let css = '';
  const refuse = (reason: string | null) => {
    why ??= reason;
  };
  const parser = new SaxesParser({ xmlns: true, position: false });
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) refuse('entity declarations');
  });
  parser.on('processinginstruction', (pi) => refuse(`processing instruction <?${pi.target}?>`));
  parser.on('opentag', (tag) => {
    if (++elements > SVG_MAX_ELEMENTS) return refuse('too many elements');
    refuse(elementRefusal(tag));
    if (tag.local === 'style') styleDepth++;
  });
  parser.on('text', (text) => {
    if (styleDepth) css += text;
  });
  parser.on('cdata', (text) => {
    if (styleDepth) css += text;
  });
  parser.on('closetag', (tag) => {
    if (tag.local === 'style' && --styleDepth === 0) {
      refuse(cssRefusal(css, 'stylesheet'));
      css = '';
    }
  });
  try {
    parser.write(svg.toString('utf8').replace(/^\uFEFF/, '')).close();
  } catch (err) {
    return why ?? `not well-formed XML (${(err as Error).message.split('\n')[0]})`;
  }
  return why;
}
