/** Whether a file is Markdown, by its name's extension (.md, .markdown, .mdown, .mkd). */
export function isMarkdown(name: string): boolean {
  return /\.(md|markdown|mdown|mkd)$/i.test(name);
}

/**
 * Whether a file opens rendered: a Markdown text file, also for a user who may not modify it
 * (type textImmutable), who reads it rendered and gets the read-only editor with "Edit".
 */
export function opensRendered(file: { type: string; name: string }): boolean {
  return (file.type === 'text' || file.type === 'textImmutable') && isMarkdown(file.name);
}

/**
 * Markdown to HTML (CommonMark plus GFM tables, task lists, strikethrough, autolinks), loaded on
 * first use. micromark's defaults are kept on purpose: raw HTML in the file is escaped, so shown
 * as text and never run, and javascript:/data: and other unsafe link targets are dropped.
 */
export async function renderMarkdown(text: string): Promise<string> {
  const [{ micromark }, { gfm, gfmHtml }] = await Promise.all([import('micromark'), import('micromark-extension-gfm')]);
  return micromark(text, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}
