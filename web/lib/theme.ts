export type ThemeName = 'light' | 'dark';

/**
 * The theme to show (product.md §3): the person's own choice in this browser when made, else the
 * instance's branding theme. Only 'dark' is dark: '' (and anything unknown) means light, whatever
 * the operating system prefers.
 */
export function resolveTheme(own: string | null, branding: string): ThemeName {
  return (own ?? branding) === 'dark' ? 'dark' : 'light';
}
