/** `isEmbedOrigin` (lib/embed-origins.ts): EMBED_ORIGINS' CSP sources read for a page's origin (issue 47). */
import { describe, expect, it } from 'vitest';
import { isEmbedOrigin } from '../src/lib/embed-origins.js';

const SELF = 'https://tickets.example.com';
const sources = [
  "'self'",
  'https://example.com',
  'https://*.example.com',
  'http://localhost:*',
  'https://shop.test:8443',
];

describe('isEmbedOrigin', () => {
  it.each([
    [SELF, true],
    ['https://example.com', true],
    ['https://shop.example.com', true],
    ['https://a.b.example.com', true],
    ['http://localhost:5173', true],
    ['http://localhost', true], // `:*` is any port, the default one too (CSP)
    ['https://shop.test:8443', true],
    ['https://shop.test', false],
    ['http://example.com', false], // another scheme
    ['https://evilexample.com', false], // not a subdomain
    ['https://example.com.evil.test', false],
    ['https://example.com/path', false], // not an origin
    ['null', false],
    ['', false],
  ])('%s → %s', (origin, allowed) => {
    expect(isEmbedOrigin(origin, sources, SELF)).toBe(allowed);
  });
});
