/**
 * The one layout of every e-mail (issue 23, decision 025): HTML from MJML and a plain-text part from the same
 * content, branded with the organisation's name, logo and colour (the product's name and colour otherwise).
 *
 * MJML takes milliseconds per render, too slow for a 10,000-ticket import on the main thread, so a layout is
 * compiled once per shape (which blocks a mail has), language and colours, with placeholder tokens where the
 * texts go; each mail then only fills the cached HTML with its escaped texts (one string pass). Accessibility:
 * real text (a logo is only beside the name, decorative: `alt=""`, so that a reader or a client that blocks images
 * says the name once, issue 40 point 5), a heading, `lang` on the document,
 * text colours at 4.5:1 or more on their backgrounds (the accent comes from `brand-colors.ts`). No images but the
 * organisation's logo, no tracking pixels, no link rewriting, no remote stylesheet or font, and no remote resource at
 * all (decision 025, issue 41 point 9): the logo is a part of the mail itself (`cid:`, mail-logo.ts).
 */
import { escapeHtml } from '../../pages/html.js';
import type { Locale } from '@tp/contract';
import { createMjmlCompiler } from './mjml-compiler.js';

/** Who the e-mail speaks for: an organisation's brand, or the product's look. */
export interface MailBrand {
  /** Shown as text in the header, beside the logo (whose alt text is empty: the name is not said twice). */
  name: string;
  /**
   * The content id of the logo's inline PNG part (`<img src="cid:…">`, the part attached by mail-jobs.ts); null: the
   * name alone (no logo, or not fetched yet, or refused). Never a remote URL (issue 41 point 9).
   */
  logoCid: string | null;
  /** Button and link colour, `#rrggbb`, at least 4.5:1 on white and on the page colour. */
  accent: string;
  /** Text colour on the accent (buttons), at least 4.5:1 on it. */
  accentText: string;
  /** The product's name (PRODUCT_NAME): the sender named in the small print. */
  productName: string;
  /** True for an organisation's brand, false for the product's own look. */
  organisation: boolean;
}

/** One line of facts: a label and its value, the value a link when `href` is set (e.g. the venue's map). */
export interface MailFact {
  label: string;
  value: string;
  href?: string;
}

/** What one e-mail says; every string is plain text (escaped here). */
export interface MailContent {
  lang: Locale;
  brand: MailBrand;
  subject: string;
  /** The mail's heading; the subject when not given. */
  heading?: string;
  paragraphs: string[];
  /** A code shown large (the sign-in code). */
  code?: string;
  facts?: MailFact[];
  /** The button; its label and link also end the text part. */
  cta?: { label: string; href: string };
  /** Small print: who sent it and why. */
  footer: string;
  /** A link after the small print (the reminder's unsubscribe link, issue 41 point 9). */
  footerLink?: { label: string; href: string };
}

/** A rendered e-mail, ready for the mail provider. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Page, surface and text colours (the panel's light theme, apps/panel/src/app/styles.css). */
const PAGE = '#f5f6f8';
const SURFACE = '#ffffff';
const TEXT = '#14161a';
/** Secondary text: 7.6:1 on PAGE. */
const MUTED = '#4a4f57';
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** Compiled layouts kept; the cache is emptied when full (one entry per shape, language and colour pair). */
const CACHE_MAX = 500;
const compiled = new Map<string, Promise<string>>();

/** The placeholder of slot `name` in a layout (letters and digits only; never produced by escaping). */
const slot = (name: string) => `%%${name}%%`;

/** The MJML of a layout: slots where the texts go. */
function layoutMjml(shape: Shape, lang: Locale, accent: string, accentText: string): string {
  const paragraphs = Array.from({ length: shape.paragraphs }, (_, i) => `<mj-text>${slot(`p${i}`)}</mj-text>`);
  const facts = shape.facts
    ? `<mj-table padding="8px 25px" cellpadding="6px">${Array.from(
        { length: shape.facts },
        (_, i) =>
          `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:6px 12px 6px 0;color:${MUTED};font-weight:600;white-space:nowrap">${slot(`fl${i}`)}</th><td style="padding:6px 0;color:${TEXT}">${slot(`fv${i}`)}</td></tr>`,
      ).join('')}</mj-table>`
    : '';
  const logo = shape.logo
    ? `<img src="${slot('logo')}" alt="" width="40" height="40" style="vertical-align:middle;margin-right:12px;border:0;border-radius:6px">`
    : '';
  return `<mjml lang="${lang}">
  <mj-head>
    <mj-title>${slot('title')}</mj-title>
    <mj-preview>${slot('preview')}</mj-preview>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
      <mj-text color="${TEXT}" font-size="16px" line-height="24px" />
    </mj-attributes>
    <mj-style>a { color: ${accent}; }</mj-style>
  </mj-head>
  <mj-body background-color="${PAGE}" width="600px">
    <mj-section padding="24px 0 12px">
      <mj-column>
        <mj-text font-size="18px" line-height="40px" font-weight="700" padding="0 25px">${logo}<span style="vertical-align:middle">${slot('brand')}</span></mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="${SURFACE}" border-top="4px solid ${accent}" border-radius="8px" padding="16px 0">
      <mj-column>
        <mj-text padding="10px 25px 4px"><h1 style="margin:0;font-size:22px;line-height:30px">${slot('heading')}</h1></mj-text>
        ${paragraphs.join('\n        ')}
        ${shape.code ? `<mj-text font-size="32px" line-height="40px" font-weight="700" letter-spacing="6px">${slot('code')}</mj-text>` : ''}
        ${facts}
        ${shape.cta ? `<mj-button href="${slot('ctaHref')}" background-color="${accent}" color="${accentText}" font-size="16px" font-weight="700" border-radius="6px" align="left" inner-padding="12px 22px">${slot('cta')}</mj-button>` : ''}
      </mj-column>
    </mj-section>
    <mj-section padding="12px 0 24px">
      <mj-column>
        <mj-text color="${MUTED}" font-size="13px" line-height="20px">${slot('footer')}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

/** Which blocks a mail has: its layout's cache key. */
interface Shape {
  paragraphs: number;
  facts: number;
  code: boolean;
  cta: boolean;
  logo: boolean;
}

/** MJML, on its own thread once compiled (mjml-compiler.ts): loaded on the first layout, never on the event loop. */
const layoutCompiler = createMjmlCompiler();

/**
 * The compiled HTML of a layout, from the cache or compiled now (MJML, strict validation); concurrent mails of
 * one layout share one compilation.
 * @throws Error when MJML reports an error in the layout (a bug here, never the mail's content)
 */
function compiledLayout(shape: Shape, lang: Locale, brand: MailBrand): Promise<string> {
  const key = `${lang}|${brand.accent}|${brand.accentText}|${shape.paragraphs}|${shape.facts}|${+shape.code}|${+shape.cta}|${+shape.logo}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const html = layoutCompiler.compile(layoutMjml(shape, lang, brand.accent, brand.accentText));
  if (compiled.size >= CACHE_MAX) compiled.clear();
  compiled.set(key, html);
  html.catch(() => compiled.delete(key));
  return html;
}

/** The plain-text part: the same content, one block per paragraph, links written out. */
function textPart(c: MailContent & { heading: string }): string {
  const blocks = [c.brand.name, c.heading, ...c.paragraphs];
  if (c.code) blocks.push(c.code);
  if (c.facts?.length)
    blocks.push(c.facts.map((f) => `${f.label}: ${f.value}${f.href ? ` <${f.href}>` : ''}`).join('\n'));
  if (c.cta) blocks.push(`${c.cta.label}: ${c.cta.href}`);
  blocks.push(`--\n${c.footer}${c.footerLink ? `\n${c.footerLink.label}: ${c.footerLink.href}` : ''}`);
  return blocks.join('\n\n');
}

/**
 * Renders an e-mail: the cached layout of its shape filled with its escaped texts, and the text part (the heading
 * is the subject unless given). After the
 * first mail of a shape, language and colour pair it costs one string pass (no MJML).
 */
export async function renderMail(content: MailContent): Promise<RenderedMail> {
  const c = { ...content, heading: content.heading ?? content.subject };
  const facts = c.facts ?? [];
  const shape: Shape = {
    paragraphs: c.paragraphs.length,
    facts: facts.length,
    code: c.code !== undefined,
    cta: c.cta !== undefined,
    logo: c.brand.logoCid !== null,
  };
  const values: Record<string, string> = {
    title: escapeHtml(c.subject),
    preview: escapeHtml(c.paragraphs[0] ?? c.heading),
    brand: escapeHtml(c.brand.name),
    logo: c.brand.logoCid ? escapeHtml(`cid:${c.brand.logoCid}`) : '',
    heading: escapeHtml(c.heading),
    code: escapeHtml(c.code ?? ''),
    cta: escapeHtml(c.cta?.label ?? ''),
    ctaHref: escapeHtml(c.cta?.href ?? ''),
    // The small print's link is part of its slot: the layout's shape (its cache key) stays the same.
    footer:
      escapeHtml(c.footer) +
      (c.footerLink
        ? ` <a href="${escapeHtml(c.footerLink.href)}" style="color:${MUTED}">${escapeHtml(c.footerLink.label)}</a>`
        : ''),
  };
  c.paragraphs.forEach((p, i) => (values[`p${i}`] = escapeHtml(p)));
  facts.forEach((f, i) => {
    values[`fl${i}`] = escapeHtml(f.label);
    values[`fv${i}`] = f.href
      ? `<a href="${escapeHtml(f.href)}" style="color:${c.brand.accent}">${escapeHtml(f.value)}</a>`
      : escapeHtml(f.value);
  });
  // One pass: an inserted text is never scanned again, so a text that looks like a slot stays text.
  const html = (await compiledLayout(shape, c.lang, c.brand)).replace(/%%([a-zA-Z0-9]+)%%/g, (m, name: string) =>
    name in values ? values[name] : m,
  );
  return { subject: c.subject, text: textPart(c), html };
}
