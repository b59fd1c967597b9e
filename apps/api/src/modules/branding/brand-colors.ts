/**
 * An organiser's primary colour made safe for both of the panel's themes (issue 12, the panel per organiser),
 * computed here so the panel receives ready colours with the branding and loads no colour code: the accent
 * (buttons, links, focus ring, selected states) keeps the organiser's hue and saturation, and its lightness
 * is moved only as far as needed for WCAG AA. Colour maths by colord and its a11y and mix plugins.
 *
 * - The accent is text on the theme's page and surface colours (links, tab labels): contrast at least 4.5:1.
 * - The text on the accent (buttons) is near-white or near-black, whichever reads better: at least 4.5:1.
 * - The soft accent (selected rows) is the accent mixed into the surface; the theme's text stays at 4.5:1 on it.
 */
import { colord, extend, type Colord } from 'colord';
import a11yPlugin from 'colord/plugins/a11y';
import mixPlugin from 'colord/plugins/mix';

extend([a11yPlugin, mixPlugin]);

/** WCAG 2.1 AA minimum contrast for normal text. */
export const AA_CONTRAST = 4.5;

/** The theme colours the accent is drawn on and the text colours drawn with it (apps/panel/src/app/styles.css). */
export const THEME_COLORS = {
  light: { bg: '#f5f6f8', surface: '#ffffff', text: '#14161a', onAccentLight: '#ffffff', onAccentDark: '#14161a' },
  dark: { bg: '#0c0d0f', surface: '#17191c', text: '#f2f4f7', onAccentLight: '#ffffff', onAccentDark: '#111400' },
} as const;
export type Theme = keyof typeof THEME_COLORS;

/** The CSS custom properties one theme gets from the organiser's colour. */
export interface AccentPalette {
  /** `--accent` */
  accent: string;
  /** `--accent-text`: text on the accent. */
  accentText: string;
  /** `--accent-soft`: tinted background of selected items. */
  accentSoft: string;
  /** `--focus`: the focus ring (box-shadow). */
  focus: string;
}

/** WCAG contrast ratio of two colours (1 to 21). */
export const contrastRatio = (a: string, b: string): number => colord(a).contrast(b);

/** Near-white or near-black text for a background, whichever contrasts more. */
export function readableTextOn(background: string, theme: Theme): string {
  const { onAccentLight, onAccentDark } = THEME_COLORS[theme];
  return contrastRatio(onAccentLight, background) >= contrastRatio(onAccentDark, background)
    ? onAccentLight
    : onAccentDark;
}

/**
 * The colour itself when it reaches `AA_CONTRAST` against every background of the theme, else the nearest
 * colour of the same hue that does: darkened on the light theme, lightened on the dark one, one percent of
 * lightness at a time.
 */
export function ensureContrast(hex: string, theme: Theme): string {
  const { bg, surface } = THEME_COLORS[theme];
  const passes = (c: Colord) => c.contrast(bg) >= AA_CONTRAST && c.contrast(surface) >= AA_CONTRAST;
  let c = colord(hex);
  for (let i = 0; i < 100 && !passes(c); i++) c = theme === 'light' ? c.darken(0.01) : c.lighten(0.01);
  return c.toHex();
}

/** The accent palette of one theme for an organiser's `#rrggbb` colour; null for anything that is not a colour. */
export function accentPalette(hex: string, theme: Theme): AccentPalette | null {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return null;
  const accent = ensureContrast(hex, theme);
  const { r, g, b } = colord(accent).toRgb();
  return {
    accent,
    accentText: readableTextOn(accent, theme),
    accentSoft: colord(THEME_COLORS[theme].surface)
      .mix(accent, theme === 'light' ? 0.12 : 0.22)
      .toHex(),
    focus: `0 0 0 3px rgb(${r} ${g} ${b} / 40%)`,
  };
}

/** Both themes' palettes for an organiser's colour (the `theme` of the branding answer); null without one. */
export function brandTheme(hex: string | null): { light: AccentPalette; dark: AccentPalette } | null {
  const light = hex ? accentPalette(hex, 'light') : null;
  const dark = hex ? accentPalette(hex, 'dark') : null;
  return light && dark ? { light, dark } : null;
}
