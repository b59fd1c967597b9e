/**
 * The SVG avatar policy decides on the parsed document (issue 19, break 6): character references
 * (`&#102;ilter`) and CSS escapes (`fil\74 er`) no longer smuggle a filter, an import or an external
 * reference past it, while ordinary editor output still passes. One hostile case also goes through the
 * upload route to show the key the holder sees.
 * PGlite project only (vitest.config.ts `oneDatabaseFiles`): nothing here differs by database.
 */
import { describe, expect, it } from 'vitest';
import { looksLikeSvg } from '../src/providers/images/image-pool.js';
import { svgRefusal } from '../src/providers/images/svg-policy.js';
import { bearer, createTestApp } from './helper.js';

const svg = (body: string, attrs = '') =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"${attrs}>${body}</svg>`,
  );

describe('SVG sniffing', () => {
  it('reads a run of empty comments in one pass (issue 39, fourth re-audit: 26 of them held the event loop 8 s)', () => {
    // With the old regular expression 40 comments would take hours: this test would never end.
    expect(looksLikeSvg(Buffer.from(`${'<!---->'.repeat(40)}<x`))).toBe(false);
    expect(looksLikeSvg(Buffer.from(`${'<!---->'.repeat(40)}<svg xmlns="http://www.w3.org/2000/svg"/>`))).toBe(true);
    expect(
      looksLikeSvg(
        Buffer.from(
          '\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg width="1">',
        ),
      ),
    ).toBe(true);
    expect(looksLikeSvg(Buffer.from('<!-- never closed <svg>'))).toBe(false);
    expect(looksLikeSvg(Buffer.from('<html><svg></svg></html>'))).toBe(false);
  });
});

describe('SVG policy on the parsed document', () => {
  it('refuses filters however they are spelled', () => {
    const bypasses = [
      svg('<rect width="64" height="64" style="&#102;ilter:blur(150px)"/>'),
      svg('<rect width="64" height="64" style="&#x66;&#x69;lter: blur(150px)"/>'),
      svg('<style>rect{fil\\74 er:blur(150px)}</style><rect width="64" height="64"/>'),
      svg('<style>rect{fil\\000074er:blur(150px)}</style><rect width="64" height="64"/>'),
      svg('<style><![CDATA[rect{\\66ilter:blur(150px)}]]></style><rect width="64" height="64"/>'),
      svg('<rect width="64" height="64" style="fil\\74 er:blur(150px)"/>'),
      svg('<rect width="64" height="64" filter="url(#b)"/>'),
      svg('<fe&#71;aussianBlur/>'),
    ];
    for (const doc of bypasses) expect(svgRefusal(doc), doc.toString()).not.toBeNull();
  });

  it('refuses dashed strokes however they are written: each dash is drawn (issue 39 audit: 1,500 dashed circles ran past the deadline)', () => {
    const circle = (extra: string) => `<circle cx="32" cy="32" r="20" fill="none" stroke="red"${extra}/>`;
    const dashed = [
      svg(circle(' stroke-dasharray="0.01"')),
      svg(circle(' STROKE-DASHARRAY="0.01"')),
      svg(circle(' style="stroke-dasharray: 0.01"')),
      svg(circle(' style="stroke-&#100;asharray: 0.01"')),
      svg(`<style>circle{stroke-dasharray:.01}</style>${circle('')}`),
      svg('<style>circle{stroke-\\64 asharray:.01}</style>' + circle('')),
    ];
    for (const doc of dashed) expect(svgRefusal(doc), doc.toString()).toMatch(/dash/);
    expect(svgRefusal(svg(circle(' stroke-width="2"')))).toBeNull();
  });

  it('bounds what gradients and masks may paint: 150 elements, however drawn (issue 39 item 9, re-audit: 1,900 gradient circles ran past the deadline)', () => {
    const defs =
      '<defs><radialGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></radialGradient>' +
      '<mask id="m"><rect width="64" height="64" fill="white"/></mask></defs>';
    const circles = (n: number, paint: string) =>
      Array.from({ length: n }, (_, i) => `<circle cx="32" cy="32" r="${30 - (i % 20)}" ${paint}/>`).join('');
    expect(svgRefusal(svg(defs + circles(1900, 'fill="url(#g)"')))).toMatch(/gradients or masks/);
    expect(svgRefusal(svg(defs + circles(200, 'fill="red" mask="url(#m)"')))).toMatch(/gradients or masks/);
    // Through a stylesheet, and with only a few elements instanced many times.
    expect(svgRefusal(svg(`${defs}<style>circle{fill:url(#g)}</style>${circles(400, '')}`))).toMatch(/gradients/);
    const group = `<g id="a">${circles(20, 'fill="url(#g)"')}</g>`;
    expect(svgRefusal(svg(defs + group + '<use href="#a"/>'.repeat(10)))).toMatch(/gradients or masks/);
    // An ordinary avatar with a gradient background, and a large solid-colour drawing, still pass.
    expect(
      svgRefusal(svg(defs + '<rect width="64" height="64" fill="url(#g)"/>' + circles(100, 'fill="red"'))),
    ).toBeNull();
    expect(svgRefusal(svg(circles(1900, 'fill="red"')))).toBeNull();
  });

  it('refuses escaped imports, external url() and href, entities and stylesheets', () => {
    const bad = [
      svg('<style>@\\69mport "https://evil.test/a.css";</style>'),
      svg('<style>rect{fill:\\75 rl(https://evil.test/x)}</style><rect width="1" height="1"/>'),
      svg('<rect width="1" height="1" fill="\\75 rl(https://evil.test/x)"/>'),
      svg('<rect width="1" height="1" fill="url(&#104;ttps://evil.test/x)"/>'),
      svg('<use xlink:href="&#104;ttps://evil.test/a.svg#a"/>'),
      svg('<use href=" https://evil.test/a.svg#a"/>'),
      Buffer.from(
        '<!DOCTYPE svg [<!ENTITY f "filter">]><svg xmlns="http://www.w3.org/2000/svg"><rect style="&f;:blur(9px)"/></svg>',
      ),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect style="&f;:blur(9px)"/></svg>'),
      Buffer.from('<?xml-stylesheet href="https://evil.test/a.css"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
      svg('<script>alert(1)</script>'),
      svg('<rect width="1" height="1"/>', ' onload="alert(1)"'),
      svg('<image href="#a"/>'),
      svg('<rect width="1" height="1"'),
    ];
    for (const doc of bad) expect(svgRefusal(doc), doc.toString()).not.toBeNull();
  });

  it('accepts ordinary avatars: shapes, gradients by #id, inline CSS, editor metadata, character references in text', () => {
    const good = [
      svg('<rect width="64" height="64" fill="teal"/>'),
      svg(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="rgb(0 0 255)"/></linearGradient></defs><circle cx="32" cy="32" r="30" fill="url(#g)" stroke="url( \'#g\' )"/>',
      ),
      svg(
        '<style>.a{fill:#c33;stroke:hsl(10 50% 50%)}</style><rect class="a" width="64" height="64" transform="rotate(5)"/>',
      ),
      svg('<symbol id="s"><path d="M0 0L10 10"/></symbol><use xlink:href="#s"/><text>A &amp; B &#233;</text>'),
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?>\n<!-- made by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" inkscape:version="1.3"><sodipodi:namedview id="n"/><g inkscape:label="Layer 1" style="opacity:0.5;fill:#123456"><rect width="9" height="9"/></g></svg>',
      ),
    ];
    for (const doc of good) expect(svgRefusal(doc), doc.toString()).toBeNull();
  });

  it('refuses instancing that multiplies the drawing: nested <use>, clip paths and masks drawn per element, cycles (issue 39)', () => {
    /** Each group draws the one before it twice: 2^levels circles from a few hundred bytes. */
    const nested = (levels: number) => {
      let s = '<defs><g id="g0"><circle cx="32" cy="32" r="30"/></g>';
      for (let i = 1; i <= levels; i++) s += `<g id="g${i}"><use href="#g${i - 1}"/><use xlink:href="#g${i - 1}"/></g>`;
      return svg(`${s}</defs><use href="#g${levels}"/>`);
    };
    expect(svgRefusal(nested(18))).toMatch(/drawn through references/);
    expect(svgRefusal(nested(12))).toMatch(/drawn through references/);
    expect(svgRefusal(nested(4))).toBeNull();
    // A mask of 400 circles drawn for each of 100 rectangles, by attribute, by style and by stylesheet.
    const circles = Array.from({ length: 400 }, (_, i) => `<circle cx="${i % 64}" cy="9" r="9"/>`).join('');
    for (const apply of ['mask="url(#m)"', 'style="mask: url(#m)"', 'class="a"']) {
      const rects = Array.from({ length: 100 }, () => `<rect width="64" height="64" ${apply}/>`).join('');
      const doc = svg(`<style>.a{mask:url(#m)}</style><defs><mask id="m">${circles}</mask></defs>${rects}`);
      expect(svgRefusal(doc), apply).toMatch(/drawn through references/);
    }
    expect(svgRefusal(svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>'))).toBe('reference cycle');
    // What editors write stays: a clip path applied by a stylesheet class, used a few times.
    expect(
      svgRefusal(
        svg(
          '<defs><style>.c{clip-path:url(#clip)}</style><clipPath id="clip"><rect class="k" width="64" height="64"/></clipPath></defs><g class="c"><circle cx="32" cy="32" r="30"/></g><use href="#s"/><use href="#s"/><symbol id="s"><path d="M0 0L9 9"/></symbol>',
        ),
      ),
    ).toBeNull();
  });

  it('answers the upload of a character-reference filter with api.profile.avatar_svg_unsupported', async () => {
    const t = await createTestApp({ seed: true });
    try {
      const { accessToken } = await t.signIn('alice@example.com');
      const boundary = '----tpsvg';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.svg"\r\nContent-Type: image/svg+xml\r\n\r\n`,
        ),
        svg('<rect width="64" height="64" style="&#102;ilter:blur(150px)"/>'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/avatar',
        headers: { ...bearer(accessToken), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: 'api.profile.avatar_svg_unsupported' });
    } finally {
      await t.close();
    }
  });
});
