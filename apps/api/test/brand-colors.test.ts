/**
 * An organiser's colour themes the panel with WCAG AA contrast in both themes (issue 12,
 * modules/branding/brand-colors.ts). Pure functions: no app, no database.
 */
import { describe, expect, it } from 'vitest';
import {
  AA_CONTRAST,
  THEME_COLORS,
  accentPalette,
  brandTheme,
  contrastRatio,
  ensureContrast,
  readableTextOn,
  type Theme,
} from '../src/modules/branding/brand-colors.js';

const THEMES: Theme[] = ['light', 'dark'];
// Pale, mid, dark and saturated organiser colours, and the extremes.
const COLOURS = ['#ffeb3b', '#7fdbff', '#3b5bfd', '#e11d48', '#0a2540', '#00ff00', '#ffffff', '#000000', '#808080'];

describe('contrastRatio', () => {
  it('is the WCAG ratio: 21 for black on white, 1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#3b5bfd', '#3b5bfd')).toBe(1);
  });
});

describe('readableTextOn', () => {
  it('picks dark text on a pale colour and white text on a dark one', () => {
    expect(readableTextOn('#ffeb3b', 'light')).toBe(THEME_COLORS.light.onAccentDark);
    expect(readableTextOn('#0a2540', 'light')).toBe('#ffffff');
  });
});

describe('ensureContrast', () => {
  it('keeps a colour that already passes on the theme', () => {
    expect(ensureContrast('#0a2540', 'light')).toBe('#0a2540');
    expect(ensureContrast('#7fdbff', 'dark')).toBe('#7fdbff');
  });
  it('darkens a pale colour on the light theme and lightens a dark one on the dark theme, keeping its hue', () => {
    const light = ensureContrast('#ffeb3b', 'light');
    expect(contrastRatio(light, '#ffffff')).toBeGreaterThanOrEqual(AA_CONTRAST);
    expect(contrastRatio(light, '#ffeb3b')).toBeGreaterThan(1.5);
    const dark = ensureContrast('#0a2540', 'dark');
    expect(contrastRatio(dark, THEME_COLORS.dark.surface)).toBeGreaterThanOrEqual(AA_CONTRAST);
    // Still a blue: more blue than red.
    expect(parseInt(dark.slice(5, 7), 16)).toBeGreaterThan(parseInt(dark.slice(1, 3), 16));
  });
});

describe('accentPalette', () => {
  for (const theme of THEMES) {
    for (const colour of COLOURS) {
      it(`${colour} on the ${theme} theme reaches AA for links, button text and selected rows`, () => {
        const p = accentPalette(colour, theme)!;
        const { bg, surface, text } = THEME_COLORS[theme];
        expect(contrastRatio(p.accent, bg)).toBeGreaterThanOrEqual(AA_CONTRAST);
        expect(contrastRatio(p.accent, surface)).toBeGreaterThanOrEqual(AA_CONTRAST);
        expect(contrastRatio(p.accentText, p.accent)).toBeGreaterThanOrEqual(AA_CONTRAST);
        expect(contrastRatio(text, p.accentSoft)).toBeGreaterThanOrEqual(AA_CONTRAST);
      });
    }
  }
  it('refuses what is not a #rrggbb colour', () => {
    for (const bad of ['red', '#fff', 'url(x)', '#12345g', '#1234567']) expect(accentPalette(bad, 'light')).toBeNull();
  });
});

describe('brandTheme', () => {
  it('gives both themes, darkening a pale colour for the light one only; null without a colour', () => {
    const theme = brandTheme('#ffeb3b')!;
    expect(theme.dark.accent).toBe('#ffeb3b');
    expect(theme.light.accent).not.toBe('#ffeb3b');
    expect(theme.light.focus).toMatch(/^0 0 0 3px rgb\(\d+ \d+ \d+ \/ 40%\)$/);
    expect(brandTheme(null)).toBeNull();
    expect(brandTheme('red;}body{display:none')).toBeNull();
  });
});
