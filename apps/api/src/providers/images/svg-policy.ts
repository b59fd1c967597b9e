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
 * Instancing is bounded too (issue 39, break 9: `<use>` of groups that hold `<use>` drew 2^18 circles from 37
 * elements and rendered until the deadline, so one holder's uploads held the decoding processes): the document
 * is refused when, with every `<use>` replaced by what it references and every `clip-path`/`mask` reference by
 * the clip path or mask it draws for each element that uses it, it would draw more than SVG_MAX_RENDERED_ELEMENTS
 * elements (SVG_MAX_COSTLY_RENDERED_ELEMENTS when it has a gradient or a mask, whose paint is slow whatever the
 * size), or when references form a cycle. What passes is still rasterised under the upload deadline
 * (avatar.service.ts, mail-logo.ts). The same policy holds for an organisation logo (issue 41 point 9).
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import * as csstree from 'css-tree';

/** Largest SVG accepted, bytes. */
export const SVG_MAX_BYTES = 512 * 1024;
/** Most elements (start tags) an SVG avatar may have. */
export const SVG_MAX_ELEMENTS = 2000;
/**
 * Most elements an SVG avatar may draw once `<use>`, `clip-path` and `mask` references are expanded (each
 * reference counts the referenced element with everything under it, again for each element that references it).
 */
export const SVG_MAX_RENDERED_ELEMENTS = 5000;
/**
 * Most elements an SVG avatar may draw (counted as SVG_MAX_RENDERED_ELEMENTS) when it has a gradient or a mask
 * (issue 39 item 9, re-audit): librsvg paints a gradient in about 3.5 ms and a mask in about 8 ms per element
 * whatever the output size, so 1,900 gradient circles rendered past the 10 s deadline and a few accounts held the
 * decoding processes; 150 of them render in about a second on this machine under load. A solid-colour drawing
 * keeps the larger bound (1,900 solid circles: 0.4 s).
 */
export const SVG_MAX_COSTLY_RENDERED_ELEMENTS = 150;
/** Elements whose every use is a costly paint (SVG_MAX_COSTLY_RENDERED_ELEMENTS). */
const COSTLY_PAINT_ELEMENTS = new Set(['linearGradient', 'radialGradient', 'mask']);

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

/**
 * Dashed strokes are refused: librsvg draws each dash, so one circle with `stroke-dasharray="0.01"` costs ~19 ms of
 * CPU and 1,500 of them (127 KB, within every other bound) ran past the 10 s deadline (issue 39 audit, item 9):
 * the element count does not bound the drawing time when one element can be made of a hundred thousand dashes.
 */
const DASHES = 'dashed strokes (stroke-dasharray)';

/** Properties whose `url(#id)` draws the referenced element again for each element that has them. */
const INSTANCING_PROPERTIES = new Set(['clip-path', 'mask']);

/** The `#id`s a `url(#id)` of an instancing property names in `ast` (`property`: the attribute a value is of). */
function instancingRefs(ast: csstree.CssNode, property?: string): string[] {
  const refs: string[] = [];
  const collect = (value: csstree.CssNode) =>
    csstree.walk(value, (node) => {
      if (node.type === 'Url' && node.value.trim().startsWith('#')) refs.push(node.value.trim().slice(1));
    });
  if (property !== undefined) {
    if (INSTANCING_PROPERTIES.has(property)) collect(ast);
    return refs;
  }
  csstree.walk(ast, (node) => {
    if (node.type === 'Declaration' && INSTANCING_PROPERTIES.has(csstree.ident.decode(node.property).toLowerCase()))
      collect(node.value);
  });
  return refs;
}

/**
 * Why a CSS text is refused (or null), with the `#id`s its instancing properties reference. `context` is
 * css-tree's: a stylesheet, a declaration list or a value (of the presentation attribute `property`).
 */
function cssCheck(
  text: string,
  context: 'stylesheet' | 'declarationList' | 'value',
  property?: string,
): { why: string | null; refs: string[] } {
  const ast = csstree.parse(text, { context, parseValue: true, parseCustomProperty: false });
  return { why: cssRefusal(ast), refs: instancingRefs(ast, property) };
}

/** Why a parsed CSS text is refused, or null. */
function cssRefusal(ast: csstree.CssNode): string | null {
  let why: string | null = null;
  csstree.walk(ast, (node) => {
    if (why) return;
    switch (node.type) {
      case 'Raw':
        if (node.value.trim() !== '') why = 'unparsed CSS';
        break;
      case 'Atrule':
        why = `CSS @${csstree.ident.decode(node.name)}`;
        break;
      case 'Declaration': {
        const property = csstree.ident.decode(node.property).toLowerCase();
        if (property.includes('filter')) why = 'filters';
        else if (property === 'stroke-dasharray') why = DASHES;
        break;
      }
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

/**
 * Why one element (its decoded name and attribute values) is refused (or null), with the `#id`s it draws again:
 * a `<use>`'s href, its `clip-path` and `mask` references.
 */
function elementCheck(tag: SaxesTagNS): { why: string | null; refs: string[] } {
  const refs: string[] = [];
  if (IGNORED_NAMESPACES.has(tag.uri)) return { why: null, refs };
  if ((tag.uri !== SVG_NS && tag.uri !== '') || !ALLOWED_ELEMENTS.has(tag.local))
    return { why: `element <${tag.name}>`, refs };
  for (const attr of Object.values(tag.attributes)) {
    if (attr.prefix === 'xmlns' || attr.name === 'xmlns') continue;
    const local = attr.local.toLowerCase();
    if (local.includes('filter')) return { why: 'filters', refs };
    if (local === 'stroke-dasharray') return { why: DASHES, refs };
    if (local.startsWith('on')) return { why: `event handler ${attr.name}`, refs };
    if (local === 'href') {
      if (!attr.value.trim().startsWith('#')) return { why: 'external href', refs };
      if (tag.local === 'use') refs.push(attr.value.trim().slice(1));
    }
    const css =
      local === 'style'
        ? cssCheck(attr.value, 'declarationList')
        : CSS_ATTRIBUTES.has(local)
          ? cssCheck(attr.value, 'value', local)
          : null;
    if (css?.why) return { why: css.why, refs };
    if (css) refs.push(...css.refs);
  }
  return { why: null, refs };
}

/** One element of the document: its id, its children (indexes) and the `#id`s it draws again. */
interface PolicyNode {
  id: string | null;
  children: number[];
  refs: string[];
}

/**
 * How many elements the document draws with every reference expanded (saturating at `limit + 1`), or `'cycle'`
 * when references loop. `sheetRefs`: ids a stylesheet's `clip-path`/`mask` may apply to any element, so each
 * element is counted as drawing them (each counted without the stylesheet's, which cannot nest without a cycle
 * that librsvg refuses to draw).
 */
function renderedElements(nodes: PolicyNode[], sheetRefs: string[], limit: number): number | 'cycle' {
  const byId = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (n.id !== null && !byId.has(n.id)) byId.set(n.id, i);
  });
  // Per mode (1: the stylesheet's references apply, 0: they do not), the cost of each element and those on the path.
  const memo = [new Map<number, number>(), new Map<number, number>()];
  const visiting = [new Set<number>(), new Set<number>()];
  let cycle = false;
  const cost = (i: number, sheet: 0 | 1): number => {
    const known = memo[sheet].get(i);
    if (known !== undefined) return known;
    if (visiting[sheet].has(i)) {
      cycle = true;
      return limit + 1;
    }
    visiting[sheet].add(i);
    let total = 1;
    const add = (id: string, mode: 0 | 1) => {
      const target = byId.get(id);
      if (target !== undefined && total <= limit) total += cost(target, mode);
    };
    for (const r of nodes[i].refs) add(r, sheet);
    if (sheet) for (const r of sheetRefs) add(r, 0);
    for (const c of nodes[i].children) if (total <= limit) total += cost(c, sheet);
    visiting[sheet].delete(i);
    const capped = Math.min(total, limit + 1);
    memo[sheet].set(i, capped);
    return capped;
  };
  const drawn = nodes.length ? cost(0, 1) : 0;
  return cycle ? 'cycle' : drawn;
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
  const nodes: PolicyNode[] = [];
  const open: number[] = [];
  const sheetRefs: string[] = [];
  const refuse = (reason: string | null) => {
    why ??= reason;
  };
  const parser = new SaxesParser({ xmlns: true, position: false });
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) refuse('entity declarations');
  });
  parser.on('processinginstruction', (pi) => refuse(`processing instruction <?${pi.target}?>`));
  let costly = false;
  parser.on('opentag', (tag) => {
    if (++elements > SVG_MAX_ELEMENTS) return refuse('too many elements');
    if (tag.uri === SVG_NS && COSTLY_PAINT_ELEMENTS.has(tag.local)) costly = true;
    const { why: refused, refs } = elementCheck(tag);
    refuse(refused);
    const id = Object.values(tag.attributes).find((a) => a.local === 'id' && (a.uri === '' || a.prefix === 'xml'));
    const index = nodes.push({ id: id ? id.value.trim() : null, children: [], refs }) - 1;
    if (open.length) nodes[open[open.length - 1]].children.push(index);
    open.push(index);
    if (tag.local === 'style') styleDepth++;
  });
  parser.on('text', (text) => {
    if (styleDepth) css += text;
  });
  parser.on('cdata', (text) => {
    if (styleDepth) css += text;
  });
  parser.on('closetag', (tag) => {
    open.pop();
    if (tag.local === 'style' && --styleDepth === 0) {
      const sheet = cssCheck(css, 'stylesheet');
      refuse(sheet.why);
      sheetRefs.push(...sheet.refs);
      css = '';
    }
  });
  try {
    parser.write(svg.toString('utf8').replace(/^\uFEFF/, '')).close();
  } catch (err) {
    return why ?? `not well-formed XML (${(err as Error).message.split('\n')[0]})`;
  }
  if (why) return why;
  const drawn = renderedElements(nodes, [...new Set(sheetRefs)], SVG_MAX_RENDERED_ELEMENTS);
  if (drawn === 'cycle') return 'reference cycle';
  if (drawn > SVG_MAX_RENDERED_ELEMENTS)
    return `more than ${SVG_MAX_RENDERED_ELEMENTS} elements drawn through references`;
  if (costly && drawn > SVG_MAX_COSTLY_RENDERED_ELEMENTS)
    return `more than ${SVG_MAX_COSTLY_RENDERED_ELEMENTS} elements drawn with gradients or masks`;
  return null;
}
