/**
 * Issue 41, point 9: every e-mail as a mail client and a calendar read it. Each template rendered by the mail job
 * handler, built into the message SMTP would carry (nodemailer's stream transport) and read back with mailparser:
 * `Auto-Submitted: auto-generated`, no remote stylesheet or font (MJML's Google Fonts link), no remote resource at
 * all (the organisation's logo is an inline PNG part, `cid:`); the `.ics` read with ical.js and as text: DTSTAMP in UTC, CRLF after every line, no
 * non-standard TIMEZONE-ID.
 */
import ICAL from 'ical.js';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMailJobHandler, type MailJobInput } from '../src/providers/mail/mail-jobs.js';
import { LOGO_CID } from '../src/providers/mail/mail-logo.js';
import type { MailMessage, MailProvider } from '../src/providers/mail/mail.provider.js';
import { sampleTicket } from './mail-fixtures.js';

const PANEL = 'http://panel.test';
const LOGO = 'https://cdn.acme.example/logo.png';
const org = { slug: 'acme', name: 'Acme Events', logoUrl: LOGO, primaryColor: '#ff9900' };
const at = new Date('2026-11-20T09:15:30Z');
const ticket = sampleTicket();
const ticketParams = { ticket, link: `${PANEL}/en/?org=acme`, at };

/** One payload per template, in both languages, branded (with a logo URL, fetched: `logoOf`) and unbranded. */
const payloads: MailJobInput[] = (['en', 'es'] as const).flatMap((locale) =>
  [org, null].flatMap((o) => {
    const common = { to: 'holder@example.com', locale, org: o };
    return [
      { ...common, template: 'signInCode', params: { code: '123456', minutes: 10 } },
      { ...common, template: 'giftReceived', params: { ...ticketParams, giver: 'Ann' } },
      { ...common, template: 'resaleCode', params: { ...ticketParams, quantity: 2 } },
      {
        ...common,
        template: 'listingSold',
        params: {
          eventName: 'Laneway',
          ticketName: 'GA',
          quantity: 1,
          amountCents: 5000,
          currencyCode: 'AUD',
          link: PANEL,
        },
      },
      { ...common, template: 'ticketIssued', params: ticketParams },
      { ...common, template: 'reminder', params: ticketParams },
      { ...common, template: 'eventChanged', params: { ...ticketParams, sequence: 3 } },
      { ...common, template: 'swapDone', params: { ...ticketParams, quantity: 1 } },
      { ...common, template: 'ticketRevoked', params: { ticket: ticketParams.ticket, link: PANEL } },
      {
        ...common,
        template: 'refundApproved',
        params: { ticket: ticketParams.ticket, link: PANEL, reference: 'SHOP-1' },
      },
      {
        ...common,
        template: 'refundDeclined',
        params: { ticket: ticketParams.ticket, link: PANEL, reason: 'Too late.' },
      },
      { ...common, template: 'memberInvited', params: { role: 'staff', link: 'http://panel.test/console' } },
      {
        ...common,
        template: 'exchangeOffered',
        params: {
          ticket,
          quantity: 2,
          amountCents: 18000,
          currencyCode: 'AUD',
          expiresAt: new Date('2026-11-20T09:35:30Z'),
          link: PANEL,
        },
      },
      { ...common, template: 'exchangeEnded', params: { eventName: 'Laneway', reason: 'expired', link: PANEL } },
      { ...common, template: 'exchangeEnded', params: { eventName: 'Laneway', reason: 'closed', link: PANEL } },
    ] satisfies MailJobInput[];
  }),
);

/** Renders every payload through the job handler; answers what the provider was given. */
async function sendAll(): Promise<{ payload: MailJobInput; message: MailMessage }[]> {
  const sent: MailMessage[] = [];
  const mail: MailProvider = {
    send: (m) => {
      sent.push(m);
      return Promise.resolve();
    },
    outbox: () => [],
    close: () => undefined,
  };
  const handler = createMailJobHandler({
    mail,
    config: { productName: 'Ticket Panel', publicUrl: PANEL },
    logoOf: (slug) => Promise.resolve(slug === 'acme' ? logoPng : null),
  });
  const out = [];
  for (const payload of payloads) {
    await handler(payload, { jobId: out.length + 1, kind: 'mail', attempt: 1 });
    out.push({ payload, message: sent.at(-1)! });
  }
  return out;
}

/** The raw message nodemailer would hand to the SMTP server, parsed by mailparser (`cid:` links kept as sent). */
async function parsed(m: MailMessage) {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail({ from: 'Ticket Panel <no-reply@panel.test>', ...m });
  return simpleParser(info.message, { keepCidLinks: true });
}

/** The organisation's logo as the logo job keeps it: an 80 px PNG. */
let logoPng: Buffer;
beforeAll(async () => {
  logoPng = await sharp({ create: { width: 80, height: 80, channels: 4, background: '#ff9900' } })
    .png()
    .toBuffer();
});

describe('every e-mail (issue 41, point 9)', () => {
  it('says Auto-Submitted: auto-generated and loads no remote resource, the logo an inline part', async () => {
    const all = await sendAll();
    expect(all).toHaveLength(60);
    for (const { payload, message } of all) {
      const name = `${payload.template} ${payload.locale} ${payload.org ? 'branded' : 'unbranded'}`;
      const mail = await parsed(message);
      expect(mail.headers.get('auto-submitted'), name).toBe('auto-generated');
      const html = typeof mail.html === 'string' ? mail.html : '';
      expect(html, name).toContain('<html');
      expect(html, name).not.toMatch(/fonts\.googleapis|fonts\.gstatic/i);
      expect(html, name).not.toMatch(/<link\b/i);
      expect(html, name).not.toMatch(/@import/i);
      expect(html, name).not.toMatch(/url\(\s*['"]?https?:/i);
      // Only links (<a href>) point elsewhere; the organisation's logo is a part of the mail (issue 41 point 9).
      const loaded = [...html.matchAll(/<(?!a\b)[a-z]+\b[^>]*\b(?:src|href|background)\s*=\s*"([^"]*)"/gi)].map(
        (x) => x[1],
      );
      expect(loaded, name).toEqual(payload.org ? [`cid:${LOGO_CID}`] : []);
      expect(html, name).not.toContain(LOGO);
      const inline = mail.attachments.filter((a) => a.contentDisposition === 'inline');
      expect(
        inline.map((a) => [a.cid, a.contentType]),
        name,
      ).toEqual(payload.org ? [[LOGO_CID, 'image/png']] : []);
      if (payload.org) expect(inline[0].content.equals(logoPng), name).toBe(true);
    }
  });

  it('carries an .ics that ical.js reads, DTSTAMP in UTC, CRLF after every line, no TIMEZONE-ID', async () => {
    const withCalendar = (await sendAll()).filter(({ message }) =>
      message.attachments?.some((a) => a.filename.endsWith('.ics')),
    );
    expect(withCalendar.length).toBe(24);
    for (const { payload, message } of withCalendar) {
      const name = `${payload.template} ${payload.locale}`;
      const mail = await parsed(message);
      const file = mail.attachments.find((a) => a.filename?.endsWith('.ics'));
      expect(file?.contentType, name).toBe('text/calendar');
      const text = file!.content.toString('utf8');
      expect(text.endsWith('END:VCALENDAR\r\n'), name).toBe(true);
      expect(text.replace(/\r\n/g, ''), name).not.toMatch(/[\r\n]/);
      expect(text, name).not.toMatch(/^TIMEZONE-ID/m);
      expect(text, name).toMatch(/^DTSTAMP:20261120T091530Z\r$/m);
      const cal = new ICAL.Component(ICAL.parse(text) as unknown[]);
      ICAL.TimezoneService.register(cal.getFirstSubcomponent('vtimezone')!);
      expect(cal.getFirstPropertyValue('timezone-id'), name).toBeNull();
      const vevent = cal.getFirstSubcomponent('vevent')!;
      const stamp = vevent.getFirstPropertyValue('dtstamp') as ICAL.Time;
      expect(stamp.zone?.tzid, name).toBe('UTC');
      expect(stamp.toJSDate().toISOString(), name).toBe(at.toISOString());
      const event = new ICAL.Event(vevent);
      expect(event.startDate.zone?.tzid, name).toBe('Australia/Sydney');
      expect(event.startDate.toJSDate().toISOString(), name).toBe(ticket.event.startsAt.toISOString());
    }
  });
});
