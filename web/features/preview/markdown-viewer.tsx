import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileInfo } from '../../api/types';
import { Spinner } from '../../components/spinner';
import { renderMarkdown } from '../../lib/markdown';

/**
 * A Markdown file rendered as a document. The HTML comes from micromark with its safe defaults
 * (lib/markdown.ts): the file's own HTML is escaped, so it shows as text and never runs.
 */
export function MarkdownViewer({ file }: { file: FileInfo }) {
  const { t } = useTranslation();
  const [html, setHtml] = useState<{ path: string; html: string } | null>(null);
  const text = file.content ?? '';
  useEffect(() => {
    let current = true;
    void renderMarkdown(text).then((rendered) => {
      if (current) setHtml({ path: file.path, html: rendered });
    });
    return () => {
      current = false;
    };
  }, [text, file.path]);
  if (html?.path !== file.path) return <Spinner label={t('app.loading')} />;
  return (
    <div className="markdown-stage">
      {/* dir="auto": a document in Arabic or Hebrew reads right to left whatever the page's language. */}
      <article className="markdown-body" dir="auto" aria-label={file.name} dangerouslySetInnerHTML={{ __html: html.html }} />
    </div>
  );
}
