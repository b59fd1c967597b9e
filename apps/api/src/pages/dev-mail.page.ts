/** The dev outbox page: every e-mail the API would have sent, newest first. */
import type { OutboxEntry } from '../providers/mail/mail.provider.js';
import { escapeHtml } from './html.js';

export function renderDevMail(entries: OutboxEntry[]): string {
  const items = entries
    .map(
      (m) =>
        `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">to ${escapeHtml(m.to)} · ${escapeHtml(m.at)}</p><pre>${escapeHtml(m.text)}</pre>${(
          m.attachments ?? []
        )
          .map(
            (a, i) =>
              `<a download="${escapeHtml(a.filename)}" href="data:${escapeHtml(a.contentType)};base64,${a.content.toString('base64')}">${escapeHtml(a.filename)}</a>${i ? '' : ''}`,
          )
          .join(' ')}</article>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Dev outbox</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1d1d1f}article{border:1px solid #ddd;border-radius:12px;padding:1rem;margin:1rem 0}h2{font-size:1.05rem;margin:0}.meta{color:#666;margin:.25rem 0}pre{white-space:pre-wrap;background:#f6f6f6;padding:.75rem;border-radius:8px}</style></head>
<body><h1>Dev outbox</h1><p>E-mails are kept here while no SMTP_URL is configured.</p>${items || '<p>No e-mail yet.</p>'}</body></html>`;
}
