/**
 * index.html is a template with two kinds of holes: one build-time marker that `npm run build`
 * replaces with the hashed entry stylesheet and script, and per-request placeholders
 * `[{[ Name ]}]` (upstream's delimiters) that the server fills on every response.
 */

/** The build-time marker for the entry stylesheet and script. */
export const ENTRY_MARKER = '<!-- filemgr:entry -->';

/** Every per-request placeholder; the values are inserted verbatim, so each is escaped by its producer. */
export const PLACEHOLDERS = ['Title', 'Color', 'StaticURL', 'Nonce', 'Json', 'Preload', 'ReCaptcha', 'CustomCSS'] as const;

export type Placeholder = (typeof PLACEHOLDERS)[number];
export type IndexValues = Readonly<Record<Placeholder, string>>;

const HOLE = /\[\{\[ ([A-Za-z]+) \]\}\]/g;

function isPlaceholder(name: string): name is Placeholder {
  return (PLACEHOLDERS as readonly string[]).includes(name);
}

/**
 * Splits the template once into literal text and holes; throws on an unknown placeholder or a
 * template that was never rendered by the build, so a broken template fails at start, not per request.
 */
export function compileIndex(template: string): (values: IndexValues) => string {
  if (template.includes(ENTRY_MARKER)) throw new Error('index.html still holds the build marker: build it with npm run build');
  const literals: string[] = [];
  const holes: Placeholder[] = [];
  let last = 0;
  for (const match of template.matchAll(HOLE)) {
    const name = match[1] ?? '';
    if (!isPlaceholder(name)) throw new Error(`index.html has an unknown placeholder ${name}`);
    literals.push(template.slice(last, match.index));
    holes.push(name);
    last = match.index + match[0].length;
  }
  literals.push(template.slice(last));
  return (values) => {
    let out = literals[0] ?? '';
    holes.forEach((name, i) => {
      out += values[name] + (literals[i + 1] ?? '');
    });
    return out;
  };
}

/** One modulepreload link for a chunk (a path below /static/). */
export function preloadLink(chunk: string, staticURL = '[{[ StaticURL ]}]'): string {
  return `<link rel="modulepreload" href="${staticURL}/${chunk}">`;
}

/**
 * Renders the build-time part: the entry stylesheet (when there is one), the module script and a
 * modulepreload link for each chunk the script imports statically, so that they download beside
 * it instead of one level of imports after another; then the per-request `Preload` hole, where
 * the server lists the chunks of the screen the address opens (see WebManifest.screens).
 */
export function renderEntry(template: string, entry: { js: string; css: string | null; preload?: readonly string[] }): string {
  if (!template.includes(ENTRY_MARKER)) throw new Error(`web/index.html lacks the marker ${ENTRY_MARKER}`);
  const tags = [
    entry.css ? `<link rel="stylesheet" href="[{[ StaticURL ]}]/${entry.css}">` : '',
    `<script type="module" src="[{[ StaticURL ]}]/${entry.js}"></script>`,
    ...(entry.preload ?? []).map((chunk) => preloadLink(chunk)),
    '[{[ Preload ]}]',
  ].filter(Boolean);
  return template.replace(ENTRY_MARKER, tags.join('\n    '));
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
